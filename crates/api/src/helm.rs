//! Helm services: a chart from git or from one of the organization's helm repositories.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::defaults;
use crate::error::FieldError;
use crate::git_repository::{GitRepository, GitRepositoryRequest};
use crate::groups::KeyValue;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmGitSource {
    /// Its `root_path` is the chart's directory, as the production document has it.
    pub git_repository: GitRepository,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepositorySource {
    pub repository: RepositoryOfChart,
    pub chart_name: String,
    pub chart_version: String,
}

/// The helm repository a chart comes from (the production document's
/// `HelmSourceRepositoryResponse.repository`). The server stores its id; its name and address
/// are the repository's own, read with the service.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RepositoryOfChart {
    pub id: Uuid,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub url: String,
}

impl RepositoryOfChart {
    /// The repository with this id, as stored (the rest is filled when read).
    pub fn stored(id: Uuid) -> Self {
        Self {
            id,
            name: String::new(),
            url: String::new(),
        }
    }
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
    /// Its `root_path` is the chart's directory (the production document's form).
    pub git_repository: GitRepositoryRequest,
    /// The chart's directory, when given apart from the repository: it wins over `root_path`.
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
#[serde(from = "HelmSourceRequestForms")]
pub struct HelmSourceRequest {
    #[serde(default)]
    pub git: Option<HelmGitSourceRequest>,
    #[serde(default)]
    pub repository: Option<HelmRepositorySourceRequest>,
}

/// A chart source as either side writes it: ours (`git`, `repository`) or the production
/// document's (`git_repository`, its `root_path` the chart's directory; `helm_repository`).
#[derive(Deserialize)]
struct HelmSourceRequestForms {
    #[serde(default)]
    git: Option<HelmGitSourceRequest>,
    #[serde(default)]
    repository: Option<HelmRepositorySourceRequest>,
    #[serde(default)]
    git_repository: Option<GitRepositoryRequest>,
    #[serde(default)]
    helm_repository: Option<DocumentHelmRepositorySource>,
}

/// A chart of a helm repository, as the production document names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentHelmRepositorySource {
    pub repository: Uuid,
    pub chart_name: String,
    pub chart_version: String,
}

/// Body of `POST /environment/{id}/helmDefaultValues`: the chart whose `values.yaml` to read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmDefaultValuesRequest {
    pub source: HelmChartSource,
}

/// Where a chart is, in the document's words: a git repository (its `root_path` the chart's
/// directory) or a helm repository.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmChartSource {
    #[serde(default)]
    pub git_repository: Option<GitRepositoryRequest>,
    #[serde(default)]
    pub helm_repository: Option<DocumentHelmRepositorySource>,
}

impl From<HelmSourceRequestForms> for HelmSourceRequest {
    fn from(forms: HelmSourceRequestForms) -> Self {
        let git = forms.git.or_else(|| {
            forms
                .git_repository
                .map(|git_repository| HelmGitSourceRequest {
                    git_repository,
                    chart_path: None,
                })
        });
        let repository = forms.repository.or_else(|| {
            forms
                .helm_repository
                .map(|source| HelmRepositorySourceRequest {
                    repository_id: source.repository,
                    chart_name: source.chart_name,
                    chart_version: source.chart_version,
                })
        });
        HelmSourceRequest { git, repository }
    }
}

/// Values given on top of the chart's: `--set key=value` pairs and a values file.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmValuesOverride {
    /// Written as the production document's `[key, value]` pairs; read from those or from
    /// `{key, value}` objects.
    #[serde(default, serialize_with = "as_pairs", deserialize_with = "key_values")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Vec<String>>))]
    pub set: Vec<KeyValue>,
    #[serde(default)]
    pub file: Option<HelmValuesFile>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmService {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
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
    #[serde(default = "defaults::helm_timeout")]
    pub timeout_sec: i64,
    pub auto_deploy: bool,
    /// Whether preview environments get this service (the production document requires it).
    #[serde(default)]
    pub auto_preview: bool,
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
    #[serde(default = "defaults::helm_timeout")]
    pub timeout_sec: i64,
    #[serde(default)]
    pub auto_deploy: bool,
    /// The production document allows `null`: no previews.
    #[serde(default)]
    pub auto_preview: Option<bool>,
}

impl HelmService {
    /// The update that keeps the service as it is.
    pub fn to_request(&self) -> HelmRequest {
        HelmRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            source: HelmSourceRequest {
                git: self.source.git.as_ref().map(|git| HelmGitSourceRequest {
                    git_repository: (&git.git_repository).into(),
                    chart_path: None,
                }),
                repository: self.source.repository.as_ref().map(|source| {
                    HelmRepositorySourceRequest {
                        repository_id: source.repository.id,
                        chart_name: source.chart_name.clone(),
                        chart_version: source.chart_version.clone(),
                    }
                }),
            },
            arguments: self.arguments.clone(),
            allow_cluster_wide_resources: self.allow_cluster_wide_resources,
            values_override: self.values_override.clone(),
            timeout_sec: self.timeout_sec,
            auto_deploy: self.auto_deploy,
            auto_preview: Some(self.auto_preview),
        }
    }
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
            (Some(git), None) => {
                violations.merge(git.git_repository.rules("source.git.git_repository."))
            }
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

/// A chart's values file: this server's one YAML document, or the production document's files,
/// inline (`raw`) or read from git.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum HelmValuesFile {
    Yaml(String),
    Files {
        #[serde(default)]
        raw: Option<RawValuesFiles>,
        #[serde(default)]
        git: Option<GitValuesFiles>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RawValuesFiles {
    pub values: Vec<NamedValuesFile>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NamedValuesFile {
    pub name: String,
    pub content: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitValuesFiles {
    pub git_repository: GitRepositoryRequest,
    pub paths: Vec<String>,
}

fn as_pairs<S: serde::Serializer>(set: &[KeyValue], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(set.iter().map(|pair| [&pair.key, &pair.value]))
}

fn key_values<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<KeyValue>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        Object(KeyValue),
        Pair(String, String),
    }
    let forms = Vec::<Form>::deserialize(deserializer)?;
    Ok(forms
        .into_iter()
        .map(|form| match form {
            Form::Object(pair) => pair,
            Form::Pair(key, value) => KeyValue { key, value },
        })
        .collect())
}
