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
