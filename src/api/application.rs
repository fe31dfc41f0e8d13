use platform_api::{Application, ApplicationRequest, DeployRequest, List, LogLine, Status};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn applications(&self, environment_id: Uuid) -> Result<Vec<Application>, ApiError> {
        let list: List<Application> = self
            .get(&format!("/environment/{environment_id}/application"))
            .await?;
        Ok(list.results)
    }

    pub async fn application(&self, application_id: Uuid) -> Result<Application, ApiError> {
        self.get(&format!("/application/{application_id}")).await
    }

    pub async fn create_application(
        &self,
        environment_id: Uuid,
        request: &ApplicationRequest,
    ) -> Result<Application, ApiError> {
        self.post(
            &format!("/environment/{environment_id}/application"),
            request,
        )
        .await
    }

    pub async fn deploy_application(
        &self,
        application_id: Uuid,
        request: &DeployRequest,
    ) -> Result<Status, ApiError> {
        self.post(&format!("/application/{application_id}/deploy"), request)
            .await
    }

    /// The last `tail` lines of the log of one execution of the application.
    pub async fn application_log(
        &self,
        application_id: Uuid,
        execution_id: &str,
        tail: u32,
    ) -> Result<Vec<LogLine>, ApiError> {
        let list: List<LogLine> = self
            .get(&format!(
                "/application/{application_id}/log?tail={tail}&execution_id={execution_id}"
            ))
            .await?;
        Ok(list.results)
    }

    pub async fn application_status(&self, application_id: Uuid) -> Result<Status, ApiError> {
        self.get(&format!("/application/{application_id}/status"))
            .await
    }
}
