//! Sends recorded events to their webhooks over HTTP, signed, and retries them with exponential
//! backoff; each attempt is recorded. Delivery is at least once: an attempt cut short by a
//! restart is made again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use platform_api::{
    AlertReceiver, DeliveryStatus, EventBody, EventPayload, Webhook, WebhookEvent, WebhookKind,
};
use sha2::Sha256;
use sqlx::SqlitePool;
use tokio::sync::{Notify, Semaphore};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::notify::{Notice, Notifier};
use crate::seal::Sealer;
use crate::seal::Secrets;
use crate::store::action::Action;
use crate::targets::NOT_PUBLIC;

/// Attempts made before a delivery is given up: the first and five retries.
pub const MAX_ATTEMPTS: u32 = 6;
/// Attempts in flight at once.
const CONCURRENT_ATTEMPTS: usize = 16;
/// Attempts of one organization's in flight at once: the others' always find slots.
const ATTEMPTS_PER_ORGANIZATION: usize = CONCURRENT_ATTEMPTS / 4;
/// Concluded deliveries kept per webhook, newest first; older ones are deleted with their attempts.
pub const KEPT_PER_WEBHOOK: i64 = 1000;
/// The header that signs a STANDARD delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
pub const SIGNATURE_HEADER: &str = "X-Platform-Signature";

pub struct Deliverer {
    db: SqlitePool,
    /// The HTTP client (names resolving only to allowed addresses) and the target policy.
    notifier: Notifier,
    /// Opens the webhooks' signing secrets.
    sealer: Arc<Sealer>,
    /// The wait before the first retry; each retry waits twice the one before.
    retry_base: Duration,
    /// Rung when an event is recorded or an attempt ends.
    wake: Arc<Notify>,
    slots: Arc<Semaphore>,
}

/// A delivery claimed for an attempt: a webhook's event, or an alert's notice to a receiver.
struct Due {
    id: Uuid,
    webhook_id: Uuid,
    sent: Sent,
}

enum Sent {
    Event {
        event: WebhookEvent,
        payload: Box<EventPayload>,
    },
    Notice(Notice),
}

/// A delivery claimed for an attempt, as stored: no event for a notice (`events::ALERT`).
#[derive(sqlx::FromRow)]
struct Claimed {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    webhook_id: Uuid,
    event_type: Option<WebhookEvent>,
    payload: String,
}

impl Deliverer {
    pub fn new(
        db: SqlitePool,
        retry_base: Duration,
        wake: Arc<Notify>,
        notifier: Notifier,
        sealer: Arc<Sealer>,
    ) -> Self {
        Self {
            db,
            notifier,
            sealer,
            retry_base,
            wake,
            slots: Arc::new(Semaphore::new(CONCURRENT_ATTEMPTS)),
        }
    }

    /// Delivers for as long as the server runs, starting with the attempts a previous run of the
    /// server left in flight.
    pub async fn start(self: Arc<Self>) -> anyhow::Result<tokio::task::JoinHandle<()>> {
        let interrupted = sqlx::query(
            "UPDATE webhook_deliveries SET attempting = 0, next_attempt_at = ? WHERE attempting = 1",
        )
        .bind(Utc::now().timestamp_millis())
        .execute(&self.db)
        .await?
        .rows_affected();
        if interrupted > 0 {
            tracing::info!(
                interrupted,
                "making again the webhook attempts a stop interrupted"
            );
        }
        Ok(tokio::spawn(async move {
            loop {
                if let Err(error) = self.dispatch_due().await {
                    tracing::error!(%error, "webhook deliveries could not be read");
                }
                let idle = self
                    .until_next_due()
                    .await
                    .unwrap_or(Duration::from_secs(5));
                tokio::select! {
                    _ = self.wake.notified() => {}
                    _ = tokio::time::sleep(idle) => {}
                }
            }
        }))
    }

