//! Jobs: run on a cron schedule or at lifecycle events, from an image or built from git.

use platform_api::{
    FieldError, Job, JobDockerSource, JobRequest, JobSource, Reference, ServiceType,
};
use uuid::Uuid;

use super::applications::git_repository;
use super::container_registries::ContainerRegistries;
use super::organization_resources::OrganizationResource;
use super::service_resources::{timestamps, ServiceResource};
use crate::store::Kind;

pub struct Jobs;

impl ServiceResource for Jobs {
    const TYPE: ServiceType = ServiceType::Job;
    const WHAT: &'static str = "job";
    const COLLECTION: &'static str = "/environment/{environment_id}/job";
    const ITEM: &'static str = "/job/{job_id}";
    const STATUS: &'static str = "/job/{job_id}/status";
    const DEPLOY: &'static str = "/job/{job_id}/deploy";

    type Request = JobRequest;
    type Record = Job;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn references(request: &Self::Request) -> Vec<(&'static str, Kind, Uuid)> {
        request
            .source
            .image
            .iter()
            .map(|image| {
                (
                    "source.image.registry_id",
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
            job_type: request.job_type,
            schedule: request
                .schedule
                .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
            lifecycle_events: request.lifecycle_events,
            source: JobSource {
                image: request.source.image,
                docker: request.source.docker.map(|docker| JobDockerSource {
                    git_repository: git_repository(docker.git_repository),
                    dockerfile_path: docker
                        .dockerfile_path
                        .unwrap_or_else(|| "Dockerfile".to_string()),
                }),
            },
            cpu: request.cpu,
            memory: request.memory,
            max_nb_restart: request.max_nb_restart,
            max_duration_seconds: request.max_duration_seconds,
            arguments: request.arguments,
            entrypoint: request.entrypoint,
            auto_deploy: request.auto_deploy,
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }
}
