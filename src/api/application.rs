use platform_api::{Application, ApplicationRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
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
}