    /// Claims as many due deliveries as there are free slots and starts an attempt for each.
    async fn dispatch_due(self: &Arc<Self>) -> anyhow::Result<()> {
        let free = self.slots.available_permits();
        if free == 0 {
            return Ok(());
        }
        // One statement claims them, so no delivery is attempted twice at once; and fairly: one
        // attempt at a time per target (webhook or receiver), and at most
        // `ATTEMPTS_PER_ORGANIZATION` of one organization's in flight, so that no firing rule
        // or slow receiver takes the slots every other needs.
        let claimed: Vec<Claimed> = sqlx::query_as(
            "WITH in_flight AS (
                 SELECT d.webhook_id, r.organization_id
                 FROM webhook_deliveries d JOIN organization_resources r ON r.id = d.webhook_id
                 WHERE d.attempting = 1
             ),
             due AS (
                 SELECT d.id, d.next_attempt_at, r.organization_id,
                        ROW_NUMBER() OVER (PARTITION BY d.webhook_id
                                           ORDER BY d.next_attempt_at, d.id) AS in_target
                 FROM webhook_deliveries d JOIN organization_resources r ON r.id = d.webhook_id
                 WHERE d.status = 'PENDING' AND d.attempting = 0 AND d.next_attempt_at <= ?
                   AND d.webhook_id NOT IN (SELECT webhook_id FROM in_flight)
             ),
             first_of_each_target AS (
                 SELECT id, next_attempt_at, organization_id,
                        ROW_NUMBER() OVER (PARTITION BY organization_id
                                           ORDER BY next_attempt_at, id) AS in_organization
                 FROM due WHERE in_target = 1
             )
             UPDATE webhook_deliveries SET attempting = 1
             WHERE id IN (
                 SELECT f.id FROM first_of_each_target f
                 WHERE f.in_organization
                       + (SELECT COUNT(*) FROM in_flight i
                          WHERE i.organization_id = f.organization_id) <= ?
                 ORDER BY f.next_attempt_at LIMIT ?)
             RETURNING id, webhook_id, NULLIF(event_type, ?) AS event_type, payload",
        )
        .bind(Utc::now().timestamp_millis())
        .bind(i64::try_from(ATTEMPTS_PER_ORGANIZATION)?)
        .bind(i64::try_from(free)?)
        .bind(super::ALERT)
        .fetch_all(&self.db)
        .await?;
        for claimed in claimed {
            let sent = match claimed.event_type {
                Some(event) => Sent::Event {
                    event,
                    payload: serde_json::from_str(&claimed.payload)?,
                },
                None => Sent::Notice(serde_json::from_str(&claimed.payload)?),
            };
            let due = Due {
                id: claimed.id,
                webhook_id: claimed.webhook_id,
                sent,
            };
            let slot = self.slots.clone().try_acquire_owned()?;
            let deliverer = self.clone();
            tokio::spawn(async move {
                if let Err(error) = deliverer.attempt(&due).await {
                    tracing::error!(delivery = %due.id, %error, "webhook attempt not recorded");
                    deliverer.release(&due).await;
                }
                drop(slot);
                deliverer.wake.notify_one();
            });
        }
        Ok(())
    }

    async fn until_next_due(&self) -> anyhow::Result<Duration> {
        let next: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(next_attempt_at) FROM webhook_deliveries
             WHERE status = 'PENDING' AND attempting = 0",
        )
        .fetch_one(&self.db)
        .await?;
        let Some(next) = next else {
            return Ok(Duration::from_secs(60));
        };
        let wait = next - Utc::now().timestamp_millis();
        Ok(Duration::from_millis(u64::try_from(wait.max(0))?))
    }

    async fn attempt(&self, due: &Due) -> anyhow::Result<()> {
        #[derive(sqlx::FromRow)]
        struct Stored {
            record: String,
            secrets: String,
        }
        let stored: Option<Stored> =
            sqlx::query_as("SELECT record, secrets FROM organization_resources WHERE id = ?")
                .bind(due.webhook_id.hyphenated())
                .fetch_optional(&self.db)
                .await?;
        // A deleted webhook or receiver takes its deliveries with it.
        let Some(stored) = stored else {
            return Ok(());
        };
        let secrets: Secrets = serde_json::from_str(&stored.secrets)?;
        let previous: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM webhook_delivery_attempts WHERE delivery_id = ?",
        )
        .bind(due.id.hyphenated())
        .fetch_one(&self.db)
        .await?;
        let attempt = u32::try_from(previous)? + 1;
        let attempted_at = Utc::now();
        let started = Instant::now();
        let (status_code, error) = match &due.sent {
            Sent::Event { event, payload } => {
                let webhook: Webhook = serde_json::from_str(&stored.record)?;
                if !webhook.enabled {
                    return self
                        .conclude(
                            due,
                            DeliveryStatus::Failed,
                            "Not sent: the webhook was disabled before delivery.",
                        )
                        .await;
                }
                self.post_event(&webhook, &secrets, due, (*event, payload), attempted_at)
                    .await?
            }
            Sent::Notice(notice) => {
                let receiver: AlertReceiver = serde_json::from_str(&stored.record)?;
                let receiver = crate::notify::Receiver::opened(&receiver, &secrets, &self.sealer)?;
                (None, self.notifier.send(&receiver, notice).await.err())
            }
        };
        let duration_ms = u64::try_from(started.elapsed().as_millis())?;
        tracing::info!(
            target = %due.webhook_id,
            delivery = %due.id,
            attempt,
            status = status_code.map(|code| code.as_u16()),
            duration_ms,
            "delivery attempt"
        );

        let mut tx = self.db.begin().await?;
        sqlx::query(
            "INSERT INTO webhook_delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(due.id.hyphenated())
        .bind(attempt)
        .bind(attempted_at)
        .bind(status_code.map(|code| code.as_u16()))
        .bind(i64::try_from(duration_ms)?)
        .bind(&error)
        .execute(&mut *tx)
        .await?;
        let (status, outcome, next) = match error {
            None => (
                DeliveryStatus::Delivered,
                Some(format!("Delivered at attempt {attempt}.")),
                None,
            ),
            Some(_) if attempt >= MAX_ATTEMPTS => (
                DeliveryStatus::Failed,
                Some(format!("Given up after {attempt} attempts.")),
                None,
            ),
            Some(_) => {
                let wait = self.retry_base * 2u32.pow(attempt - 1);
                let next = Utc::now().timestamp_millis() + i64::try_from(wait.as_millis())?;
                (DeliveryStatus::Pending, None, Some(next))
            }
        };
        sqlx::query(
            "UPDATE webhook_deliveries SET status = ?, outcome = ?, next_attempt_at = ?, attempting = 0
             WHERE id = ?",
        )
        .bind(status)
        .bind(outcome)
        .bind(next)
        .bind(due.id.hyphenated())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        if status != DeliveryStatus::Pending {
            self.prune(due.webhook_id).await?;
        }
        Ok(())
    }

    /// POSTs a webhook's event, signed when it has a secret: the receiver's status, or why it
    /// got none.
    async fn post_event(
        &self,
        webhook: &Webhook,
        secrets: &Secrets,
        due: &Due,
        (event, payload): (WebhookEvent, &EventPayload),
        attempted_at: DateTime<Utc>,
    ) -> anyhow::Result<(Option<reqwest::StatusCode>, Option<String>)> {
        let body = match webhook.kind {
            WebhookKind::Standard => serde_json::to_string(&EventBody {
                event_type: event,
                delivered_at: attempted_at,
                payload: payload.clone(),
            })?,
            WebhookKind::Slack => serde_json::to_string(&slack_message(event, payload))?,
            WebhookKind::Other(kind) => anyhow::bail!("a webhook of the unknown kind {kind}"),
        };
        let mut request = self
            .notifier
            .client()
            .post(&webhook.target_url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("X-Platform-Event", event.as_str())
            .header("X-Platform-Delivery", due.id.to_string());
        if let Some(sealed) =
            secrets.get(crate::store::organization_resources::WEBHOOK_TARGET_SECRET)
        {
            let secret = self.sealer.open(sealed)?;
            request = request.header(
                SIGNATURE_HEADER,
                signature(&secret, attempted_at.timestamp(), &body),
            );
        }
        // An address written in the URL is not resolved, so the resolver does not see it.
        let literal_refused = reqwest::Url::parse(&webhook.target_url)
            .map_or(true, |url| self.notifier.targets().refuses_literal(&url));
        let answer = if literal_refused {
            Err(None)
        } else {
            request.body(body).send().await.map_err(Some)
        };
        Ok(match answer {
            Ok(response) if response.status().is_success() => (Some(response.status()), None),
            Ok(response) => (
                Some(response.status()),
                Some(format!("The receiver answered {}.", response.status())),
            ),
            Err(error) => (None, Some(describe(error))),
        })
    }

    /// Keeps the webhook's newest concluded deliveries only, so that storage stays bounded.
    async fn prune(&self, webhook_id: Uuid) -> anyhow::Result<()> {
        sqlx::query(
            "DELETE FROM webhook_deliveries
             WHERE webhook_id = ? AND status != 'PENDING' AND id NOT IN (
                 SELECT id FROM webhook_deliveries WHERE webhook_id = ?
                 ORDER BY created_at DESC, rowid DESC LIMIT ?)",
        )
        .bind(webhook_id.hyphenated())
        .bind(webhook_id.hyphenated())
        .bind(KEPT_PER_WEBHOOK)
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Makes a delivery whose attempt could not be recorded due again, after the first retry wait.
    async fn release(&self, due: &Due) {
        let next = Utc::now().timestamp_millis()
            + i64::try_from(self.retry_base.as_millis()).unwrap_or(i64::MAX / 2);
        let released = sqlx::query(
            "UPDATE webhook_deliveries SET attempting = 0, next_attempt_at = ? WHERE id = ?",
        )
        .bind(next)
        .bind(due.id.hyphenated())
        .execute(&self.db)
        .await;
        if let Err(error) = released {
            // Left attempting: the next start of the server makes it again.
            tracing::error!(delivery = %due.id, %error, "webhook delivery not released");
        }
    }

    /// Ends a delivery without sending it.
    async fn conclude(
        &self,
        due: &Due,
        status: DeliveryStatus,
        outcome: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE webhook_deliveries SET status = ?, outcome = ?, next_attempt_at = NULL, attempting = 0
             WHERE id = ?",
        )
        .bind(status)
        .bind(outcome)
        .bind(due.id.hyphenated())
        .execute(&self.db)
        .await?;
        self.prune(due.webhook_id).await
    }
}

/// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" keyed with the secret>`.
pub fn signature(secret: &str, unix_seconds: i64, body: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(format!("{unix_seconds}.{body}").as_bytes());
    format!(
        "t={unix_seconds},v1={}",
        hex::encode(mac.finalize().into_bytes())
    )
}

/// A chat message for a SLACK webhook: one line saying what happened where.
pub fn slack_message(event: WebhookEvent, payload: &EventPayload) -> serde_json::Value {
    let what = Action::from_status_action(payload.action).map_or("Action", Action::noun);
    let (icon, happened) = match event {
        WebhookEvent::DeploymentStarted => (":rocket:", "started"),
        WebhookEvent::DeploymentSuccessful => (":white_check_mark:", "succeeded"),
        WebhookEvent::DeploymentFailure => (":x:", "failed"),
        WebhookEvent::DeploymentCancelled => (":no_entry_sign:", "was cancelled"),
        WebhookEvent::Other(_) => (":information_source:", "changed"),
    };
    let commit = payload
        .git_commit_id
        .as_deref()
        .map(|commit| format!(" at commit `{}`", &commit[..commit.len().min(8)]))
        .unwrap_or_default();
    let text = format!(
        "{icon} {what} of *{service}* {happened}{commit} — {project} › {environment} ({mode}). State {state}, execution `{execution}`.",
        service = payload.service_name,
        project = payload.project_name,
        environment = payload.environment_name,
        mode = payload.environment_mode,
        state = payload.state,
        execution = payload.execution_id,
    );
    serde_json::json!({ "text": text })
}

