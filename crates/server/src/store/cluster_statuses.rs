//! What the engine last did with each cluster, and its lock, as stored.

use chrono::{DateTime, Utc};
use platform_api::{ClusterLock, ClusterState};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

#[derive(sqlx::FromRow)]
pub struct StatusRow {
    pub status: ClusterState,
    pub is_deployed: bool,
    pub last_execution_id: Option<String>,
    pub lock: Option<ClusterLock>,
    pub last_deployment_date: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct StoredRow {
    status: ClusterState,
    is_deployed: bool,
    last_execution_id: Option<String>,
    lock: Option<String>,
    last_deployment_date: Option<DateTime<Utc>>,
}

/// The cluster's status: READY and not deployed until the engine works on it.
pub async fn find<'e>(db: impl SqliteExecutor<'e>, cluster_id: Uuid) -> ApiResult<StatusRow> {
    let row: Option<StoredRow> = sqlx::query_as(
        "SELECT status, is_deployed, last_execution_id, lock, last_deployment_date
         FROM cluster_statuses WHERE cluster_id = ?",
    )
    .bind(cluster_id.hyphenated())
    .fetch_optional(db)
    .await?;
    let Some(row) = row else {
        return Ok(StatusRow {
            status: ClusterState::Ready,
            is_deployed: false,
            last_execution_id: None,
            lock: None,
            last_deployment_date: None,
        });
    };
    Ok(StatusRow {
        status: row.status,
        is_deployed: row.is_deployed,
        last_execution_id: row.last_execution_id,
        lock: row.lock.as_deref().map(lock_of).transpose()?,
        last_deployment_date: row.last_deployment_date,
    })
}

/// The locks on the organization's clusters, by cluster name, whether their days are over or not.
pub async fn locks<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
) -> ApiResult<Vec<ClusterLock>> {
    let locks: Vec<String> = sqlx::query_scalar(
        "SELECT s.lock FROM cluster_statuses s JOIN organization_resources c ON c.id = s.cluster_id
         WHERE c.organization_id = ? AND s.lock IS NOT NULL ORDER BY c.name",
    )
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await?;
    locks.iter().map(|json| lock_of(json)).collect()
}

/// Locks the cluster, or unlocks it (`None`).
pub async fn set_lock(
    db: &mut SqliteConnection,
    cluster_id: Uuid,
    lock: Option<&ClusterLock>,
) -> ApiResult<()> {
    let json = lock
        .map(|lock| serde_json::to_string(lock).map_err(ApiError::internal))
        .transpose()?;
    sqlx::query(
        "INSERT INTO cluster_statuses (cluster_id, status, lock) VALUES (?, ?, ?)
         ON CONFLICT (cluster_id) DO UPDATE SET lock = excluded.lock",
    )
    .bind(cluster_id.hyphenated())
    .bind(ClusterState::Ready)
    .bind(json)
    .execute(db)
    .await?;
    Ok(())
}

fn lock_of(json: &str) -> ApiResult<ClusterLock> {
    serde_json::from_str(json).map_err(ApiError::internal)
}
