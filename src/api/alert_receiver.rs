use platform_api::{
    AlertReceiver, AlertReceiverCreation, AlertReceiverCreationValidation, AlertReceiverValidation,
    List,
};
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

    /// Sends the receiver a test message (`validate`): an error says why it did not go.
    pub async fn test_alert_receiver(&self, receiver: Uuid) -> Result<(), ApiError> {
        self.post_answering_nothing(
            &format!("/alert-receivers/{receiver}/validate"),
            &AlertReceiverValidation::default(),
        )
        .await
    }

    /// Sends a test message to a receiver before it is saved.
    pub async fn test_new_alert_receiver(
        &self,
        receiver: &AlertReceiverCreation,
    ) -> Result<(), ApiError> {
        let request = AlertReceiverCreationValidation {
            alert_receiver: receiver.clone(),
            message: None,
        };
        self.post_answering_nothing("/alert-receivers/validate", &request)
            .await
    }
}
