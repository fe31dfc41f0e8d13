//! Containers: services run from an image of one of the organization's container registries.

use platform_api::{
    AnnotationsGroup, Container, FieldError, LabelsGroup, Port, Reference, RegistryOfImage,
    ServiceType,
};
use platform_api::{Containers, ImagePaths};
use uuid::Uuid;

use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::services::applications::{
    attached, autoscaling, group_references, ports, storage,
};
use crate::routes::services::resource::{timestamps, ServiceResource};
use crate::store::organization_resources::Kind;
use crate::store::services::Names;

impl ServiceResource for Containers {
    const WHAT: &'static str = "container";
    const NAMES: Option<Names> = Some(Names {
        at: "$.registry",
        kind: ContainerRegistries::KIND,
    });

    fn ports(record: &Container) -> &[Port] {
        &record.ports
    }

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    fn references(request: &Self::Request) -> Vec<(String, Kind, Uuid)> {
        let mut references = vec![(
            "registry_id".to_string(),
            ContainerRegistries::KIND,
            request.registry_id,
        )];
        references.extend(group_references(
            &request.runtime.annotations_groups,
            &request.runtime.labels_groups,
        ));
        references
    }

    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record {
        let (created_at, updated_at) = timestamps(previous.map(|p| p.created_at));
        Container {
            id,
            created_at,
            updated_at,
            icon_uri: ServiceType::Container.default_icon_uri(),
            environment: Reference { id: environment_id },
            name: request.name.trim().to_string(),
            description: request.description,
            service_type: ServiceType::Container,
            registry: RegistryOfImage::stored(request.registry_id),
            image_name: request.image_name,
            tag: request.tag,
            cpu: request.runtime.cpu,
            memory: request.runtime.memory,
            gpu: request.runtime.gpu,
            maximum_cpu: request.runtime.cpu,
            maximum_memory: request.runtime.memory,
            maximum_gpu: request.runtime.gpu,
            min_running_instances: request.runtime.min_running_instances,
            max_running_instances: request.runtime.max_running_instances,
            auto_preview: request.runtime.auto_preview,
            auto_deploy: request.runtime.auto_deploy,
            arguments: request.runtime.arguments,
            entrypoint: request.runtime.entrypoint,
            ports: ports(
                request.runtime.ports,
                previous.map_or(&[][..], |kept| &kept.ports),
            ),
            storage: storage(
                request.runtime.storage,
                previous.map_or(&[][..], |kept| &kept.storage),
            ),
            healthchecks: request.runtime.healthchecks,
            annotations_groups: attached(
                &request.runtime.annotations_groups,
                AnnotationsGroup::stored,
            ),
            labels_groups: attached(&request.runtime.labels_groups, LabelsGroup::stored),
            autoscaling: autoscaling(
                request.runtime.autoscaling,
                id,
                previous.and_then(|kept| kept.autoscaling.as_ref()),
            ),
        }
    }

    fn name(record: &Self::Record) -> &str {
        &record.name
    }

    fn image_tag_at(_record: &Self::Record) -> Option<&'static str> {
        Some(ImagePaths::CONTAINER.tag)
    }

    const RESTORED_BY_ROLLBACK: &'static [&'static str] =
        &[ImagePaths::CONTAINER.name, ImagePaths::CONTAINER.tag];
}
