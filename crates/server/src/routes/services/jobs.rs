//! Jobs: run on a cron schedule or at lifecycle events, from an image or built from git.

use platform_api::{
    CronJobSchedule, FieldError, Job, JobDockerSource, JobImageSource, JobSchedule, JobSource,
    Reference, RegistryOfImage, ServiceType,
};
use platform_api::{ImagePaths, Jobs};
use uuid::Uuid;

use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::services::applications::git_repository;
use crate::routes::services::resource::{timestamps, ServiceResource};
use crate::store::organization_resources::Kind;
use crate::store::services::Names;

impl ServiceResource for Jobs {
    const WHAT: &'static str = "job";
    const NAMES: Option<Names> = Some(Names {
        at: "$.source.image.registry",
        kind: ContainerRegistries::KIND,
    });

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn references(request: &Self::Request) -> Vec<(String, Kind, Uuid)> {
        request
            .source
            .image
            .iter()
            .map(|image| {
                (
                    "source.image.registry_id".to_string(),
                    ContainerRegistries::KIND,
                    image.registry_id,
                )
            })
            .collect()
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let (created_at, updated_at) = timestamps(previous.map(|p| p.created_at));
        Job {
            id,
            created_at,
            updated_at,
            icon_uri: ServiceType::Job.default_icon_uri(),
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            service_type: ServiceType::Job,
            job_type: request.schedule.job_type(),
            schedule: JobSchedule {
                cronjob: request.schedule.cronjob.map(|cron| CronJobSchedule {
                    scheduled_at: cron
                        .scheduled_at
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                    ..cron
                }),
                ..request.schedule
            },
            source: JobSource {
                image: request.source.image.map(|image| JobImageSource {
                    registry_id: Some(image.registry_id),
                    registry: RegistryOfImage::stored(image.registry_id),
                    image_name: image.image_name,
                    tag: image.tag,
                }),
                // A Dockerfile written with the job is built instead of the repository's.
                docker: request.source.docker.map(|docker| JobDockerSource {
                    git_repository: git_repository(docker.git_repository),
                    dockerfile_path: docker.dockerfile_raw.is_none().then(|| {
                        docker
                            .dockerfile_path
                            .unwrap_or_else(|| "Dockerfile".to_string())
                    }),
                    dockerfile_raw: docker.dockerfile_raw,
                }),
            },
            cpu: request.cpu,
            memory: request.memory,
            gpu: request.gpu,
            maximum_cpu: request.cpu,
            maximum_memory: request.memory,
            maximum_gpu: request.gpu,
            max_nb_restart: request.max_nb_restart,
            max_duration_seconds: request.max_duration_seconds,
            auto_preview: request.auto_preview.unwrap_or(false),
            auto_deploy: request.auto_deploy.unwrap_or(false),
            healthchecks: request.healthchecks,
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }

    fn image_tag_at(record: &Self::Record) -> Option<&'static str> {
        record.source.image.as_ref().map(|_| ImagePaths::JOB.tag)
    }

    const RESTORED_BY_ROLLBACK: &'static [&'static str] =
        &[ImagePaths::JOB.name, ImagePaths::JOB.tag];
}
