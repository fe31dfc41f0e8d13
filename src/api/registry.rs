use platform_api::paths;
use platform_api::{ContainerRegistry, ContainerRegistryRequest, ImageVersions, List};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The organization's container registries, never their secrets.
    pub async fn container_registries(
        &self,
        org: Uuid,
    ) -> Result<Vec<ContainerRegistry>, ApiError> {
        let list: List<ContainerRegistry> =
            self.get(&paths::CONTAINER_REGISTRIES.at(&[org])).await?;
        Ok(list.results)
    }

    /// The registry's images with their tags, to pick from.
    pub async fn registry_images(
        &self,
        org: Uuid,
        registry: Uuid,
    ) -> Result<Vec<ImageVersions>, ApiError> {
        let list: List<ImageVersions> = self
            .get(&paths::CONTAINER_REGISTRY_IMAGES.at(&[org, registry]))
            .await?;
        Ok(list.results)
    }

    pub async fn create_container_registry(
        &self,
        org: Uuid,
        request: &ContainerRegistryRequest,
    ) -> Result<ContainerRegistry, ApiError> {
        self.post(&paths::CONTAINER_REGISTRIES.at(&[org]), request)
            .await
    }

    pub async fn delete_container_registry(
        &self,
        org: Uuid,
        registry: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&paths::CONTAINER_REGISTRY.at(&[org, registry]))
            .await
    }
}
