//! Credentials the platform reaches a cloud with (the document's `ClusterCredentials`): one record
//! type for every kind, and the requests of `/organization/{id}/{aws,scaleway,gcp,azure}/credentials`.
//! Each kind of credentials a person can create is a `CredentialsVariant` that lists its fields,
//! which of them are secret (kept sealed, never answered) and which are required; the console's
//! form and both sides' rules read that one table.

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::cloud::CloudProvider;
use crate::error::FieldError;
use crate::paths::{self, Template};
use crate::rules::{self, Violations};

wire_enum!(
    /// The kind of a set of credentials, as answered (the document's `oneOf` by `object_type`).
    CredentialsKind {
        Aws = "AWS" => "Access key",
        AwsRole = "AWS_ROLE" => "Role",
        ProviderA = "PROVIDER_A" => "Provider A access key",
        ProviderE = "PROVIDER_E" => "Service account key",
        ProviderEWorkloadIdentityFederation = "PROVIDER_E_WORKLOAD_IDENTITY_FEDERATION" => "Workload identity federation",
        ProviderF = "PROVIDER_F" => "Subscription",
        EksAnywhereVsphere = "EKS_ANYWHERE_VSPHERE" => "EKS Anywhere on vSphere",
        Generic = "OTHER" => "Other",
    }
);

/// A set of credentials as callers see it: what identifies it, never its secrets.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterCredentials {
    pub id: Uuid,
    /// The platform may leave it out.
    #[serde(default, with = "crate::timestamp::option")]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub object_type: CredentialsKind,
    #[serde(default)]
    pub access_key_id: Option<String>,
    #[serde(default)]
    pub role_arn: Option<String>,
    #[serde(default)]
    pub vsphere_user: Option<String>,
    #[serde(default)]
    pub provider_a_access_key: Option<String>,
    #[serde(default)]
    pub provider_a_project_id: Option<String>,
    #[serde(default)]
    pub provider_a_organization_id: Option<String>,
    #[serde(default)]
    pub provider_f_subscription_id: Option<String>,
    #[serde(default)]
    pub provider_f_tenant_id: Option<String>,
    /// The application the platform registers in the tenant to act through.
    #[serde(default)]
    pub provider_f_application_id: Option<String>,
    #[serde(default)]
    pub provider_f_application_object_id: Option<String>,
    #[serde(default)]
    pub project_id: Option<String>,
    #[serde(default)]
    pub service_account_email: Option<String>,
    #[serde(default)]
    pub workload_identity_provider_resource: Option<String>,
    #[serde(default)]
    pub token_lifetime_seconds: Option<i32>,
}

impl ClusterCredentials {
    /// A record of `name` and kind, nothing else set yet.
    pub fn new(id: Uuid, name: String, object_type: CredentialsKind) -> Self {
        ClusterCredentials {
            id,
            created_at: None,
            updated_at: None,
            name,
            object_type,
            access_key_id: None,
            role_arn: None,
            vsphere_user: None,
            provider_a_access_key: None,
            provider_a_project_id: None,
            provider_a_organization_id: None,
            provider_f_subscription_id: None,
            provider_f_tenant_id: None,
            provider_f_application_id: None,
            provider_f_application_object_id: None,
            project_id: None,
            service_account_email: None,
            workload_identity_provider_resource: None,
            token_lifetime_seconds: None,
        }
    }

    /// The record's field named `field` (a request's field of the same name), if it has one.
    fn field_mut(&mut self, field: &str) -> Option<&mut Option<String>> {
        Some(match field {
            "access_key_id" => &mut self.access_key_id,
            "role_arn" => &mut self.role_arn,
            "vsphere_user" => &mut self.vsphere_user,
            "provider_a_access_key" => &mut self.provider_a_access_key,
            "provider_a_project_id" => &mut self.provider_a_project_id,
            "provider_a_organization_id" => &mut self.provider_a_organization_id,
            "provider_f_subscription_id" => &mut self.provider_f_subscription_id,
            "provider_f_tenant_id" => &mut self.provider_f_tenant_id,
            "service_account_email" => &mut self.service_account_email,
            "workload_identity_provider_resource" => &mut self.workload_identity_provider_resource,
            _ => return None,
        })
    }

