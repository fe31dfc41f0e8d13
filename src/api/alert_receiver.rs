use platform_api::{AlertReceiver, AlertReceiverCreation, List};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The organization's alert receivers, never their webhook URL.
    pub async fn alert_receivers(&self, org: Uuid) -> Result<Vec<AlertReceiver>, ApiError> {
        let list: List<AlertReceiver> = self
            .get(&format!("/organization/{org}/alert-receivers"))
            .await?;
        Ok(list.results)
    }

    pub async fn create_alert_receiver(
        &self,
        request: &AlertReceiverCreation,
    ) -> Result<AlertReceiver, ApiError> {
        self.post("/alert-receivers", request).await
    }

    pub async fn delete_alert_receiver(&self, receiver: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/alert-receivers/{receiver}")).await
    }
}
