//! Container registries (spec 2.9) and the rules of their kinds (2.9.1).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// Registry kinds (spec 2.9.1).
    RegistryKind {
        Ecr = "ECR" => "Elastic Container Registry (ECR)",
        ProviderACr = "PROVIDER_A_CR" => "Provider A container registry",
        ProviderBHub = "PROVIDER_B_HUB" => "Provider B Hub",
        ProviderCCr = "PROVIDER_C_CR" => "Provider C container registry",
        ProviderCEnterpriseCr = "PROVIDER_C_ENTERPRISE_CR" => "Provider C enterprise registry",
        ProviderDCr = "PROVIDER_D_CR" => "Provider D container registry",
        PublicEcr = "PUBLIC_ECR" => "Public ECR",
        Docr = "DOCR" => "DigitalOcean registry (DOCR)",
        GenericCr = "GENERIC_CR" => "Any registry (generic)",
        ProviderEArtifactRegistry = "PROVIDER_E_ARTIFACT_REGISTRY" => "Provider E Artifact Registry",
        ProviderFCr = "PROVIDER_F_CR",
    }
);

/// What a registry whose kind the platform left out is read as: any registry.
impl Default for RegistryKind {
    fn default() -> Self {
        RegistryKind::GenericCr
    }
}

impl RegistryKind {
    /// The fixed public address of the kinds that have one. The spec hides the vendors behind
    /// letters, so these addresses are neutral stand-ins, one per vendor.
    pub fn fixed_url(self) -> Option<&'static str> {
        match self {
            RegistryKind::ProviderBHub => Some("https://hub.provider-b.example"),
            RegistryKind::ProviderCCr => Some("https://cr.provider-c.example"),
            RegistryKind::ProviderDCr => Some("https://cr.provider-d.example"),
            _ => None,
        }
    }

    /// The config fields the kind requires.
    pub fn required_config(self) -> &'static [&'static str] {
        match self {
            RegistryKind::Ecr => &["region", "access_key_id", "secret_access_key"],
            RegistryKind::ProviderACr => {
                &["region", "provider_a_access_key", "provider_a_secret_key"]
            }
            RegistryKind::ProviderEArtifactRegistry => &["region", "json_credentials"],
            // Spec 2.9.1 "username, password (optional)": the production document accepts these
            // kinds with an empty config (anonymous pulls); a password still needs its username.
            _ => &[],
        }
    }
}

impl RegistryKind {
    /// Every config field the kind takes, required or not, in the order a form asks for them.
    /// DOCR takes nothing: it is no longer supported.
    pub fn config_fields(self) -> &'static [&'static str] {
        match self {
            RegistryKind::Ecr => &["region", "access_key_id", "secret_access_key", "role_arn"],
            RegistryKind::ProviderACr => &[
                "region",
                "provider_a_access_key",
                "provider_a_secret_key",
                "provider_a_project_id",
            ],
            RegistryKind::ProviderEArtifactRegistry => &["region", "json_credentials"],
            RegistryKind::ProviderBHub
            | RegistryKind::ProviderCCr
            | RegistryKind::ProviderCEnterpriseCr
            | RegistryKind::ProviderDCr
            | RegistryKind::GenericCr => &["username", "password"],
            RegistryKind::ProviderFCr => &[
                "provider_f_tenant_id",
                "provider_f_subscription_id",
                "username",
                "password",
            ],
            RegistryKind::PublicEcr | RegistryKind::Docr | RegistryKind::Other(_) => &[],
        }
    }
}

/// Registry credentials as sent. The secret ones are never returned.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RegistryConfigRequest {
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub region: Option<String>,
    pub provider_a_access_key: Option<String>,
    pub provider_a_secret_key: Option<String>,
    pub provider_a_project_id: Option<String>,
    pub json_credentials: Option<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    pub role_arn: Option<String>,
    pub provider_f_tenant_id: Option<String>,
    pub provider_f_subscription_id: Option<String>,
}

impl RegistryConfigRequest {
    /// The value of a config field by its wire name.
    pub fn field(&self, name: &str) -> Option<&str> {
        let value = match name {
            "access_key_id" => &self.access_key_id,
            "secret_access_key" => &self.secret_access_key,
            "region" => &self.region,
            "provider_a_access_key" => &self.provider_a_access_key,
            "provider_a_secret_key" => &self.provider_a_secret_key,
            "provider_a_project_id" => &self.provider_a_project_id,
            "json_credentials" => &self.json_credentials,
            "username" => &self.username,
            "password" => &self.password,
            "role_arn" => &self.role_arn,
            "provider_f_tenant_id" => &self.provider_f_tenant_id,
            "provider_f_subscription_id" => &self.provider_f_subscription_id,
            _ => &None,
        };
        value.as_deref().filter(|v| !v.trim().is_empty())
    }