    /// What the credentials are known by besides their name, whatever their kind: the field's
    /// words and its value.
    pub fn identifier(&self) -> Option<(&'static str, &str)> {
        [
            ("Access key id", &self.access_key_id),
            ("Role ARN", &self.role_arn),
            ("vSphere user", &self.vsphere_user),
            ("Access key", &self.provider_a_access_key),
            ("Subscription", &self.provider_f_subscription_id),
            ("Service account", &self.service_account_email),
        ]
        .into_iter()
        .find_map(|(label, value)| Some((label, value.as_deref().filter(|v| !v.is_empty())?)))
    }
}

/// One field a kind of credentials asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CredentialsField {
    /// Its name in the request (and in the record, when it is not secret).
    pub name: &'static str,
    pub label: &'static str,
    /// Sealed when stored and never answered.
    pub secret: bool,
    pub required: bool,
}

const fn field(name: &'static str, label: &'static str) -> CredentialsField {
    CredentialsField {
        name,
        label,
        secret: false,
        required: true,
    }
}

const fn secret(name: &'static str, label: &'static str) -> CredentialsField {
    CredentialsField {
        name,
        label,
        secret: true,
        required: true,
    }
}

const ACCESS_KEY_ID: CredentialsField = field("access_key_id", "Access key id");
const SECRET_ACCESS_KEY: CredentialsField = secret("secret_access_key", "Secret access key");
const ROLE_ARN: CredentialsField = field("role_arn", "Role ARN");
const VSPHERE_USER: CredentialsField = field("vsphere_user", "vSphere user");
const VSPHERE_PASSWORD: CredentialsField = secret("vsphere_password", "vSphere password");
/// The service account's JSON key, base64-encoded (the console encodes what is pasted).
pub const PROVIDER_E_KEY: &str = "provider_e_credentials";

/// The kinds of credentials a person creates: one per variant of the document's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CredentialsVariant {
    AwsStatic,
    AwsRole,
    EksAnywhereVsphereStatic,
    EksAnywhereVsphereRole,
    ProviderA,
    ProviderEServiceAccountKey,
    ProviderEWorkloadIdentityFederation,
    ProviderF,
}

impl CredentialsVariant {
    pub const ALL: [CredentialsVariant; 8] = [
        CredentialsVariant::AwsStatic,
        CredentialsVariant::AwsRole,
        CredentialsVariant::EksAnywhereVsphereStatic,
        CredentialsVariant::EksAnywhereVsphereRole,
        CredentialsVariant::ProviderA,
        CredentialsVariant::ProviderEServiceAccountKey,
        CredentialsVariant::ProviderEWorkloadIdentityFederation,
        CredentialsVariant::ProviderF,
    ];

    /// The cloud whose credentials routes take this variant.
    pub fn provider(self) -> CloudProvider {
        match self {
            CredentialsVariant::AwsStatic
            | CredentialsVariant::AwsRole
            | CredentialsVariant::EksAnywhereVsphereStatic
            | CredentialsVariant::EksAnywhereVsphereRole => CloudProvider::Aws,
            CredentialsVariant::ProviderA => CloudProvider::ProviderA,
            CredentialsVariant::ProviderEServiceAccountKey
            | CredentialsVariant::ProviderEWorkloadIdentityFederation => CloudProvider::ProviderE,
            CredentialsVariant::ProviderF => CloudProvider::ProviderF,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            CredentialsVariant::AwsStatic => "Access key",
            CredentialsVariant::AwsRole => "Role",
            CredentialsVariant::EksAnywhereVsphereStatic => "EKS Anywhere on vSphere, access key",
            CredentialsVariant::EksAnywhereVsphereRole => "EKS Anywhere on vSphere, role",
            CredentialsVariant::ProviderA => "Access key",
            CredentialsVariant::ProviderEServiceAccountKey => "Service account key",
            CredentialsVariant::ProviderEWorkloadIdentityFederation => {
                "Workload identity federation"
            }
            CredentialsVariant::ProviderF => "Subscription",
        }
    }

