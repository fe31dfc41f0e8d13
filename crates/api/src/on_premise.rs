//! On-premise credentials (spec 2.15): an access key id shown, its secret never.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// The kind of credentials: what the platform reaches with them, each kind with its own
    /// fields (the document's `oneOf` by `object_type`).
    OnPremiseObjectType {
        Aws = "AWS" => "AWS access key",
        AwsRole = "AWS_ROLE" => "AWS role",
        ProviderA = "PROVIDER_A" => "Provider A access key",
        ProviderE = "PROVIDER_E" => "Provider E",
        ProviderEWorkloadIdentityFederation = "PROVIDER_E_WORKLOAD_IDENTITY_FEDERATION" => "Provider E workload identity",
        ProviderF = "PROVIDER_F" => "Provider F",
        EksAnywhereVsphere = "EKS_ANYWHERE_VSPHERE" => "EKS Anywhere on vSphere",
        Generic = "OTHER" => "Other",
    }
);

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnPremiseCredentials {
    pub id: Uuid,
    /// The platform may leave it out.
    pub created_at: Option<DateTime<Utc>>,
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    /// Of AWS access keys (and EKS Anywhere's, where given).
    #[serde(default)]
    pub access_key_id: Option<String>,
    pub object_type: OnPremiseObjectType,
    /// What identifies the credentials of the other kinds, as the platform answers them; this
    /// server makes access keys only.
    #[serde(default)]
    pub role_arn: Option<String>,
    #[serde(default)]
    pub vsphere_user: Option<String>,
    #[serde(default)]
    pub scaleway_access_key: Option<String>,
    #[serde(default)]
    pub azure_subscription_id: Option<String>,
    #[serde(default)]
    pub service_account_email: Option<String>,
}

impl OnPremiseCredentials {
    /// What the credentials are known by besides their name, whatever their kind: the field's
    /// words and its value.
    pub fn identifier(&self) -> Option<(&'static str, &str)> {
        [
            ("Access key id", &self.access_key_id),
            ("Role ARN", &self.role_arn),
            ("vSphere user", &self.vsphere_user),
            ("Access key", &self.scaleway_access_key),
            ("Subscription", &self.azure_subscription_id),
            ("Service account", &self.service_account_email),
        ]
        .into_iter()
        .find_map(|(label, value)| Some((label, value.as_deref().filter(|v| !v.is_empty())?)))
    }
}

/// Body of `POST /organization/{id}/onPremise/credentials`; an update (`PUT`) needs only `name`
/// and keeps what it leaves out.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OnPremiseCredentialsRequest {
    pub name: String,
    #[serde(default)]
    pub access_key_id: Option<String>,
    /// Never returned.
    #[serde(default)]
    pub secret_access_key: Option<String>,
    #[serde(default)]
    pub object_type: Option<OnPremiseObjectType>,
}

impl OnPremiseCredentialsRequest {
    /// `creating` is true for a `POST`. The production document creates credentials from a
    /// name alone; keys given come as a pair (a later update may leave the stored secret out).
    pub fn validate(&self, creating: bool) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        let given = |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
        if creating && given(&self.access_key_id) != given(&self.secret_access_key) {
            let missing = if given(&self.access_key_id) {
                "secret_access_key"
            } else {
                "access_key_id"
            };
            violations.check(Some(FieldError::new(
                missing,
                "is required with the other key of the pair",
            )));
        }
        violations.into_result()
    }
}
