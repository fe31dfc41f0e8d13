use platform_api::{List, Webhook, WebhookDelivery, WebhookRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    pub async fn webhooks(&self, org: Uuid) -> Result<Vec<Webhook>, ApiError> {
        let list: List<Webhook> = self.get(&format!("/organization/{org}/webhook")).await?;
        Ok(list.results)
    }

    pub async fn create_webhook(
        &self,
        org: Uuid,
        request: &WebhookRequest,
    ) -> Result<Webhook, ApiError> {
        self.post(&format!("/organization/{org}/webhook"), request)
            .await
    }

    /// Saves the whole webhook; a request without a secret keeps the one set.
    pub async fn update_webhook(
        &self,
        org: Uuid,
        webhook: Uuid,
        request: &WebhookRequest,
    ) -> Result<Webhook, ApiError> {
        self.put(&format!("/organization/{org}/webhook/{webhook}"), request)
            .await
    }

    /// Sends the webhook a test event (this server's route); the answer is its delivery, pending.
    pub async fn test_webhook(
        &self,
        org: Uuid,
        webhook: Uuid,
    ) -> Result<WebhookDelivery, ApiError> {
        self.post(&format!("/organization/{org}/webhook/{webhook}/test"), &())
            .await
    }

    pub async fn delete_webhook(&self, org: Uuid, webhook: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/organization/{org}/webhook/{webhook}"))
            .await
    }

    /// The webhook's latest deliveries, newest first, each with its attempts.
    pub async fn webhook_deliveries(
        &self,
        org: Uuid,
        webhook: Uuid,
    ) -> Result<Vec<WebhookDelivery>, ApiError> {
        let list: List<WebhookDelivery> = self
            .get(&format!("/organization/{org}/webhook/{webhook}/delivery"))
            .await?;
        Ok(list.results)
    }
}