/// Why an attempt got no answer (`None`: its address was refused before sending), in words that
/// neither repeat the URL (a chat endpoint's path is a credential) nor tell a closed port from a
/// filtered one.
fn describe(error: Option<reqwest::Error>) -> String {
    const REFUSED: &str = "Not sent: the receiver's address is not public.";
    let Some(error) = error else {
        return REFUSED.to_string();
    };
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        causes.push(cause.to_string());
        source = cause.source();
    }
    if causes.iter().any(|cause| cause.contains(NOT_PUBLIC)) {
        REFUSED.to_string()
    } else if error.is_connect() || error.is_timeout() {
        "Could not connect to the receiver, or it did not answer in time.".to_string()
    } else {
        "The exchange with the receiver failed before it answered.".to_string()
    }
}

/// When a delivery row's due time (unix milliseconds) is, for answers.
pub fn due_at(next_attempt_at: Option<i64>) -> Option<DateTime<Utc>> {
    next_attempt_at.and_then(DateTime::from_timestamp_millis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform_api::{EnvironmentMode, ServiceState, ServiceType, StatusAction};
    use uuid::Uuid;

    #[test]
    fn the_signature_is_the_hmac_of_time_dot_body() {
        // Reference value from `printf '1700000000.{}' | openssl dgst -sha256 -hmac secret`.
        assert_eq!(
            signature("secret", 1_700_000_000, "{}"),
            "t=1700000000,v1=b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163"
        );
    }

    #[test]
    fn a_slack_message_says_what_happened_where() {
        let payload = EventPayload {
            organization_id: Uuid::nil(),
            organization_name: "Acme".into(),
            project_id: Uuid::nil(),
            project_name: "shop".into(),
            environment_id: Uuid::nil(),
            environment_name: "production".into(),
            environment_mode: EnvironmentMode::Production,
            service_id: Uuid::nil(),
            service_name: "web".into(),
            service_type: ServiceType::Application,
            application_id: Some(Uuid::nil()),
            action: StatusAction::Restart,
            state: ServiceState::RestartError,
            execution_id: "abc".into(),
            git_commit_id: Some("0123456789abcdef".into()),
        };
        let message = slack_message(WebhookEvent::DeploymentFailure, &payload);
        assert_eq!(
            message["text"],
            ":x: Restart of *web* failed at commit `01234567` — shop › production (PRODUCTION). State RESTART_ERROR, execution `abc`."
        );
    }
}
