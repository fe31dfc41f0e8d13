//! Webhook events (spec 6). An event is written in the same transaction as the state change that
//! fires it, one row per webhook that wants it; `delivery` sends the rows and retries them. So an
//! event is never lost to a restart, and never sent for a change that was rolled back. An alert's
//! notices to its receivers are rows of the same kind, sent by the same worker.

pub mod delivery;

use chrono::{DateTime, Utc};
use platform_api::{
    EnvironmentMode, EventPayload, ServiceState, ServiceType, StatusAction, Webhook, WebhookEvent,
};
use sqlx::{Sqlite, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

/// Records `event` of the action `deployment_id`, which left its service in `state`, for every
/// webhook of the organization that wants it; returns how many deliveries it recorded.
pub async fn emit(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    event: WebhookEvent,
    state: ServiceState,
) -> anyhow::Result<usize> {
    #[derive(sqlx::FromRow)]
    struct Stored {
        #[sqlx(try_from = "Hyphenated")]
        id: Uuid,
        record: String,
    }
    let webhooks: Vec<Stored> = sqlx::query_as(
        "SELECT r.id, r.record FROM deployments d
         JOIN services s ON s.id = d.service_id
         JOIN organization_resources r ON r.organization_id = s.organization_id AND r.kind = ?
         WHERE d.id = ?",
    )
    .bind(crate::store::organization_resources::WEBHOOKS.stored_as)
    .bind(deployment_id.hyphenated())
    .fetch_all(&mut **tx)
    .await?;
    if webhooks.is_empty() {
        return Ok(0);
    }
    let payload = payload(tx, deployment_id, state).await?;
    let body = serde_json::to_string(&payload)?;
    let now = Utc::now();
    let mut recorded = 0;
    for stored in webhooks {
        let webhook: Webhook = serde_json::from_str(&stored.record)?;
        if !webhook.wants(event, &payload.project_name, payload.environment_mode) {
            continue;
        }
        record_delivery(&mut **tx, Uuid::new_v4(), stored.id, event, &body, now).await?;
        recorded += 1;
    }
    Ok(recorded)
}

/// Records one delivery of `event` to a webhook, due at once; `delivery` sends it.
pub async fn record_delivery<'e>(
    executor: impl sqlx::Executor<'e, Database = Sqlite>,
    id: Uuid,
    webhook_id: Uuid,
    event: WebhookEvent,
    body: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO webhook_deliveries (id, webhook_id, event_type, payload, status, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, 'PENDING', ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(webhook_id.hyphenated())
    .bind(event)
    .bind(body)
    .bind(now)
    .bind(now.timestamp_millis())
    .execute(executor)
    .await?;
    Ok(())
}

/// What a delivery to an alert receiver carries in `event_type`: it is no webhook event.
pub const ALERT: &str = "ALERT";

/// Records a notice to an alert receiver, due at once: the worker that delivers webhook events
/// sends it too, the receiver's address checked at each attempt, retried as they are.
pub async fn record_notice<'e>(
    executor: impl sqlx::Executor<'e, Database = Sqlite>,
    id: Uuid,
    receiver_id: Uuid,
    notice: &crate::notify::Notice,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO webhook_deliveries (id, webhook_id, event_type, payload, status, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, 'PENDING', ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(receiver_id.hyphenated())
    .bind(ALERT)
    .bind(serde_json::to_string(notice)?)
    .bind(now)
    .bind(now.timestamp_millis())
    .execute(executor)
    .await?;
    Ok(())
}

/// Who the event is about: the service of the action and everything it belongs to.
async fn payload(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    state: ServiceState,
) -> anyhow::Result<EventPayload> {
    #[derive(sqlx::FromRow)]
    struct Row {
        organization_id: String,
        organization_name: String,
        project_id: String,
        project_name: String,
        environment_id: String,
        environment_name: String,
        environment_mode: String,
        service_id: String,
        service_name: String,
        service_type: String,
        action: String,
        execution_id: String,
        git_commit_id: Option<String>,
    }
    let row: Row = sqlx::query_as(
        "SELECT o.id AS organization_id, o.name AS organization_name,
                p.id AS project_id, p.name AS project_name,
                e.id AS environment_id, e.name AS environment_name, e.mode AS environment_mode,
                s.id AS service_id, s.name AS service_name, s.kind AS service_type,
                d.action, d.execution_id, d.git_commit_id
         FROM deployments d
         JOIN services s ON s.id = d.service_id
         JOIN environments e ON e.id = s.environment_id
         JOIN projects p ON p.id = e.project_id
         JOIN organizations o ON o.id = p.organization_id
         WHERE d.id = ?",
    )
    .bind(deployment_id.hyphenated())
    .fetch_one(&mut **tx)
    .await?;
    let service_id: Uuid = row.service_id.parse()?;
    let service_type: ServiceType = row.service_type.parse()?;
    Ok(EventPayload {
        organization_id: row.organization_id.parse()?,
        organization_name: row.organization_name,
        project_id: row.project_id.parse()?,
        project_name: row.project_name,
        environment_id: row.environment_id.parse()?,
        environment_name: row.environment_name,
        environment_mode: row.environment_mode.parse::<EnvironmentMode>()?,
        service_id,
        service_name: row.service_name,
        service_type,
        application_id: (service_type == ServiceType::Application).then_some(service_id),
        action: row.action.parse::<StatusAction>()?,
        state,
        execution_id: row.execution_id,
        git_commit_id: row.git_commit_id,
    })
}
