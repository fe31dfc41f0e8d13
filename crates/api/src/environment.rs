use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::cloud::CloudProvider;
use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// Environment mode (spec 2.1).
    EnvironmentMode {
        Development = "DEVELOPMENT" => "Development",
        Preview = "PREVIEW" => "Preview",
        Production = "PRODUCTION" => "Production",
        Staging = "STAGING" => "Staging",
    }
);

impl EnvironmentMode {
    fn default_for_new() -> Self {
        EnvironmentMode::Development
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Environment {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub mode: EnvironmentMode,
    pub project: Reference,
    pub organization: Reference,
    /// Every environment runs on a cluster: the one it was created on, or the organization's
    /// default one.
    pub cluster_id: Uuid,
    pub cluster_name: Option<String>,
    pub cloud_provider: CloudProviderOfEnvironment,
}

/// Where an environment runs, as the platform words it: the cluster's provider and region.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CloudProviderOfEnvironment {
    pub provider: Option<String>,
    pub cluster: Option<String>,
}

impl CloudProviderOfEnvironment {
    /// The cloud, when it is one this platform knows.
    pub fn cloud(&self) -> Option<CloudProvider> {
        self.provider.as_deref()?.parse().ok()
    }
}

/// Body of `POST /project/{id}/environment`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentRequest {
    pub name: String,
    /// DEVELOPMENT when left out, as the platform does.
    #[serde(default = "EnvironmentMode::default_for_new")]
    pub mode: EnvironmentMode,
    /// Sent as the platform names it, `cluster`; the spec's usage example's `cluster_id` is
    /// read too. Left out, the environment runs on the organization's default cluster.
    #[serde(default, rename = "cluster", alias = "cluster_id")]
    pub cluster_id: Option<Uuid>,
}

impl EnvironmentRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::environment_name("name", &self.name));
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_environment_name_is_a_word_of_letters_digits_and_hyphens() {
        let named = |name: &str| EnvironmentRequest {
            name: name.into(),
            mode: EnvironmentMode::Development,
            cluster_id: None,
        };
        assert!(named("preview-42").validate().is_ok());
        assert!(named("Staging_EU").validate().is_ok());
        let refused = named("Bad Name!! with spaces").validate().unwrap_err();
        assert_eq!(refused[0].field, "name");
        assert!(refused[0].message.contains("only letters, digits, hyphens"));
        assert!(named("-leading").validate().is_err());
    }
}

/// Where one request on an environment stands (`GET /environment/deploymentStatus`): the
/// request is the execution an environment's history names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentRequestStatus {
    pub deployment_request_id: Uuid,
    pub environment_id: Uuid,
    pub status: crate::status::ServiceState,
}

/// The query of `GET /environment/deploymentStatus`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnvironmentRequestQuery {
    #[serde(rename = "deploymentRequestId")]
    pub deployment_request_id: Uuid,
}
