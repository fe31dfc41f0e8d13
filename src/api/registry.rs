use platform_api::{ContainerRegistry, ContainerRegistryRequest, ImageVersions, List};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The organization's container registries, never their secrets.
    pub async fn container_registries(
        &self,
        org: Uuid,
    ) -> Result<Vec<ContainerRegistry>, ApiError> {
        let list: List<ContainerRegistry> = self
            .get(&format!("/organization/{org}/containerRegistry"))
            .await?;
        Ok(list.results)
    }

    /// The registry's images with their tags, to pick from.
    pub async fn registry_images(
        &self,
        org: Uuid,
        registry: Uuid,
    ) -> Result<Vec<ImageVersions>, ApiError> {
        let list: List<ImageVersions> = self
            .get(&format!(
                "/organization/{org}/containerRegistry/{registry}/images"
            ))
            .await?;
        Ok(list.results)
    }

    pub async fn create_container_registry(
        &self,
        org: Uuid,
        request: &ContainerRegistryRequest,
    ) -> Result<ContainerRegistry, ApiError> {
        self.post(&format!("/organization/{org}/containerRegistry"), request)
            .await
    }

    pub async fn delete_container_registry(
        &self,
        org: Uuid,
        registry: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&format!("/organization/{org}/containerRegistry/{registry}"))
            .await
    }
}
