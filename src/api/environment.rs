use platform_api::{
    CloneEnvironmentRequest, Environment, EnvironmentRequest, EnvironmentStatuses, List,
};
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

    pub async fn update_environment(
        &self,
        environment_id: Uuid,
        request: &EnvironmentRequest,
    ) -> Result<Environment, ApiError> {
        self.put(&format!("/environment/{environment_id}"), request)
            .await
    }

    /// A copy of the environment, its services, variables and secrets: nothing deployed.
    pub async fn clone_environment(
        &self,
        environment_id: Uuid,
        request: &CloneEnvironmentRequest,
    ) -> Result<Environment, ApiError> {
        self.post(&format!("/environment/{environment_id}/clone"), request)
            .await
    }

    pub async fn delete_environment(&self, environment_id: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/environment/{environment_id}")).await
    }

    /// Every service status of the environment, in one call.
    pub async fn environment_statuses(
        &self,
        environment_id: Uuid,
    ) -> Result<EnvironmentStatuses, ApiError> {
        self.get(&format!("/environment/{environment_id}/statuses"))
            .await
    }

    /// Runs `action` on every service of the environment it applies to. The answer (a `Status`
    /// for a deploy, the environment's state otherwise) is not read: the page polls the statuses.
    pub async fn act_on_environment(
        &self,
        environment_id: Uuid,
        action: EnvironmentAction,
    ) -> Result<(), ApiError> {
        self.post::<_, serde::de::IgnoredAny>(
            &format!("/environment/{environment_id}/{}", action.path_suffix()),
            &serde_json::json!({}),
        )
        .await
        .map(|_| ())
    }
}

/// What can be done to a whole environment: the server runs it on each service it applies to
/// (a restart or a stop skips the services that run nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvironmentAction {
    Deploy,
    Restart,
    Stop,
}

impl EnvironmentAction {
    fn path_suffix(self) -> &'static str {
        match self {
            EnvironmentAction::Deploy => "deploy",
            EnvironmentAction::Restart => "restart",
            EnvironmentAction::Stop => "stop",
        }
    }

    /// What the server accepted, said to the person.
    pub fn accepted(self) -> &'static str {
        match self {
            EnvironmentAction::Deploy => "Deployment of every service queued.",
            EnvironmentAction::Restart => "Restart of the running services queued.",
            EnvironmentAction::Stop => "Stop of the running services queued.",
        }
    }
}
