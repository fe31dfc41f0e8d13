//! Containers: services run from an image of one of the organization's container registries.

use platform_api::{Container, FieldError, Port, Reference, RegistryOfImage, ServiceType};
use platform_api::{Containers, ImagePaths};
use uuid::Uuid;

use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::services::applications::{group_references, runtime_record};
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
        runtime_record!(
            Container {
                id: id,
                created_at: created_at,
                updated_at: updated_at,
                icon_uri: ServiceType::Container.default_icon_uri(),
                environment: Reference { id: environment_id },
                name: request.name.trim().to_string(),
                description: request.description,
                service_type: ServiceType::Container,
                registry: RegistryOfImage::stored(request.registry_id),
                image_name: request.image_name,
                tag: request.tag,
            },
            maximum_gpu,
            request.runtime,
            id,
            previous
        )
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
