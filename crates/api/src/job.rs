//! Jobs: run on a cron schedule or at lifecycle events of their environment, from an image or
//! built from git.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::application::{GitRepository, GitRepositoryRequest, ServiceType};
use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    JobType {
        Cron = "CRON",
        Lifecycle = "LIFECYCLE",
    }
);

wire_enum!(
    /// When a lifecycle job runs: as its environment starts, stops or is deleted.
    LifecycleEvent {
        Start = "START",
        Stop = "STOP",
        Delete = "DELETE",
    }
);

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobImageSource {
    pub registry_id: Uuid,
    pub image_name: String,
    pub tag: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobDockerSource {
    pub git_repository: GitRepository,
    pub dockerfile_path: String,
}

/// Exactly one of `image` and `docker`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobSource {
    pub image: Option<JobImageSource>,
    pub docker: Option<JobDockerSource>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobDockerSourceRequest {
    pub git_repository: GitRepositoryRequest,
    #[serde(default)]
    pub dockerfile_path: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobSourceRequest {
    #[serde(default)]
    pub image: Option<JobImageSource>,
    #[serde(default)]
    pub docker: Option<JobDockerSourceRequest>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Job {
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
    pub job_type: JobType,
    /// Cron expression of a CRON job (five fields, UTC).
    pub schedule: Option<String>,
    pub lifecycle_events: Vec<LifecycleEvent>,
    pub source: JobSource,
    pub cpu: i64,
    pub memory: i64,
    pub max_nb_restart: i64,
    pub max_duration_seconds: i64,
    pub arguments: Vec<String>,
    pub entrypoint: Option<String>,
    pub auto_deploy: bool,
}

/// Body of `POST /environment/{id}/job` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub job_type: JobType,
    #[serde(default)]
    pub schedule: Option<String>,
    #[serde(default)]
    pub lifecycle_events: Vec<LifecycleEvent>,
    pub source: JobSourceRequest,
    #[serde(default = "crate::application::defaults::cpu")]
    pub cpu: i64,
    #[serde(default = "crate::application::defaults::memory")]
    pub memory: i64,
    #[serde(default)]
    pub max_nb_restart: i64,
    #[serde(default = "default_max_duration")]
    pub max_duration_seconds: i64,
    #[serde(default)]
    pub arguments: Vec<String>,
    #[serde(default)]
    pub entrypoint: Option<String>,
    #[serde(default)]
    pub auto_deploy: bool,
}

fn default_max_duration() -> i64 {
    300
}

impl JobRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        match self.job_type {
            JobType::Cron => match &self.schedule {
                Some(schedule) => violations.check(rules::cron("schedule", schedule)),
                None => violations.check(Some(FieldError::new(
                    "schedule",
                    "is required for a CRON job",
                ))),
            },
            JobType::Lifecycle => {
                if self.lifecycle_events.is_empty() {
                    violations.check(Some(FieldError::new(
                        "lifecycle_events",
                        "must name at least one of START, STOP, DELETE for a LIFECYCLE job",
                    )));
                }
                if self.schedule.is_some() {
                    violations.check(Some(FieldError::new("schedule", "is only for CRON jobs")));
                }
            }
        }
        match (&self.source.image, &self.source.docker) {
            (Some(image), None) => {
                violations.check(rules::image_name(
                    "source.image.image_name",
                    &image.image_name,
                ));
                violations.check(rules::image_tag("source.image.tag", &image.tag));
            }
            (None, Some(docker)) => violations.check(rules::git_url(
                "source.docker.git_repository.url",
                &docker.git_repository.url,
            )),
            _ => violations.check(Some(FieldError::new(
                "source",
                "must give exactly one of image and docker",
            ))),
        }
        violations.check(rules::positive("cpu", self.cpu));
        violations.check(rules::positive("memory", self.memory));
        violations.check(rules::not_negative("max_nb_restart", self.max_nb_restart));
        violations.check(rules::positive(
            "max_duration_seconds",
            self.max_duration_seconds,
        ));
        violations.into_result()
    }
}