    /// The fields the variant takes, in the order a form asks for them.
    pub fn fields(self) -> &'static [CredentialsField] {
        match self {
            CredentialsVariant::AwsStatic => const { &[ACCESS_KEY_ID, SECRET_ACCESS_KEY] },
            CredentialsVariant::AwsRole => const { &[ROLE_ARN] },
            CredentialsVariant::EksAnywhereVsphereStatic => {
                const {
                    &[
                        VSPHERE_USER,
                        VSPHERE_PASSWORD,
                        ACCESS_KEY_ID,
                        SECRET_ACCESS_KEY,
                    ]
                }
            }
            CredentialsVariant::EksAnywhereVsphereRole => {
                const { &[VSPHERE_USER, VSPHERE_PASSWORD, ROLE_ARN] }
            }
            CredentialsVariant::ProviderA => {
                const {
                    &[
                        field("provider_a_access_key", "Access key"),
                        secret("provider_a_secret_key", "Secret key"),
                        field("provider_a_project_id", "Project id"),
                        field("provider_a_organization_id", "Organization id"),
                    ]
                }
            }
            CredentialsVariant::ProviderEServiceAccountKey => {
                const { &[secret(PROVIDER_E_KEY, "Service account key (JSON)")] }
            }
            CredentialsVariant::ProviderEWorkloadIdentityFederation => {
                const {
                    &[
                        field("service_account_email", "Service account email"),
                        field(
                            "workload_identity_provider_resource",
                            "Workload identity provider",
                        ),
                    ]
                }
            }
            CredentialsVariant::ProviderF => {
                const {
                    &[
                        field("provider_f_subscription_id", "Subscription id"),
                        field("provider_f_tenant_id", "Tenant id"),
                    ]
                }
            }
        }
    }

    /// The kind the record of a request of this variant is answered with.
    pub fn kind(self) -> CredentialsKind {
        match self {
            CredentialsVariant::AwsStatic => CredentialsKind::Aws,
            CredentialsVariant::AwsRole => CredentialsKind::AwsRole,
            CredentialsVariant::EksAnywhereVsphereStatic
            | CredentialsVariant::EksAnywhereVsphereRole => CredentialsKind::EksAnywhereVsphere,
            CredentialsVariant::ProviderA => CredentialsKind::ProviderA,
            CredentialsVariant::ProviderEServiceAccountKey => CredentialsKind::ProviderE,
            CredentialsVariant::ProviderEWorkloadIdentityFederation => {
                CredentialsKind::ProviderEWorkloadIdentityFederation
            }
            CredentialsVariant::ProviderF => CredentialsKind::ProviderF,
        }
    }

    /// The request of this variant named `name`, its own fields read from `read` (a form
    /// keeps what was typed for another kind; that is not sent).
    pub fn request(
        self,
        name: String,
        read: impl Fn(&str) -> Option<String>,
    ) -> CloudCredentialsRequest {
        let value = |field: &str| {
            self.fields()
                .iter()
                .any(|own| own.name == field)
                .then(|| read(field))
                .flatten()
        };
        match self.provider() {
            CloudProvider::Aws => CloudCredentialsRequest::Aws(AwsCredentialsRequest {
                kind: match self {
                    CredentialsVariant::AwsRole => AwsCredentialsType::Role,
                    CredentialsVariant::EksAnywhereVsphereStatic => {
                        AwsCredentialsType::EksAnywhereVsphereStatic
                    }
                    CredentialsVariant::EksAnywhereVsphereRole => {
                        AwsCredentialsType::EksAnywhereVsphereRole
                    }
                    _ => AwsCredentialsType::Static,
                },
                name,
                access_key_id: value("access_key_id"),
                secret_access_key: value("secret_access_key"),
                role_arn: value("role_arn"),
                vsphere_user: value("vsphere_user"),
                vsphere_password: value("vsphere_password"),
            }),
            CloudProvider::ProviderA => {
                CloudCredentialsRequest::ProviderA(ProviderACredentialsRequest {
                    name,
                    provider_a_access_key: value("provider_a_access_key"),
                    provider_a_secret_key: value("provider_a_secret_key"),
                    provider_a_project_id: value("provider_a_project_id"),
                    provider_a_organization_id: value("provider_a_organization_id"),
                })
            }
            CloudProvider::ProviderE => {
                let key = self == CredentialsVariant::ProviderEServiceAccountKey;
                CloudCredentialsRequest::ProviderE(ProviderECredentialsRequest {
                    name,
                    credential_type: Some(if key {
                        ProviderECredentialsType::ServiceAccountKey
                    } else {
                        ProviderECredentialsType::WorkloadIdentityFederation
                    }),
                    provider_e_credentials: value(PROVIDER_E_KEY),
                    service_account_email: value("service_account_email"),
                    workload_identity_provider_resource: value(
                        "workload_identity_provider_resource",
                    ),
                })
            }
            _ => CloudCredentialsRequest::ProviderF(ProviderFCredentialsRequest {
                name,
                provider_f_subscription_id: value("provider_f_subscription_id"),
                provider_f_tenant_id: value("provider_f_tenant_id"),
            }),
        }
    }
}

