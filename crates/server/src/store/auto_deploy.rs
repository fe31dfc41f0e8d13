//! Auto-deploy as stored: each service's deployment restrictions, the watch of its branch, and
//! the pushes the watch acted on.

use chrono::{DateTime, Utc};
use platform_api::{
    DeploymentRestriction, DeploymentRestrictionMode, DeploymentRestrictionRequest,
    DeploymentRestrictionType, Push, PushOutcome,
};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

/// How many pushes of a service are kept: the newest.
pub const PUSHES_KEPT: i64 = 20;

#[derive(sqlx::FromRow)]
struct RestrictionRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    mode: DeploymentRestrictionMode,
    kind: DeploymentRestrictionType,
    value: String,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

impl From<RestrictionRow> for DeploymentRestriction {
    fn from(row: RestrictionRow) -> Self {
        DeploymentRestriction {
            id: row.id,
            created_at: row.created_at,
            updated_at: row.updated_at,
            rule: DeploymentRestrictionRequest {
                mode: row.mode,
                kind: row.kind,
                value: row.value,
            },
        }
    }
}

const COLUMNS: &str = "id, mode, kind, value, created_at, updated_at";

/// The service's restrictions, in the order they were added.
pub async fn restrictions<'e>(
    db: impl SqliteExecutor<'e>,
    service_id: Uuid,
) -> sqlx::Result<Vec<DeploymentRestriction>> {
    let rows: Vec<RestrictionRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM deployment_restrictions WHERE service_id = ?
         ORDER BY created_at, id"
    ))
    .bind(service_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}

/// The service's restriction with this id, or 404.
pub async fn restriction<'e>(
    db: impl SqliteExecutor<'e>,
    service_id: Uuid,
    id: Uuid,
) -> ApiResult<DeploymentRestriction> {
    let row: Option<RestrictionRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM deployment_restrictions WHERE id = ? AND service_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(service_id.hyphenated())
    .fetch_optional(db)
    .await?;
    row.map(Into::into)
        .ok_or_else(|| ApiError::not_found("deployment restriction"))
}

/// Stores a restriction of the service, new or changed; 409 when the service has the same one.
pub async fn save_restriction(
    conn: &mut SqliteConnection,
    service_id: Uuid,
    restriction: &DeploymentRestriction,
) -> ApiResult<()> {
    let rule = &restriction.rule;
    sqlx::query(
        "INSERT INTO deployment_restrictions (id, service_id, mode, kind, value, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, kind = excluded.kind,
             value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(restriction.id.hyphenated())
    .bind(service_id.hyphenated())
    .bind(rule.mode)
    .bind(rule.kind)
    .bind(&rule.value)
    .bind(restriction.created_at)
    .bind(restriction.updated_at)
    .execute(conn)
    .await
    .on_unique_violation("value", "deployment restriction")?;
    Ok(())
}

pub async fn delete_restriction(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    sqlx::query("DELETE FROM deployment_restrictions WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// What the watch of a service's branch last read.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Watch {
    pub branch: String,
    pub seen_commit_id: String,
    pub candidate_commit_id: Option<String>,
    /// When `seen_commit_id` was read first.
    pub seen_at: DateTime<Utc>,
}

pub async fn watch<'e>(
    db: impl SqliteExecutor<'e>,
    service_id: Uuid,
) -> sqlx::Result<Option<Watch>> {
    sqlx::query_as(
        "SELECT branch, seen_commit_id, candidate_commit_id, seen_at FROM git_watches
         WHERE service_id = ?",
    )
    .bind(service_id.hyphenated())
    .fetch_optional(db)
    .await
}

pub async fn save_watch(
    conn: &mut SqliteConnection,
    service_id: Uuid,
    watch: &Watch,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO git_watches (service_id, branch, seen_commit_id, candidate_commit_id, seen_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (service_id) DO UPDATE SET branch = excluded.branch,
             seen_commit_id = excluded.seen_commit_id,
             candidate_commit_id = excluded.candidate_commit_id, seen_at = excluded.seen_at",
    )
    .bind(service_id.hyphenated())
    .bind(&watch.branch)
    .bind(&watch.seen_commit_id)
    .bind(&watch.candidate_commit_id)
    .bind(watch.seen_at)
    .execute(conn)
    .await
    .map(drop)
}

#[derive(sqlx::FromRow)]
struct PushRow {
    git_commit_id: String,
    message: String,
    author_name: String,
    seen_at: DateTime<Utc>,
    outcome: PushOutcome,
    reason: Option<String>,
    execution_id: Option<String>,
}

/// The service's latest pushes, newest first.
pub async fn pushes<'e>(db: impl SqliteExecutor<'e>, service_id: Uuid) -> sqlx::Result<Vec<Push>> {
    let rows: Vec<PushRow> = sqlx::query_as(
        "SELECT git_commit_id, message, author_name, seen_at, outcome, reason, execution_id
         FROM git_pushes WHERE service_id = ? ORDER BY id DESC LIMIT ?",
    )
    .bind(service_id.hyphenated())
    .bind(PUSHES_KEPT)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| Push {
            git_commit_id: row.git_commit_id,
            message: row.message,
            author_name: row.author_name,
            seen_at: row.seen_at,
            outcome: row.outcome,
            reason: row.reason,
            execution_id: row.execution_id,
        })
        .collect())
}

/// Records a push the watch acted on, and forgets the service's pushes past `PUSHES_KEPT`.
pub async fn record_push(
    conn: &mut SqliteConnection,
    service_id: Uuid,
    push: &Push,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO git_pushes (service_id, git_commit_id, message, author_name, seen_at, outcome, reason, execution_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(service_id.hyphenated())
    .bind(&push.git_commit_id)
    .bind(&push.message)
    .bind(&push.author_name)
    .bind(push.seen_at)
    .bind(push.outcome)
    .bind(&push.reason)
    .bind(&push.execution_id)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "DELETE FROM git_pushes WHERE service_id = ? AND id NOT IN
             (SELECT id FROM git_pushes WHERE service_id = ? ORDER BY id DESC LIMIT ?)",
    )
    .bind(service_id.hyphenated())
    .bind(service_id.hyphenated())
    .bind(PUSHES_KEPT)
    .execute(conn)
    .await
    .map(drop)
}
