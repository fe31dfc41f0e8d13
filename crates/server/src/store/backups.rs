//! A database's backups as stored: what was asked, and how far the engine took it.

use chrono::{DateTime, Utc};
use platform_api::ServiceState;
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

/// A backup's row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Row {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub database_id: Uuid,
    pub name: String,
    pub message: String,
    pub state: ServiceState,
    /// Why it failed, when it did.
    pub failure: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str =
    "id, database_id, name, message, state, failure, created_at, updated_at, started_at, finished_at";

/// At most this many backups a page lists.
pub const PAGE_SIZE: i64 = 100;

/// The database's backups, newest first: the first page, or the one after the backup `after`.
pub async fn of_database<'e>(
    db: impl SqliteExecutor<'e>,
    database_id: Uuid,
    after: Option<Uuid>,
) -> sqlx::Result<Vec<Row>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM database_backups WHERE database_id = ?
           AND (? IS NULL OR created_at < (SELECT created_at FROM database_backups WHERE id = ?))
         ORDER BY created_at DESC LIMIT ?"
    ))
    .bind(database_id.hyphenated())
    .bind(after.map(|id| id.hyphenated()))
    .bind(after.map(|id| id.hyphenated()))
    .bind(PAGE_SIZE)
    .fetch_all(db)
    .await
}

pub async fn find<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> sqlx::Result<Option<Row>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM database_backups WHERE id = ?"
    ))
    .bind(id.hyphenated())
    .fetch_optional(db)
    .await
}

/// Whether a backup of the database is queued or being taken.
pub async fn one_unfinished(conn: &mut SqliteConnection, database_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM database_backups WHERE database_id = ? AND finished_at IS NULL)",
    )
    .bind(database_id.hyphenated())
    .fetch_one(conn)
    .await
}

/// The backups a previous run of the server left unfinished.
pub async fn unfinished<'e>(db: impl SqliteExecutor<'e>) -> sqlx::Result<Vec<Row>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM database_backups WHERE finished_at IS NULL ORDER BY created_at"
    ))
    .fetch_all(db)
    .await
}

pub async fn insert(conn: &mut SqliteConnection, row: &Row) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO database_backups (id, database_id, name, message, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(row.id.hyphenated())
    .bind(row.database_id.hyphenated())
    .bind(&row.name)
    .bind(&row.message)
    .bind(row.state)
    .bind(row.created_at)
    .execute(conn)
    .await
    .map(drop)
}

/// The backup reached `state`; `finished` when that ends it (`failure` says why it failed).
pub async fn advance<'e>(
    db: impl SqliteExecutor<'e>,
    id: Uuid,
    state: ServiceState,
    (finished, failure): (bool, Option<&str>),
) -> sqlx::Result<()> {
    let now = Utc::now();
    sqlx::query(
        "UPDATE database_backups SET state = ?, failure = ?, updated_at = ?,
            started_at = CASE WHEN ? THEN ? ELSE started_at END,
            finished_at = CASE WHEN ? THEN ? ELSE NULL END
         WHERE id = ?",
    )
    .bind(state)
    .bind(failure)
    .bind(now)
    .bind(state == ServiceState::Executing)
    .bind(now)
    .bind(finished)
    .bind(now)
    .bind(id.hyphenated())
    .execute(db)
    .await
    .map(drop)
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM database_backups WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await
        .map(drop)
}
