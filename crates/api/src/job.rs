//! Jobs: run on a cron schedule or at lifecycle events of their environment, from an image or
//! built from git.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::container::RegistryOfImage;
use crate::error::FieldError;
use crate::git_repository::{GitRepository, GitRepositoryRequest};
use crate::probes::Healthchecks;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;

wire_enum!(
    JobType {
        Cron = "CRON" => "On a schedule (cron)",
        Lifecycle = "LIFECYCLE" => "At the environment's lifecycle events",
    }
);

wire_enum!(
    /// What a lifecycle job deploys, in the production document.
    JobLifecycleType {
        Generic = "GENERIC" => "Generic",
        Terraform = "TERRAFORM" => "Terraform",
        Cloudformation = "CLOUDFORMATION" => "CloudFormation",
    }
);

/// What a job runs: its arguments and entrypoint, each optional (the image's own otherwise).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobCommand {
    #[serde(default)]
    pub arguments: Vec<String>,
    #[serde(default)]
    pub entrypoint: Option<String>,
}

/// When a CRON job runs: a five-field cron expression in its timezone, and what it runs.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CronJobSchedule {
    pub scheduled_at: String,
    /// An IANA timezone, "Etc/UTC" when left out.
    #[serde(default = "utc")]
    pub timezone: String,
    #[serde(default)]
    pub arguments: Vec<String>,
    #[serde(default)]
    pub entrypoint: Option<String>,
}

fn utc() -> String {
    "Etc/UTC".to_string()
}

/// A job's schedule, in the production document's shape: `cronjob` for a CRON job, or what it
/// runs at each lifecycle event of its environment (`on_start`, `on_stop`, `on_delete`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobSchedule {
    #[serde(default)]
    pub cronjob: Option<CronJobSchedule>,
    #[serde(default)]
    pub on_start: Option<JobCommand>,
    #[serde(default)]
    pub on_stop: Option<JobCommand>,
    #[serde(default)]
    pub on_delete: Option<JobCommand>,
    #[serde(default)]
    pub lifecycle_type: Option<JobLifecycleType>,
}

impl JobSchedule {
    /// CRON when it has a `cronjob`, LIFECYCLE otherwise.
    pub fn job_type(&self) -> JobType {
        if self.cronjob.is_some() {
            JobType::Cron
        } else {
            JobType::Lifecycle
        }
    }

    /// The lifecycle events it runs at, by name: START, STOP, DELETE.
    pub fn events(&self) -> Vec<&'static str> {
        [
            ("START", &self.on_start),
            ("STOP", &self.on_stop),
            ("DELETE", &self.on_delete),
        ]
        .into_iter()
        .filter(|(_, command)| command.is_some())
        .map(|(event, _)| event)
        .collect()
    }

    fn check(&self, violations: &mut Violations) {
        let events = self.events();
        match &self.cronjob {
            Some(cron) => {
                violations.check(rules::cron(
                    "schedule.cronjob.scheduled_at",
                    &cron.scheduled_at,
                ));
                violations.check(rules::timezone("schedule.cronjob.timezone", &cron.timezone));
                if !events.is_empty() {
                    violations.check(Some(FieldError::new(
                        "schedule",
                        "runs on a cron schedule or at lifecycle events, not both",
                    )));
                }
            }
            None if events.is_empty() => violations.check(Some(FieldError::new(
                "schedule",
                "needs a cron schedule, or at least one lifecycle event (start, stop or delete)",
            ))),
            None => {}
        }
    }
}

/// An image a job runs, as the job's record names it (the production document's
/// `ContainerSource`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobImageSource {
    /// The platform may leave it out: `registry` names the registry.
    #[serde(default)]
    pub registry_id: Option<Uuid>,
    pub registry: RegistryOfImage,
    pub image_name: String,
    pub tag: String,
}

/// An image a job runs, as a request names it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobImageSourceRequest {
    pub registry_id: Uuid,
    pub image_name: String,
    pub tag: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobDockerSource {
    pub git_repository: GitRepository,
    /// Where the repository's Dockerfile is; none when the job brings its own.
    #[serde(default)]
    pub dockerfile_path: Option<String>,
    /// The job's own Dockerfile, built in the repository's root path instead of one of its files.
    #[serde(default)]
    pub dockerfile_raw: Option<String>,
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
    /// When given, the Dockerfile built: `dockerfile_path` is not read.
    #[serde(default)]
    pub dockerfile_raw: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobSourceRequest {
    #[serde(default)]
    pub image: Option<JobImageSourceRequest>,
    #[serde(default)]
    pub docker: Option<JobDockerSourceRequest>,
}

/// A job, in the production document's shape (its `CronJobResponse` or `LifecycleJobResponse`,
/// told apart by `job_type`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Job {
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
    pub job_type: JobType,
    pub schedule: JobSchedule,
    pub source: JobSource,
    pub cpu: i64,
    pub memory: i64,
    #[serde(default)]
    pub gpu: i64,
    /// What the job may use at most: here, what it is given.
    #[serde(default)]
    pub maximum_cpu: i64,
    #[serde(default)]
    pub maximum_memory: i64,
    #[serde(default)]
    pub maximum_gpu: i64,
    #[serde(default)]
    pub max_nb_restart: i64,
    #[serde(default)]
    pub max_duration_seconds: i64,
    #[serde(default)]
    pub auto_preview: bool,
    #[serde(default)]
    pub auto_deploy: bool,
    #[serde(default)]
    pub healthchecks: Healthchecks,
}

