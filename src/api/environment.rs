use platform_api::{Environment, EnvironmentRequest, EnvironmentStatuses, List};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn environments(&self, project_id: Uuid) -> Result<Vec<Environment>, ApiError> {
        let list: List<Environment> = self
            .get(&format!("/project/{project_id}/environment"))
            .await?;
        Ok(list.results)
    }

    pub async fn environment(&self, environment_id: Uuid) -> Result<Environment, ApiError> {
        self.get(&format!("/environment/{environment_id}")).await
    }

    pub async fn create_environment(
        &self,
        project_id: Uuid,
        request: &EnvironmentRequest,
    ) -> Result<Environment, ApiError> {
        self.post(&format!("/project/{project_id}/environment"), request)
            .await
    }

    /// Every service status of the environment, in one call.
    pub async fn environment_statuses(
        &self,
        environment_id: Uuid,
    ) -> Result<EnvironmentStatuses, ApiError> {
        self.get(&format!("/environment/{environment_id}/statuses"))
            .await
    }
}
