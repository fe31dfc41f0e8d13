//! An environment's deployment stages: listed in order with their services, added, renamed,
//! deleted, moved next to one another; a service moved to a stage or skipped.

use gloo_net::http::Method;
use platform_api::paths;
use platform_api::{AttachServiceToStage, DeploymentStage, DeploymentStageRequest, List};
use uuid::Uuid;

use super::{Api, ApiError};

fn stage_path(stage: Uuid) -> String {
    paths::DEPLOYMENT_STAGE.at(&[stage])
}

impl Api {
    pub async fn deployment_stages(
        &self,
        environment: Uuid,
    ) -> Result<Vec<DeploymentStage>, ApiError> {
        let list: List<DeploymentStage> = self
            .get(&paths::ENVIRONMENT_STAGES.at(&[environment]))
            .await?;
        Ok(list.results)
    }

    pub async fn create_deployment_stage(
        &self,
        environment: Uuid,
        request: &DeploymentStageRequest,
    ) -> Result<DeploymentStage, ApiError> {
        self.post(&paths::ENVIRONMENT_STAGES.at(&[environment]), request)
            .await
    }

    pub async fn update_deployment_stage(
        &self,
        stage: Uuid,
        request: &DeploymentStageRequest,
    ) -> Result<DeploymentStage, ApiError> {
        self.put(&stage_path(stage), request).await
    }

    pub async fn delete_deployment_stage(&self, stage: Uuid) -> Result<(), ApiError> {
        self.delete(&stage_path(stage)).await
    }

    /// Moves `stage` just before (or, `after`, just after) `other`: the stages in their new order.
    pub async fn move_deployment_stage(
        &self,
        stage: Uuid,
        other: Uuid,
        after: bool,
    ) -> Result<Vec<DeploymentStage>, ApiError> {
        let way = if after { "moveAfter" } else { "moveBefore" };
        // The document's move has no body.
        let list: List<DeploymentStage> = self
            .send(
                Method::PUT,
                &format!("{}/{way}/{other}", stage_path(stage)),
                None,
            )
            .await?;
        Ok(list.results)
    }

    /// Moves the service to `stage` (and back into its environment's deployments), or, skipped,
    /// leaves it where it is and skips it: the stages as they are then.
    pub async fn attach_to_deployment_stage(
        &self,
        stage: Uuid,
        service: Uuid,
        skipped: bool,
    ) -> Result<Vec<DeploymentStage>, ApiError> {
        let body = AttachServiceToStage {
            is_skipped: Some(skipped),
        };
        let list: List<DeploymentStage> = self
            .put(&format!("{}/service/{service}", stage_path(stage)), &body)
            .await?;
        Ok(list.results)
    }
}
