//! Discovering the `.tfvars` files of a repository (spec 2.21, 4.1).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// How files are found; the spec names only AutoDiscover: every `.tfvars` file.
    TfVarsDiscovery {
        AutoDiscover = "AutoDiscover",
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
        violations.check(rules::git_url(
            "git_repository.url",
            &self.git_repository.url,
        ));
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

/// One file found: its path in the repository and its variables.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TfVarsFile {
    pub source: String,
    pub variables: serde_json::Map<String, serde_json::Value>,
}
