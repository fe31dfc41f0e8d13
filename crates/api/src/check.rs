//! Checks before create (`POST /environment/{id}/checkDockerfile`, `checkContainerImage`,
//! `checkHelmRepository`, `checkGitFile`): whether what a form names exists, asked as the person
//! types. A check that finds it answers 200; one that does not answers 400 naming the field.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::git_repository::GitRepositoryRequest;
use crate::rules::{self, Violations};

/// The most files one `checkGitFile` looks for.
pub const CHECKED_FILES_MAX: usize = 50;

/// A file's path in a repository, required.
fn repository_path(field: &str, value: &str) -> Option<FieldError> {
    if value.trim().is_empty() {
        return Some(FieldError::new(field, "is required"));
    }
    rules::repository_path(field, value)
}

/// Body of `POST /environment/{id}/checkDockerfile`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DockerfileCheckRequest {
    pub git_repository: GitRepositoryRequest,
    /// Below the repository's `root_path`.
    pub dockerfile_path: String,
}

impl DockerfileCheckRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.merge(self.git_repository.rules("git_repository."));
        violations.check(repository_path("dockerfile_path", &self.dockerfile_path));
        violations.into_result()
    }
}

/// What a Dockerfile found declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DockerfileCheck {
    /// The repository checked, as asked (the document's answer requires it).
    pub git_repository: GitRepositoryRequest,
    pub dockerfile_path: String,
    /// The names of its `ARG`s.
    #[serde(default)]
    pub arg: Vec<String>,
    /// The images its `FROM`s build on.
    #[serde(default)]
    pub repositories: Vec<String>,
}

/// Body of `POST /environment/{id}/checkContainerImage`. The document requires `registry_d`
/// (a misspelling of the `registry_id` it describes): either is read, and the console sends both.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ContainerImageCheckRequest {
    #[serde(default)]
    pub registry_id: Option<Uuid>,
    #[serde(default)]
    pub registry_d: Option<Uuid>,
    pub image_name: String,
    pub tag: String,
}

impl ContainerImageCheckRequest {
    pub fn new(registry: Uuid, image_name: String, tag: String) -> Self {
        Self {
            registry_id: Some(registry),
            registry_d: Some(registry),
            image_name,
            tag,
        }
    }

    /// The registry asked about, by either name.
    pub fn registry(&self) -> Option<Uuid> {
        self.registry_id.or(self.registry_d)
    }

    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if self.registry().is_none() {
            violations.check(Some(FieldError::new("registry_id", "is required")));
        }
        violations.check(rules::image_name("image_name", &self.image_name));
        violations.check(rules::image_tag("tag", &self.tag));
        violations.into_result()
    }
}

/// Body of `POST /environment/{id}/checkHelmRepository`: a chart in a git repository (its
/// `Chart.yaml` under `root_path`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HelmRepositoryCheckRequest {
    pub git_repository: GitRepositoryRequest,
}

impl HelmRepositoryCheckRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.merge(self.git_repository.rules("git_repository."));
        violations.into_result()
    }
}

/// Body of `POST /environment/{id}/checkGitFile`: files of a repository (below its
/// `root_path`), each to be found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitFileCheckRequest {
    pub git_repository: GitRepositoryRequest,
    pub files: Vec<String>,
}

impl GitFileCheckRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.merge(self.git_repository.rules("git_repository."));
        if self.files.is_empty() {
            violations.check(Some(FieldError::new("files", "names no file")));
        }
        if self.files.len() > CHECKED_FILES_MAX {
            violations.check(Some(FieldError::new(
                "files",
                format!("names more than {CHECKED_FILES_MAX} files"),
            )));
        }
        for (index, file) in self.files.iter().enumerate() {
            violations.check(repository_path(&format!("files[{index}]"), file));
        }
        violations.into_result()
    }
}

/// The answer of a check that found what it looked for (the document's empty object).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Found {}
