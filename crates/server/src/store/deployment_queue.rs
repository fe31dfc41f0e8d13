//! The actions waiting for a worker, as stored: unfinished deployments without a worker.

use platform_api::{ServiceType, StatusAction};
use sqlx::SqliteExecutor;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::db;
use crate::error::ApiResult;

#[derive(sqlx::FromRow)]
pub struct WaitingInEnvironment {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    /// Stored without hyphens (`Uuid::simple`), which `MaybeId` reads as well.
    #[sqlx(try_from = "db::MaybeId")]
    pub environment_execution_id: Option<Uuid>,
    #[sqlx(try_from = "Hyphenated")]
    pub service_id: Uuid,
    pub kind: ServiceType,
    pub name: String,
    pub action: StatusAction,
    pub triggered_by: String,
    pub origin: String,
}

/// The actions waiting on the environment's services, in the order they were asked for.
pub async fn in_environment<'e>(
    db: impl SqliteExecutor<'e>,
    environment_id: Uuid,
) -> ApiResult<Vec<WaitingInEnvironment>> {
    Ok(sqlx::query_as(
        "SELECT d.id, d.environment_execution_id, d.service_id, s.kind, s.name, d.action,
                d.triggered_by, d.origin
         FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE s.environment_id = ? AND d.finished_at IS NULL AND d.worker_at IS NULL
         ORDER BY d.rowid",
    )
    .bind(environment_id.hyphenated())
    .fetch_all(db)
    .await?)
}

#[derive(sqlx::FromRow)]
pub struct Waiting {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub service_id: Uuid,
    pub kind: ServiceType,
    pub name: String,
    pub action: StatusAction,
    pub sub_action: platform_api::SubAction,
    pub triggered_by: String,
    pub origin: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub ahead: i64,
    pub ahead_in_environment: i64,
    pub busy: i64,
}

/// The service's action waiting for a worker, if any, with what is ahead of it.
pub async fn of_service<'e>(
    db: impl SqliteExecutor<'e>,
    service_id: Uuid,
) -> ApiResult<Vec<Waiting>> {
    // An organization's actions get a worker in the order of their requests (`rowid`): those
    // ahead of it in the organization are its unfinished ones without a worker asked for before.
    // Other organizations' are counted by the engine, which gives each organization its turn.
    Ok(sqlx::query_as(
        "SELECT d.id, d.service_id, s.kind, s.name, d.action, d.sub_action, d.triggered_by,
                d.origin, d.created_at,
                (SELECT COUNT(*) FROM deployments w JOIN services o ON o.id = w.service_id
                 WHERE w.finished_at IS NULL AND w.worker_at IS NULL AND w.rowid < d.rowid
                   AND o.organization_id = s.organization_id) AS ahead,
                (SELECT COUNT(*) FROM deployments w JOIN services o ON o.id = w.service_id
                 WHERE w.finished_at IS NULL AND w.worker_at IS NULL AND w.rowid < d.rowid
                   AND o.environment_id = s.environment_id) AS ahead_in_environment,
                (SELECT COUNT(*) FROM deployments w
                 WHERE w.finished_at IS NULL AND w.worker_at IS NOT NULL) AS busy
         FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE d.service_id = ? AND d.finished_at IS NULL AND d.worker_at IS NULL",
    )
    .bind(service_id.hyphenated())
    .fetch_all(db)
    .await?)
}