    /// The fields that are secrets, by wire name, with their values.
    pub fn secrets(&self) -> Vec<(&'static str, &str)> {
        REGISTRY_SECRET_FIELDS
            .iter()
            .filter_map(|name| self.field(name).map(|value| (*name, value)))
            .collect()
    }

    /// What may be shown of this config.
    pub fn public(&self) -> RegistryConfig {
        RegistryConfig {
            username: self.username.clone(),
            region: self.region.clone(),
            provider_a_access_key: self.provider_a_access_key.clone(),
            provider_a_project_id: self.provider_a_project_id.clone(),
            access_key_id: self.access_key_id.clone(),
            role_arn: self.role_arn.clone(),
            provider_f_tenant_id: self.provider_f_tenant_id.clone(),
            provider_f_subscription_id: self.provider_f_subscription_id.clone(),
            provider_f_application_id: None,
            provider_f_application_object_id: None,
        }
    }
}

/// The config fields whose values are never returned.
pub const REGISTRY_SECRET_FIELDS: &[&str] = &[
    "secret_access_key",
    "provider_a_secret_key",
    "json_credentials",
    "password",
];

/// Registry credentials as returned: no secret.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RegistryConfig {
    pub username: Option<String>,
    pub region: Option<String>,
    pub provider_a_access_key: Option<String>,
    pub provider_a_project_id: Option<String>,
    pub access_key_id: Option<String>,
    pub role_arn: Option<String>,
    pub provider_f_tenant_id: Option<String>,
    pub provider_f_subscription_id: Option<String>,
    pub provider_f_application_id: Option<String>,
    pub provider_f_application_object_id: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterReference {
    pub id: Uuid,
    pub name: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContainerRegistry {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub name: String,
    /// GENERIC_CR when the platform leaves it out.
    #[serde(default)]
    pub kind: RegistryKind,
    pub description: Option<String>,
    #[serde(default)]
    pub url: String,
    pub cluster: Option<ClusterReference>,
    /// Number of services using the registry.
    #[serde(default)]
    pub associated_services_count: i64,
    #[serde(default)]
    pub config: RegistryConfig,
}

/// Body of `POST /organization/{id}/containerRegistry` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContainerRegistryRequest {
    pub name: String,
    pub kind: RegistryKind,
    #[serde(default)]
    pub description: Option<String>,
    /// Filled with the kind's fixed address when omitted, for the kinds that have one.
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub config: RegistryConfigRequest,
}

