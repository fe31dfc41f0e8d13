use platform_api::paths;
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
            .get(&paths::ORGANIZATION_ALERT_RECEIVERS.at(&[org]))
            .await?;
        Ok(list.results)
    }

    pub async fn create_alert_receiver(
        &self,
        request: &AlertReceiverCreation,
    ) -> Result<AlertReceiver, ApiError> {
        self.post(paths::ALERT_RECEIVERS.0, request).await
    }

    pub async fn delete_alert_receiver(&self, receiver: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::ALERT_RECEIVER.at(&[receiver])).await
    }

    /// Sends the receiver a test message (`validate`): an error says why it did not go.
    pub async fn test_alert_receiver(&self, receiver: Uuid) -> Result<(), ApiError> {
        self.post_answering_nothing(
            &paths::ALERT_RECEIVER_VALIDATE.at(&[receiver]),
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
        self.post_answering_nothing(paths::ALERT_RECEIVERS_VALIDATE.0, &request)
            .await
    }
}
