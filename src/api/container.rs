use platform_api::{Container, ContainerRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn create_container(
        &self,
        environment_id: Uuid,
        request: &ContainerRequest,
    ) -> Result<Container, ApiError> {
        self.post(&format!("/environment/{environment_id}/container"), request)
            .await
    }
}