/// The clouds whose credentials the platform keeps, in the order a page lists them.
pub const CREDENTIALS_PROVIDERS: [CloudProvider; 4] = [
    CloudProvider::Aws,
    CloudProvider::ProviderA,
    CloudProvider::ProviderE,
    CloudProvider::ProviderF,
];

/// The collection and item paths of `provider`'s credentials, for the clouds that have them.
pub fn credentials_paths(provider: CloudProvider) -> Option<(Template, Template)> {
    Some(match provider {
        CloudProvider::Aws => (paths::AWS_CREDENTIALS, paths::AWS_CREDENTIAL),
        CloudProvider::ProviderA => (paths::PROVIDER_A_CREDENTIALS, paths::PROVIDER_A_CREDENTIAL),
        CloudProvider::ProviderE => (paths::PROVIDER_E_CREDENTIALS, paths::PROVIDER_E_CREDENTIAL),
        CloudProvider::ProviderF => (paths::PROVIDER_F_CREDENTIALS, paths::PROVIDER_F_CREDENTIAL),
        _ => return None,
    })
}

wire_enum!(
    /// Which of AWS's request variants a request is (the document's discriminator `type`).
    AwsCredentialsType {
        Static = "AWS_STATIC",
        Role = "AWS_ROLE",
        EksAnywhereVsphereStatic = "EKS_ANYWHERE_VSPHERE_STATIC",
        EksAnywhereVsphereRole = "EKS_ANYWHERE_VSPHERE_ROLE",
    }
);

wire_enum!(
    /// Which of Provider E's request variants a request is; left out, the fields given say.
    ProviderECredentialsType {
        ServiceAccountKey = "SERVICE_ACCOUNT_KEY",
        WorkloadIdentityFederation = "WORKLOAD_IDENTITY_FEDERATION",
        Wif = "WIF",
    }
);

/// Body of `POST`/`PUT /organization/{id}/aws/credentials`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AwsCredentialsRequest {
    #[serde(rename = "type")]
    pub kind: AwsCredentialsType,
    pub name: String,
    #[serde(default)]
    pub access_key_id: Option<String>,
    /// Never returned.
    #[serde(default)]
    pub secret_access_key: Option<String>,
    #[serde(default)]
    pub role_arn: Option<String>,
    #[serde(default)]
    pub vsphere_user: Option<String>,
    /// Never returned.
    #[serde(default)]
    pub vsphere_password: Option<String>,
}

