//! The SQLite database: opened with foreign keys on and WAL journaling, migrated on start.

use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub async fn open(path: &Path) -> anyhow::Result<SqlitePool> {
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
        .create_if_missing(true)
        .foreign_keys(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(std::time::Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await?;
    sqlx::migrate!("./migrations").run(&pool).await?;
    Ok(pool)
}

/// Parses an id stored as text; a malformed one is a corrupted row, reported as internal.
pub fn id(text: &str) -> Result<uuid::Uuid, crate::error::ApiError> {
    text.parse().map_err(crate::error::ApiError::internal)
}

/// Parses an enumeration value stored as text.
pub fn wire<T: FromStr>(text: &str) -> Result<T, crate::error::ApiError>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(crate::error::ApiError::internal)
}
