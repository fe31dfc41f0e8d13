//! Applications (spec 2.4): services built from git, their record and their request.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::autoscaling::Autoscaling;
use crate::common::Reference;
use crate::defaults;
use crate::error::FieldError;
use crate::git_repository::{GitRepository, GitRepositoryRequest};
use crate::groups::{AnnotationsGroup, LabelsGroup};
use crate::ports::Port;
use crate::probes::Healthchecks;
use crate::rules::{self, Violations};
use crate::runtime::{runtime_request_of, RuntimeRequest};
use crate::service_type::ServiceType;
use crate::storage::Storage;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Application {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub environment: Reference,
    pub name: String,
    pub description: Option<String>,
    /// The platform requires one: the kind's own icon unless another was set.
    #[serde(default)]
    pub icon_uri: String,
    pub service_type: ServiceType,
    #[serde(default = "defaults::build_mode")]
    pub build_mode: String,
    pub dockerfile_path: Option<String>,
    pub docker_target_build_stage: Option<String>,
    #[serde(default)]
    pub git_repository: GitRepository,
    /// milli-CPU
    #[serde(default = "defaults::cpu")]
    pub cpu: i64,
    /// MiB
    #[serde(default = "defaults::memory")]
    pub memory: i64,
    #[serde(default)]
    pub gpu: i64,
    #[serde(default = "defaults::cpu")]
    pub maximum_cpu: i64,
    #[serde(default = "defaults::memory")]
    pub maximum_memory: i64,
    /// Spelled so by the spec.
    #[serde(default)]
    pub maximun_gpu: i64,
    #[serde(default = "defaults::instances")]
    pub min_running_instances: i64,
    #[serde(default = "defaults::instances")]
    pub max_running_instances: i64,
    #[serde(default)]
    pub auto_preview: bool,
    #[serde(default)]
    pub auto_deploy: bool,
    #[serde(default)]
    pub arguments: Vec<String>,
    pub entrypoint: Option<String>,
    #[serde(default)]
    pub storage: Vec<Storage>,
    #[serde(default)]
    pub ports: Vec<Port>,
    pub healthchecks: Healthchecks,
    #[serde(default)]
    pub annotations_groups: Vec<AnnotationsGroup>,
    #[serde(default)]
    pub labels_groups: Vec<LabelsGroup>,
    pub autoscaling: Option<Autoscaling>,
}

/// Body of `POST /environment/{id}/application`. Omitted fields take the defaults below.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApplicationRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub git_repository: GitRepositoryRequest,
    #[serde(default = "defaults::build_mode")]
    pub build_mode: String,
    #[serde(default)]
    pub dockerfile_path: Option<String>,
    #[serde(default)]
    pub docker_target_build_stage: Option<String>,
    /// What it runs with and how it is deployed, as a container's request says it too.
    #[serde(flatten, deserialize_with = "crate::flat::strictly")]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub runtime: RuntimeRequest,
}

impl Application {
    /// The update that keeps the application as it is: a form changes what it shows and sends
    /// the rest unchanged.
    pub fn to_request(&self) -> ApplicationRequest {
        ApplicationRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            git_repository: (&self.git_repository).into(),
            build_mode: self.build_mode.clone(),
            dockerfile_path: self.dockerfile_path.clone(),
            docker_target_build_stage: self.docker_target_build_stage.clone(),
            runtime: runtime_request_of!(self),
        }
    }
}

impl ApplicationRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.merge(self.git_repository.rules("git_repository."));
        violations.check(rules::build_mode("build_mode", &self.build_mode));
        self.runtime.check(&mut violations);
        violations.into_result()
    }
}
