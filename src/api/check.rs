use platform_api::paths;
use platform_api::{ContainerImageCheckRequest, DockerfileCheck, DockerfileCheckRequest, Found};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// Whether the registry holds the image at its tag.
    pub async fn check_container_image(
        &self,
        environment: Uuid,
        request: &ContainerImageCheckRequest,
    ) -> Result<Found, ApiError> {
        self.post(&paths::CHECK_CONTAINER_IMAGE.at(&[environment]), request)
            .await
    }

    /// Whether the Dockerfile is in the repository, with what it declares.
    pub async fn check_dockerfile(
        &self,
        environment: Uuid,
        request: &DockerfileCheckRequest,
    ) -> Result<DockerfileCheck, ApiError> {
        self.post(&paths::CHECK_DOCKERFILE.at(&[environment]), request)
            .await
    }
}
