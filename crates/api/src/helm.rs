//! Helm services: a chart from git or from one of the organization's helm repositories.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::application::{GitRepository, GitRepositoryRequest, KeyValue, ServiceType};
use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmGitSource {
    pub git_repository: GitRepository,
    pub chart_path: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepositorySource {
    pub repository: Reference,
    pub chart_name: String,
    pub chart_version: String,
}

/// Exactly one of `git` and `repository`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmSource {
    pub git: Option<HelmGitSource>,
    pub repository: Option<HelmRepositorySource>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmGitSourceRequest {
    pub git_repository: GitRepositoryRequest,
    #[serde(default)]
    pub chart_path: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepositorySourceRequest {
    pub repository_id: Uuid,
    pub chart_name: String,
    pub chart_version: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmSourceRequest {
    #[serde(default)]
    pub git: Option<HelmGitSourceRequest>,
    #[serde(default)]
    pub repository: Option<HelmRepositorySourceRequest>,
}

/// Values given on top of the chart's: `--set key=value` pairs and a values file.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmValuesOverride {
    #[serde(default)]
    pub set: Vec<KeyValue>,
    /// YAML.
    #[serde(default)]
    pub file: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmService {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub environment: Reference,
    pub name: String,
    pub description: Option<String>,
    /// The platform requires one: the kind's own icon.
    #[serde(default)]
    pub icon_uri: String,
    pub service_type: ServiceType,
    pub source: HelmSource,
    pub arguments: Vec<String>,
    pub allow_cluster_wide_resources: bool,
    pub values_override: HelmValuesOverride,
    pub timeout_sec: i64,
    pub auto_deploy: bool,
}

/// Body of `POST /environment/{id}/helm` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub source: HelmSourceRequest,
    #[serde(default)]
    pub arguments: Vec<String>,
    #[serde(default)]
    pub allow_cluster_wide_resources: bool,
    #[serde(default)]
    pub values_override: HelmValuesOverride,
    #[serde(default = "default_timeout")]
    pub timeout_sec: i64,
    #[serde(default)]
    pub auto_deploy: bool,
}

fn default_timeout() -> i64 {
    600
}

impl HelmRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        match (&self.source.git, &self.source.repository) {
            (Some(git), None) => violations.check(rules::git_url(
                "source.git.git_repository.url",
                &git.git_repository.url,
            )),
            (None, Some(repository)) => {
                for (field, value) in [
                    ("source.repository.chart_name", &repository.chart_name),
                    ("source.repository.chart_version", &repository.chart_version),
                ] {
                    if value.trim().is_empty() {
                        violations.check(Some(FieldError::new(field, "is required")));
                    }
                }
            }
            _ => violations.check(Some(FieldError::new(
                "source",
                "must give exactly one of git and repository",
            ))),
        }
        if self.timeout_sec < 0 {
            violations.check(Some(FieldError::new("timeout_sec", "must be 0 or more")));
        }
        violations.extend(rules::keys(
            "values_override.set",
            self.values_override
                .set
                .iter()
                .map(|pair| pair.key.as_str()),
        ));
        violations.into_result()
    }
}