impl ContainerRegistryRequest {
    /// Checks the rules of spec 2.9.1. `stored_secrets` names the secret fields kept from before
    /// (an update may leave a secret out to keep it).
    pub fn validate(&self, stored_secrets: &[&str]) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        if self.kind == RegistryKind::Docr {
            violations.check(Some(FieldError::new(
                "kind",
                "DOCR is no longer supported; use another kind",
            )));
            return violations.into_result();
        }
        let url = self.url.as_deref().map(str::trim).filter(|u| !u.is_empty());
        match (self.kind.fixed_url(), url) {
            (Some(fixed), Some(url)) if url.trim_end_matches('/') != fixed => {
                violations.check(Some(FieldError::new(
                    "url",
                    format!(
                        "must be {fixed} for {} (or be omitted)",
                        crate::wire::WireEnum::label(self.kind)
                    ),
                )));
            }
            (Some(_), _) => {}
            (None, None) => violations.check(Some(FieldError::new("url", "is required"))),
            (None, Some(url)) => {
                if !url.starts_with("https://") || url.len() <= "https://".len() {
                    violations.check(Some(FieldError::new("url", "must start with https://")));
                }
            }
        }
        for field in self.kind.required_config() {
            if self.config.field(field).is_none() && !stored_secrets.contains(field) {
                violations.check(Some(FieldError::new(
                    format!("config.{field}"),
                    format!("is required for {}", self.kind),
                )));
            }
        }
        if self.config.password.is_some() && self.config.username.is_none() {
            violations.check(Some(FieldError::new(
                "config.username",
                "is required with a password",
            )));
        }
        violations.into_result()
    }

    /// The address to store: the given one, or the kind's fixed address.
    pub fn resolved_url(&self) -> String {
        self.url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .or(self.kind.fixed_url())
            .unwrap_or_default()
            .trim_end_matches('/')
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_kind_asks_for_every_field_it_requires() {
        for kind in super::RegistryKind::ALL {
            for field in kind.required_config() {
                assert!(kind.config_fields().contains(field), "{kind} {field}");
            }
        }
    }

    use super::*;
    use crate::refused_fields;

    fn request(
        kind: RegistryKind,
        url: Option<&str>,
        config: RegistryConfigRequest,
    ) -> ContainerRegistryRequest {
        ContainerRegistryRequest {
            name: "registry".into(),
            kind,
            description: None,
            url: url.map(str::to_string),
            config,
        }
    }

    #[test]
    fn docr_is_refused() {
        let docr = request(
            RegistryKind::Docr,
            Some("https://r.example"),
            Default::default(),
        );
        let errors = docr.validate(&[]).unwrap_err();
        assert_eq!(errors[0].field, "kind");
        assert!(errors[0].message.contains("no longer supported"));
    }

    #[test]
    fn fixed_addresses_are_filled_in_and_enforced() {
        let config = RegistryConfigRequest {
            username: Some("me".into()),
            ..Default::default()
        };
        let hub = request(RegistryKind::ProviderBHub, None, config.clone());
        assert!(hub.validate(&[]).is_ok());
        assert_eq!(hub.resolved_url(), "https://hub.provider-b.example");
        let wrong = request(
            RegistryKind::ProviderDCr,
            Some("https://elsewhere.example"),
            config,
        );
        assert_eq!(refused_fields(wrong.validate(&[])), ["url"]);
    }

    #[test]
    fn a_generic_registry_takes_no_credentials_or_a_username_with_its_password() {
        let url = Some("https://r.example");
        assert!(request(RegistryKind::GenericCr, url, Default::default())
            .validate(&[])
            .is_ok());
        let password_alone = RegistryConfigRequest {
            password: Some("secret".into()),
            ..Default::default()
        };
        assert_eq!(
            refused_fields(request(RegistryKind::GenericCr, url, password_alone).validate(&[])),
            ["config.username"]
        );
    }

    #[test]
    fn other_kinds_need_an_https_url() {
        let config = RegistryConfigRequest {
            username: Some("me".into()),
            ..Default::default()
        };
        assert_eq!(
            refused_fields(request(RegistryKind::GenericCr, None, config.clone()).validate(&[])),
            ["url"]
        );
        assert_eq!(
            refused_fields(
                request(
                    RegistryKind::GenericCr,
                    Some("http://r.example"),
                    config.clone()
                )
                .validate(&[])
            ),
            ["url"]
        );
        assert!(
            request(RegistryKind::GenericCr, Some("https://r.example"), config)
                .validate(&[])
                .is_ok()
        );
        assert!(request(
            RegistryKind::PublicEcr,
            Some("https://public.example"),
            Default::default()
        )
        .validate(&[])
        .is_ok());
    }

    #[test]
    fn each_kind_requires_its_config() {
        let ecr = request(
            RegistryKind::Ecr,
            Some("https://ecr.example"),
            Default::default(),
        );
        assert_eq!(
            refused_fields(ecr.validate(&[])),
            [
                "config.region",
                "config.access_key_id",
                "config.secret_access_key"
            ]
        );
        // A secret stored before may be left out of an update.
        let update = request(
            RegistryKind::Ecr,
            Some("https://ecr.example"),
            RegistryConfigRequest {
                region: Some("eu".into()),
                access_key_id: Some("AKIA".into()),
                ..Default::default()
            },
        );
        assert!(update.validate(&["secret_access_key"]).is_ok());
        let artifact = request(
            RegistryKind::ProviderEArtifactRegistry,
            Some("https://a.example"),
            Default::default(),
        );
        assert_eq!(
            refused_fields(artifact.validate(&[])),
            ["config.region", "config.json_credentials"]
        );
    }

    #[test]
    fn secrets_are_kept_apart_from_what_is_shown() {
        let config = RegistryConfigRequest {
            username: Some("me".into()),
            password: Some("hunter2".into()),
            secret_access_key: Some("s3cr3t".into()),
            ..Default::default()
        };
        let secrets: Vec<&str> = config.secrets().into_iter().map(|(name, _)| name).collect();
        assert_eq!(secrets, ["secret_access_key", "password"]);
        let shown = serde_json::to_string(&config.public()).unwrap();
        assert!(!shown.contains("hunter2") && !shown.contains("s3cr3t"));
        assert!(shown.contains("\"username\":\"me\""));
    }
}

/// An image of a registry with its tags (`GET /organization/{id}/containerRegistry/{id}/images`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImageVersions {
    /// The document leaves it optional.
    #[serde(default)]
    pub image_name: String,
    #[serde(default)]
    pub versions: Vec<String>,
}

/// A kind of container registry or helm repository an organization may add, with the config
/// fields it takes, each `"required"` or `"optional"` (`GET /availableContainerRegistry`,
/// `GET /availableHelmRepository`): the kinds and rules this API checks a new one against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AvailableKind {
    pub kind: String,
    pub required_config: std::collections::BTreeMap<String, String>,
    /// Whether the organization must have one of this kind: none is, here.
    pub is_mandatory: bool,
}

impl AvailableKind {
    /// The kind `kind` taking `fields`, of which `required`.
    pub fn of(kind: &str, fields: &[&str], required: &[&str]) -> Self {
        Self {
            kind: kind.to_string(),
            required_config: fields
                .iter()
                .map(|field| {
                    let need = if required.contains(field) {
                        "required"
                    } else {
                        "optional"
                    };
                    (field.to_string(), need.to_string())
                })
                .collect(),
            is_mandatory: false,
        }
    }
}