/// Body of `POST /environment/{id}/job` and of its update, in the production document's shape.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub schedule: JobSchedule,
    pub source: JobSourceRequest,
    #[serde(default = "crate::defaults::cpu")]
    pub cpu: i64,
    #[serde(default = "crate::defaults::memory")]
    pub memory: i64,
    #[serde(default)]
    pub gpu: i64,
    #[serde(default)]
    pub max_nb_restart: i64,
    #[serde(default = "default_max_duration")]
    pub max_duration_seconds: i64,
    #[serde(default)]
    pub auto_preview: Option<bool>,
    /// The production document allows `null`: not deployed on its own.
    #[serde(default)]
    pub auto_deploy: Option<bool>,
    #[serde(default)]
    pub healthchecks: Healthchecks,
}

fn default_max_duration() -> i64 {
    300
}

impl Job {
    /// The update that keeps the job as it is: a form changes what it shows and sends the rest
    /// unchanged.
    pub fn to_request(&self) -> JobRequest {
        JobRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            schedule: self.schedule.clone(),
            source: JobSourceRequest {
                image: self
                    .source
                    .image
                    .as_ref()
                    .map(|image| JobImageSourceRequest {
                        registry_id: image.registry_id.unwrap_or(image.registry.id),
                        image_name: image.image_name.clone(),
                        tag: image.tag.clone(),
                    }),
                docker: self
                    .source
                    .docker
                    .as_ref()
                    .map(|docker| JobDockerSourceRequest {
                        git_repository: (&docker.git_repository).into(),
                        dockerfile_path: docker.dockerfile_path.clone(),
                        dockerfile_raw: docker.dockerfile_raw.clone(),
                    }),
            },
            cpu: self.cpu,
            memory: self.memory,
            gpu: self.gpu,
            max_nb_restart: self.max_nb_restart,
            max_duration_seconds: self.max_duration_seconds,
            auto_preview: Some(self.auto_preview),
            auto_deploy: Some(self.auto_deploy),
            healthchecks: self.healthchecks.clone(),
        }
    }
}

/// The image a Dockerfile builds on: its first `FROM` line's, past any `--platform` option.
pub fn dockerfile_base(dockerfile: &str) -> Option<&str> {
    dockerfile.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        let instruction = words.next()?;
        instruction
            .eq_ignore_ascii_case("FROM")
            .then(|| words.find(|word| !word.starts_with("--")))
            .flatten()
    })
}

/// A Dockerfile written with a job: text (no control character but tabs and line breaks) that
/// says what it builds on.
fn dockerfile_raw(field: &str, dockerfile: &str) -> Option<FieldError> {
    rules::value(field, Some(dockerfile)).or_else(|| {
        dockerfile_base(dockerfile).is_none().then(|| {
            FieldError::new(
                field,
                "must have a FROM line naming the image it builds on (or leave it out to build the repository's Dockerfile)",
            )
        })
    })
}

impl JobRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        self.schedule.check(&mut violations);
        match (&self.source.image, &self.source.docker) {
            (Some(image), None) => {
                violations.check(rules::image_name(
                    "source.image.image_name",
                    &image.image_name,
                ));
                violations.check(rules::image_tag("source.image.tag", &image.tag));
            }
            (None, Some(docker)) => {
                violations.merge(docker.git_repository.rules("source.docker.git_repository."));
                if let Some(raw) = &docker.dockerfile_raw {
                    violations.check(dockerfile_raw("source.docker.dockerfile_raw", raw));
                }
            }
            _ => violations.check(Some(FieldError::new(
                "source",
                "must give exactly one of image and docker",
            ))),
        }
        violations.check(rules::positive("cpu", self.cpu));
        violations.check(rules::not_negative("gpu", self.gpu));
        violations.check(rules::positive("memory", self.memory));
        violations.check(rules::not_negative("max_nb_restart", self.max_nb_restart));
        violations.check(rules::positive(
            "max_duration_seconds",
            self.max_duration_seconds,
        ));
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dockerfile_builds_on_its_first_from_image() {
        let dockerfile = "# syntax=docker/dockerfile:1\nARG VERSION=3\nfrom --platform=linux/amd64 alpine:3.20 AS base\nFROM scratch";
        assert_eq!(dockerfile_base(dockerfile), Some("alpine:3.20"));
        assert_eq!(dockerfile_base("RUN echo"), None);
        assert_eq!(
            dockerfile_raw("source.docker.dockerfile_raw", "RUN true").map(|e| e.field),
            Some("source.docker.dockerfile_raw".to_string())
        );
        assert_eq!(dockerfile_raw("f", "FROM alpine\n\tRUN true\r\n"), None);
        // A NUL or an escape would cut or rewrite the lines the engine's log shows of it.
        for hidden in ["FROM alp\0ine", "FROM alpine\n\u{1b}[2J"] {
            let refused = dockerfile_raw("f", hidden).unwrap();
            assert!(refused.message.contains("control"), "{}", refused.message);
        }
    }
}
