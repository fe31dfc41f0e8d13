use platform_api::paths;
use platform_api::{
    ContainerRegistry, ContainerRegistryRequest, ImageVersions, List, ServiceState, StateTone,
};
use serde::Deserialize;
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

    /// How many of the containers taking their image from the registry failed their last
    /// action, and how many there are.
    pub async fn registry_container_failures(
        &self,
        org: Uuid,
        registry: Uuid,
    ) -> Result<(usize, usize), ApiError> {
        /// What the count reads of a container's status.
        #[derive(Deserialize)]
        struct ContainerState {
            state: ServiceState,
        }
        let list: List<ContainerState> = self
            .get(&paths::CONTAINER_REGISTRY_STATUSES.at(&[org, registry]))
            .await?;
        let failed = list
            .results
            .iter()
            .filter(|status| status.state.tone() == StateTone::Failure)
            .count();
        Ok((failed, list.results.len()))
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
