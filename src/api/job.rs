use platform_api::{Job, JobRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn create_job(
        &self,
        environment_id: Uuid,
        request: &JobRequest,
    ) -> Result<Job, ApiError> {
        self.post(&format!("/environment/{environment_id}/job"), request)
            .await
    }
}