/// Body of `POST`/`PUT /organization/{id}/scaleway/credentials` (Provider A's).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProviderACredentialsRequest {
    pub name: String,
    #[serde(default)]
    pub provider_a_access_key: Option<String>,
    /// Never returned.
    #[serde(default)]
    pub provider_a_secret_key: Option<String>,
    #[serde(default)]
    pub provider_a_project_id: Option<String>,
    #[serde(default)]
    pub provider_a_organization_id: Option<String>,
}

/// Body of `POST`/`PUT /organization/{id}/gcp/credentials` (Provider E's): a service account's
/// key, or workload identity federation.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProviderECredentialsRequest {
    pub name: String,
    #[serde(default)]
    pub credential_type: Option<ProviderECredentialsType>,
    /// The service account's JSON key, base64-encoded. Never returned.
    #[serde(default)]
    pub provider_e_credentials: Option<String>,
    #[serde(default)]
    pub service_account_email: Option<String>,
    #[serde(default)]
    pub workload_identity_provider_resource: Option<String>,
}

/// Body of `POST`/`PUT /organization/{id}/azure/credentials` (Provider F's).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProviderFCredentialsRequest {
    pub name: String,
    #[serde(default)]
    pub provider_f_subscription_id: Option<String>,
    #[serde(default)]
    pub provider_f_tenant_id: Option<String>,
}

/// A request to any of the four credentials routes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CloudCredentialsRequest {
    Aws(AwsCredentialsRequest),
    ProviderA(ProviderACredentialsRequest),
    ProviderE(ProviderECredentialsRequest),
    ProviderF(ProviderFCredentialsRequest),
}

