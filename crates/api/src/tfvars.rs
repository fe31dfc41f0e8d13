//! Discovering the `.tfvars` files of a repository (spec 2.21, 4.1).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// How files are found: every `.tfvars` file under the root (spec 4.1), or the files named
    /// in `paths` (the production document's other mode).
    TfVarsDiscovery {
        AutoDiscover = "AutoDiscover",
        SpecificPaths = "SpecificPaths",
    }
);

/// The repository, as the listing request carries it (spec 2.5, last paragraph).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TfVarsGitRepository {
    pub url: String,
    #[serde(default)]
    pub provider: Option<String>,
    #[serde(default)]
    pub branch: Option<String>,
    #[serde(default)]
    pub root_path: Option<String>,
    #[serde(default)]
    pub git_token_id: Option<Uuid>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TfVarsMode {
    #[serde(rename = "type")]
    pub discovery: TfVarsDiscovery,
    /// SpecificPaths only: the files to read, paths in the repository, in this order.
    #[serde(default)]
    pub paths: Option<Vec<String>>,
}

impl TfVarsMode {
    /// The files asked for by name, or `None` to discover them.
    pub fn specific_paths(&self) -> Option<Vec<String>> {
        let paths = self.paths.as_deref().unwrap_or_default();
        (self.discovery == TfVarsDiscovery::SpecificPaths).then(|| {
            paths
                .iter()
                .map(|path| path.trim().trim_start_matches('/').to_string())
                .collect()
        })
    }
}

/// Body of `POST /organization/{id}/listTfVarsFilesFromGitRepo`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TfVarsListingRequest {
    pub git_repository: TfVarsGitRepository,
    pub mode: TfVarsMode,
}

impl TfVarsListingRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        let repository = &self.git_repository;
        violations.merge(crate::git_repository::repository_rules(
            "git_repository.",
            &repository.url,
            repository.branch.as_deref(),
            repository.root_path.as_deref(),
        ));
        for (index, path) in self.mode.paths.iter().flatten().enumerate() {
            violations.check(rules::repository_path(
                &format!("mode.paths[{index}]"),
                path,
            ));
        }
        match (self.mode.discovery, &self.mode.paths) {
            (TfVarsDiscovery::SpecificPaths, None) => {
                violations.check(Some(FieldError::new("mode.paths", "is required")));
            }
            (TfVarsDiscovery::AutoDiscover, Some(_)) => {
                violations.check(Some(FieldError::new(
                    "mode.paths",
                    "is taken only in SpecificPaths mode",
                )));
            }
            _ => {}
        }
        for (index, path) in self.mode.paths.iter().flatten().enumerate() {
            if !path.trim().ends_with(".tfvars") {
                violations.check(Some(FieldError::new(
                    format!("mode.paths[{index}]"),
                    "must name a .tfvars file",
                )));
            }
        }
        if let Some(root) = &self.git_repository.root_path {
            if !root.starts_with('/') {
                violations.check(Some(FieldError::new(
                    "git_repository.root_path",
                    "must be an absolute path in the repository, e.g. /infra",
                )));
            }
        }
        violations.into_result()
    }
}

/// One file found: its path in the repository and its variables, each value as text (as the
/// production document types them: `replicas = 3` reads `"3"`, a list or an object its HCL).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TfVarsFile {
    pub source: String,
    pub variables: std::collections::BTreeMap<String, String>,
}
