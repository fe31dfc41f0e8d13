use chrono::{DateTime, Utc};
use gloo_net::http::Method;
use platform_api::paths;
use platform_api::{
    DeliveryStatus, List, Webhook, WebhookDelivery, WebhookEvent, WebhookEventSent, WebhookRequest,
};
use uuid::Uuid;

use super::{Api, ApiError, Enhancement};

/// What the console shows of an event sent to a webhook: from this server's deliveries (with
/// every attempt and the retries to come), or from the platform's list of events sent (the
/// target's answer to the last attempt).
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    pub id: Uuid,
    pub event: WebhookEvent,
    /// The project, environment and service it was about, when the payload says.
    pub about: Option<String>,
    pub status: DeliveryStatus,
    pub outcome: Option<String>,
    /// How many attempts were made, when known.
    pub attempts: Option<usize>,
    /// The target's last answer: a status code, or why it could not be reached.
    pub last_answer: Option<String>,
    pub at: DateTime<Utc>,
}

impl From<WebhookDelivery> for Delivery {
    fn from(delivery: WebhookDelivery) -> Self {
        let payload = &delivery.payload;
        Self {
            id: delivery.id,
            event: delivery.event_type,
            about: Some(format!(
                "{} · {} · {}",
                payload.project_name, payload.environment_name, payload.service_name
            )),
            status: delivery.status,
            outcome: delivery.outcome,
            attempts: Some(delivery.attempts.len()),
            last_answer: delivery.attempts.last().and_then(|attempt| {
                match (attempt.status_code, &attempt.error) {
                    (Some(code), _) => Some(code.to_string()),
                    (None, error) => error.clone(),
                }
            }),
            at: delivery.created_at,
        }
    }
}

impl From<WebhookEventSent> for Delivery {
    fn from(sent: WebhookEventSent) -> Self {
        let code = sent.target_response_status_code;
        let names = ["project_name", "environment_name", "service_name"].map(|name| {
            let payload = sent.request.get("payload").unwrap_or(&sent.request);
            payload
                .get(name)
                .and_then(|value| value.as_str())
                .map(str::to_string)
        });
        let about = match names {
            [Some(project), Some(environment), Some(service)] => {
                Some(format!("{project} · {environment} · {service}"))
            }
            _ => None,
        };
        Self {
            id: sent.id,
            event: sent.matched_event,
            about,
            status: if (200..300).contains(&code) {
                DeliveryStatus::Delivered
            } else {
                DeliveryStatus::Failed
            },
            outcome: sent.target_response_body.clone(),
            attempts: None,
            last_answer: match code {
                0 => sent.target_response_body,
                code => Some(code.to_string()),
            },
            at: sent.created_at,
        }
    }
}

impl Api {
    pub async fn webhooks(&self, org: Uuid) -> Result<Vec<Webhook>, ApiError> {
        let list: List<Webhook> = self.get(&paths::WEBHOOKS.at(&[org])).await?;
        Ok(list.results)
    }

    pub async fn create_webhook(
        &self,
        org: Uuid,
        request: &WebhookRequest,
    ) -> Result<Webhook, ApiError> {
        self.post(&paths::WEBHOOKS.at(&[org]), request).await
    }

    /// Saves the whole webhook; a request without a secret keeps the one set.
    pub async fn update_webhook(
        &self,
        org: Uuid,
        webhook: Uuid,
        request: &WebhookRequest,
    ) -> Result<Webhook, ApiError> {
        self.put(&paths::WEBHOOK.at(&[org, webhook]), request).await
    }

    /// Sends the webhook a test event (this server's route): `None` from a platform that has no
    /// such route.
    pub async fn test_webhook(
        &self,
        org: Uuid,
        webhook: Uuid,
    ) -> Result<Option<WebhookDelivery>, ApiError> {
        let path = paths::WEBHOOK_TEST.at(&[org, webhook]);
        self.enhanced(Enhancement::WebhookTest, Method::POST, &path, Some(&()))
            .await
    }

    pub async fn delete_webhook(&self, org: Uuid, webhook: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::WEBHOOK.at(&[org, webhook])).await
    }

    /// The webhook's latest deliveries, newest first: with their attempts where the API keeps
    /// them (ours), the events the platform lists otherwise.
    pub async fn webhook_deliveries(
        &self,
        org: Uuid,
        webhook: Uuid,
    ) -> Result<Vec<Delivery>, ApiError> {
        let path = paths::WEBHOOK_DELIVERIES.at(&[org, webhook]);
        let ours: Option<List<WebhookDelivery>> = self
            .enhanced::<(), _>(Enhancement::WebhookDeliveries, Method::GET, &path, None)
            .await?;
        Ok(match ours {
            Some(list) => list.results.into_iter().map(Delivery::from).collect(),
            None => {
                let sent: List<WebhookEventSent> =
                    self.get(&paths::WEBHOOK_EVENTS.at(&[org, webhook])).await?;
                sent.results.into_iter().map(Delivery::from).collect()
            }
        })
    }
}