/// What the rules and the record need of a credentials request, whatever its provider.
pub trait CredentialsRequest {
    fn name(&self) -> &str;
    fn variant(&self) -> CredentialsVariant;
    /// Every field the request has beside `name` and its discriminator, set or not.
    fn values(&self) -> Vec<(&'static str, Option<&str>)>;

    /// The request's rules: a name; each of its variant's fields given (a secret may be left
    /// out where `kept` names it: an update keeping the stored one), on one line and bounded;
    /// no field of another variant; Provider E's key a base64-encoded JSON service account key.
    fn validate(&self, kept: &[&str]) -> Result<(), Vec<FieldError>> {
        let variant = self.variant();
        let mut violations = Violations::default();
        violations.check(rules::name("name", self.name()));
        for (name, value) in self.values() {
            let value = value.map(str::trim).filter(|v| !v.is_empty());
            let Some(field) = variant.fields().iter().find(|f| f.name == name) else {
                if value.is_some() {
                    violations.check(Some(FieldError::new(
                        name,
                        format!("is not a field of {} credentials", variant.label()),
                    )));
                }
                continue;
            };
            match value {
                None if field.required && !kept.contains(&name) => {
                    violations.check(Some(FieldError::new(name, "is required")))
                }
                None => {}
                Some(value) if name == PROVIDER_E_KEY => {
                    violations.check(service_account_key(name, value).err())
                }
                Some(value) => violations.check(rules::line(name, value, FIELD_MAX_CHARS)),
            }
        }
        violations.into_result()
    }

    /// The record the request makes (`previous` the one it replaces), and its secrets by name.
    fn record(
        &self,
        id: Uuid,
        previous: Option<&ClusterCredentials>,
    ) -> (ClusterCredentials, Vec<(&'static str, String)>) {
        let variant = self.variant();
        let mut record =
            ClusterCredentials::new(id, self.name().trim().to_string(), variant.kind());
        let mut secrets = Vec::new();
        for (name, value) in self.values() {
            let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
                continue;
            };
            if variant.fields().iter().any(|f| f.name == name && f.secret) {
                secrets.push((name, value.to_string()));
            } else if let Some(slot) = record.field_mut(name) {
                *slot = Some(value.to_string());
            }
        }
        match variant {
            CredentialsVariant::ProviderEServiceAccountKey => {
                record.service_account_email = secrets
                    .iter()
                    .find_map(|(_, key)| service_account_key(PROVIDER_E_KEY, key).ok())
                    .or_else(|| previous.and_then(|p| p.service_account_email.clone()));
            }
            CredentialsVariant::ProviderEWorkloadIdentityFederation => {
                record.project_id = record
                    .workload_identity_provider_resource
                    .as_deref()
                    .and_then(|resource| resource.strip_prefix("projects/"))
                    .and_then(|rest| rest.split('/').next())
                    .map(str::to_string);
                record.token_lifetime_seconds = Some(TOKEN_LIFETIME_SECONDS);
            }
            CredentialsVariant::ProviderF => {
                // The application the platform registers in the tenant; kept across edits.
                let kept = previous.filter(|p| p.provider_f_application_id.is_some());
                record.provider_f_application_id = Some(kept.map_or_else(
                    || Uuid::new_v4().to_string(),
                    |p| p.provider_f_application_id.clone().unwrap_or_default(),
                ));
                record.provider_f_application_object_id = Some(kept.map_or_else(
                    || Uuid::new_v4().to_string(),
                    |p| {
                        p.provider_f_application_object_id
                            .clone()
                            .unwrap_or_default()
                    },
                ));
            }
            _ => {}
        }
        (record, secrets)
    }
}

/// Identifiers, ARNs, resource names: long enough for any of them, one line.
const FIELD_MAX_CHARS: usize = 1024;
/// How long a token federated from a workload identity lives, the platform's default.
pub const TOKEN_LIFETIME_SECONDS: i32 = 14_400;

/// A service account's key as the request carries it: the JSON key a person pastes, encoded;
/// a key already encoded, as it is.
pub fn encoded_service_account_key(pasted: &str) -> String {
    let pasted = pasted.trim();
    if pasted.starts_with('{') {
        base64::engine::general_purpose::STANDARD.encode(pasted)
    } else {
        pasted.to_string()
    }
}

/// `value` is a service account's JSON key, base64-encoded: its `client_email`, or the error.
pub fn service_account_key(field: &str, value: &str) -> Result<String, FieldError> {
    let invalid = |rule: &str| FieldError::new(field, rule);
    if value.len() > rules::VALUE_MAX_BYTES {
        return Err(invalid("must be at most 64 KiB"));
    }
    let json = base64::engine::general_purpose::STANDARD
        .decode(value.trim())
        .map_err(|_| invalid("must be base64-encoded"))?;
    let key: serde_json::Value = serde_json::from_slice(&json)
        .map_err(|_| invalid("must be a service account's JSON key"))?;
    let text = |name: &str| key.get(name).and_then(serde_json::Value::as_str);
    match (text("client_email"), text("private_key")) {
        (Some(email), Some(_)) if !email.is_empty() => Ok(email.to_string()),
        _ => Err(invalid(
            "must be a service account's JSON key, with its client_email and private_key",
        )),
    }
}

impl CredentialsRequest for AwsCredentialsRequest {
    fn name(&self) -> &str {
        &self.name
    }

    fn variant(&self) -> CredentialsVariant {
        match self.kind {
            AwsCredentialsType::Role => CredentialsVariant::AwsRole,
            AwsCredentialsType::EksAnywhereVsphereStatic => {
                CredentialsVariant::EksAnywhereVsphereStatic
            }
            AwsCredentialsType::EksAnywhereVsphereRole => {
                CredentialsVariant::EksAnywhereVsphereRole
            }
            AwsCredentialsType::Static | AwsCredentialsType::Other(_) => {
                CredentialsVariant::AwsStatic
            }
        }
    }

