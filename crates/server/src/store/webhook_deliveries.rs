//! What was sent to a webhook, as stored: its deliveries and their attempts.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use platform_api::{DeliveryAttempt, DeliveryStatus, WebhookEvent};
use sqlx::SqliteExecutor;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

/// A delivery with its latest attempt, as read.
#[derive(sqlx::FromRow)]
pub struct SentRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub event_type: WebhookEvent,
    pub payload: String,
    pub attempted_at: DateTime<Utc>,
    pub status_code: Option<i32>,
    pub error: Option<String>,
}

/// The webhook's latest `limit` deliveries, newest first, each with its latest attempt.
pub async fn latest<'e>(
    db: impl SqliteExecutor<'e>,
    webhook_id: Uuid,
    limit: i64,
) -> ApiResult<Vec<SentRow>> {
    Ok(sqlx::query_as(
        "SELECT d.id, d.event_type, d.payload, a.attempted_at, a.status_code, a.error
         FROM webhook_deliveries d
         JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
             AND a.attempt = (SELECT MAX(attempt) FROM webhook_delivery_attempts
                              WHERE delivery_id = d.id)
         WHERE d.webhook_id = ?
         ORDER BY d.created_at DESC, d.rowid DESC LIMIT ?",
    )
    .bind(webhook_id.hyphenated())
    .bind(limit)
    .fetch_all(db)
    .await?)
}

/// A stored delivery, as read.
#[derive(sqlx::FromRow)]
pub struct DeliveryRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub event_type: WebhookEvent,
    pub payload: String,
    pub status: DeliveryStatus,
    pub outcome: Option<String>,
    pub created_at: DateTime<Utc>,
    pub next_attempt_at: Option<i64>,
}

/// A stored attempt, as read.
#[derive(sqlx::FromRow)]
pub struct AttemptRow {
    #[sqlx(try_from = "Hyphenated")]
    pub delivery_id: Uuid,
    pub attempt: u32,
    pub attempted_at: DateTime<Utc>,
    pub status_code: Option<u16>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

/// The webhook's latest `limit` deliveries, newest first.
pub async fn deliveries<'e>(
    db: impl SqliteExecutor<'e>,
    webhook_id: Uuid,
    limit: i64,
) -> ApiResult<Vec<DeliveryRow>> {
    Ok(sqlx::query_as(
        "SELECT id, event_type, payload, status, outcome, created_at, next_attempt_at
         FROM webhook_deliveries WHERE webhook_id = ?
         ORDER BY created_at DESC, rowid DESC LIMIT ?",
    )
    .bind(webhook_id.hyphenated())
    .bind(limit)
    .fetch_all(db)
    .await?)
}

/// The attempts of the webhook's latest `limit` deliveries, oldest first, by delivery.
pub async fn attempts_by_delivery<'e>(
    db: impl SqliteExecutor<'e>,
    webhook_id: Uuid,
    limit: i64,
) -> ApiResult<HashMap<Uuid, Vec<DeliveryAttempt>>> {
    let rows: Vec<AttemptRow> = sqlx::query_as(
        "SELECT delivery_id, attempt, attempted_at, status_code, duration_ms, error
         FROM webhook_delivery_attempts
         WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = ?
                               ORDER BY created_at DESC, rowid DESC LIMIT ?)
         ORDER BY attempt",
    )
    .bind(webhook_id.hyphenated())
    .bind(limit)
    .fetch_all(db)
    .await?;
    let mut attempts: HashMap<Uuid, Vec<DeliveryAttempt>> = HashMap::new();
    for row in rows {
        attempts
            .entry(row.delivery_id)
            .or_default()
            .push(DeliveryAttempt {
                attempt: row.attempt,
                attempted_at: row.attempted_at,
                status_code: row.status_code,
                duration_ms: u64::try_from(row.duration_ms).map_err(ApiError::internal)?,
                error: row.error,
            });
    }
    Ok(attempts)
}
