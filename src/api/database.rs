use platform_api::{Database, DatabaseRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn create_database(
        &self,
        environment_id: Uuid,
        request: &DatabaseRequest,
    ) -> Result<Database, ApiError> {
        self.post(&format!("/environment/{environment_id}/database"), request)
            .await
    }
}