    fn values(&self) -> Vec<(&'static str, Option<&str>)> {
        vec![
            ("access_key_id", self.access_key_id.as_deref()),
            ("secret_access_key", self.secret_access_key.as_deref()),
            ("role_arn", self.role_arn.as_deref()),
            ("vsphere_user", self.vsphere_user.as_deref()),
            ("vsphere_password", self.vsphere_password.as_deref()),
        ]
    }
}

impl CredentialsRequest for ProviderACredentialsRequest {
    fn name(&self) -> &str {
        &self.name
    }

    fn variant(&self) -> CredentialsVariant {
        CredentialsVariant::ProviderA
    }

    fn values(&self) -> Vec<(&'static str, Option<&str>)> {
        vec![
            (
                "provider_a_access_key",
                self.provider_a_access_key.as_deref(),
            ),
            (
                "provider_a_secret_key",
                self.provider_a_secret_key.as_deref(),
            ),
            (
                "provider_a_project_id",
                self.provider_a_project_id.as_deref(),
            ),
            (
                "provider_a_organization_id",
                self.provider_a_organization_id.as_deref(),
            ),
        ]
    }
}

impl CredentialsRequest for ProviderECredentialsRequest {
    fn name(&self) -> &str {
        &self.name
    }

    /// Without `credential_type`, a request naming a workload identity provider is one.
    fn variant(&self) -> CredentialsVariant {
        match self.credential_type {
            Some(ProviderECredentialsType::ServiceAccountKey) => {
                CredentialsVariant::ProviderEServiceAccountKey
            }
            Some(_) => CredentialsVariant::ProviderEWorkloadIdentityFederation,
            None if self.workload_identity_provider_resource.is_some() => {
                CredentialsVariant::ProviderEWorkloadIdentityFederation
            }
            None => CredentialsVariant::ProviderEServiceAccountKey,
        }
    }

    fn values(&self) -> Vec<(&'static str, Option<&str>)> {
        vec![
            (PROVIDER_E_KEY, self.provider_e_credentials.as_deref()),
            (
                "service_account_email",
                self.service_account_email.as_deref(),
            ),
            (
                "workload_identity_provider_resource",
                self.workload_identity_provider_resource.as_deref(),
            ),
        ]
    }
}

impl CredentialsRequest for ProviderFCredentialsRequest {
    fn name(&self) -> &str {
        &self.name
    }

    fn variant(&self) -> CredentialsVariant {
        CredentialsVariant::ProviderF
    }

    fn values(&self) -> Vec<(&'static str, Option<&str>)> {
        vec![
            (
                "provider_f_subscription_id",
                self.provider_f_subscription_id.as_deref(),
            ),
            ("provider_f_tenant_id", self.provider_f_tenant_id.as_deref()),
        ]
    }
}

impl CloudCredentialsRequest {
    fn inner(&self) -> &dyn CredentialsRequest {
        match self {
            CloudCredentialsRequest::Aws(request) => request,
            CloudCredentialsRequest::ProviderA(request) => request,
            CloudCredentialsRequest::ProviderE(request) => request,
            CloudCredentialsRequest::ProviderF(request) => request,
        }
    }

    pub fn provider(&self) -> CloudProvider {
        self.inner().variant().provider()
    }

    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        self.inner().validate(&[])
    }
}

/// One set of credentials with the clusters that use it (`GET /organization/{id}/credentials`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CredentialsWithClusters {
    /// The document requires neither; this server always answers both.
    #[serde(default)]
    pub credential: Option<ClusterCredentials>,
    #[serde(default)]
    pub clusters: Vec<CredentialCluster>,
}

/// A cluster a set of credentials is used by.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CredentialCluster {
    pub id: Uuid,
    pub name: String,
    pub cloud_provider: CloudProvider,
}

/// The credentials a cluster's infrastructure is reached with, and where it runs
/// (`/organization/{id}/cluster/{id}/cloudProviderInfo`): answered, and sent to choose them.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterCloudProviderInfo {
    #[serde(default)]
    pub cloud_provider: Option<CloudProvider>,
    #[serde(default)]
    pub credentials: Option<CredentialsReference>,
    #[serde(default)]
    pub region: Option<String>,
}

/// A set of credentials named by its id (its name as the platform answers it).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CredentialsReference {
    #[serde(default)]
    pub id: Option<Uuid>,
    #[serde(default)]
    pub name: Option<String>,
}

impl ClusterCloudProviderInfo {
    /// The credentials chosen, by id: required to choose them.
    pub fn credentials_id(&self) -> Result<Uuid, Vec<FieldError>> {
        self.credentials
            .as_ref()
            .and_then(|credentials| credentials.id)
            .ok_or_else(|| vec![FieldError::new("credentials.id", "is required")])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    fn key(json: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(json)
    }

    #[test]
    fn each_variant_requires_its_fields_and_refuses_the_others() {
        let role = AwsCredentialsRequest {
            kind: AwsCredentialsType::Role,
            name: "prod".into(),
            access_key_id: None,
            secret_access_key: Some("s3cret".into()),
            role_arn: None,
            vsphere_user: None,
            vsphere_password: None,
        };
        assert_eq!(
            refused_fields(role.validate(&[])),
            ["secret_access_key", "role_arn"]
        );
        let by_key = CredentialsVariant::AwsStatic.request("prod".into(), |field| match field {
            "access_key_id" => Some("AKIA1".into()),
            "secret_access_key" => Some("s3cret".into()),
            _ => None,
        });
        assert_eq!(by_key.validate(), Ok(()));
        // An update may keep the stored secret.
        let CloudCredentialsRequest::Aws(mut kept) = by_key else {
            panic!("an AWS request")
        };
        kept.secret_access_key = None;
        assert!(kept.validate(&[]).is_err());
        assert_eq!(kept.validate(&["secret_access_key"]), Ok(()));
    }

    #[test]
    fn secrets_stay_out_of_the_record_and_derived_fields_are_set() {
        let request = ProviderECredentialsRequest {
            name: " sa ".into(),
            credential_type: None,
            provider_e_credentials: Some(key(
                r#"{"client_email":"deployer@p.example","private_key":"k"}"#,
            )),
            service_account_email: None,
            workload_identity_provider_resource: None,
        };
        assert_eq!(request.validate(&[]), Ok(()));
        let (record, secrets) = request.record(Uuid::nil(), None);
        assert_eq!(record.name, "sa");
        assert_eq!(record.object_type, CredentialsKind::ProviderE);
        assert_eq!(
            record.service_account_email.as_deref(),
            Some("deployer@p.example")
        );
        assert_eq!(secrets.len(), 1);
        assert!(!serde_json::to_string(&record)
            .unwrap()
            .contains("private_key"));

        let federated = ProviderECredentialsRequest {
            name: "wif".into(),
            credential_type: Some(ProviderECredentialsType::Wif),
            provider_e_credentials: None,
            service_account_email: Some("sa@p.example".into()),
            workload_identity_provider_resource: Some(
                "projects/123/locations/global/workloadIdentityPools/p/providers/q".into(),
            ),
        };
        let (record, secrets) = federated.record(Uuid::nil(), None);
        assert_eq!(record.project_id.as_deref(), Some("123"));
        assert_eq!(record.token_lifetime_seconds, Some(TOKEN_LIFETIME_SECONDS));
        assert!(secrets.is_empty());
    }

    #[test]
    fn a_service_account_key_is_base64_json_with_its_email_and_key() {
        assert!(service_account_key("k", "not base64!").is_err());
        assert!(service_account_key("k", &key("not json")).is_err());
        assert!(service_account_key("k", &key(r#"{"client_email":"a@b"}"#)).is_err());
        assert_eq!(
            service_account_key("k", &key(r#"{"client_email":"a@b","private_key":"x"}"#)),
            Ok("a@b".to_string())
        );
    }
}
