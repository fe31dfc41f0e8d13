//! The SQLite database: opened with foreign keys on and WAL journaling, migrated on start.

use std::path::Path;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub async fn open(path: &Path) -> anyhow::Result<SqlitePool> {
    owner_only(path)?;
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options(path)?)
        .await?;
    sqlx::migrate!("./migrations").run(&pool).await?;
    Ok(pool)
}

/// One connection to the database `open` made, for the engine's writes. SQLite takes one writer
/// at a time: writers queued here in turn wait less than writers contending for its lock, whose
/// busy handler sleeps between tries.
pub async fn writer(path: &Path) -> anyhow::Result<SqlitePool> {
    Ok(SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options(path)?)
        .await?)
}

fn options(path: &Path) -> anyhow::Result<SqliteConnectOptions> {
    Ok(
        SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(10)),
    )
}

/// The database readable by the server's user only: created so, or made so when an earlier
/// version left it readable by others. SQLite gives its -wal and -shm files the same mode.
fn owner_only(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)?;
    for suffix in ["", "-wal", "-shm"] {
        let file = std::path::PathBuf::from(format!("{}{suffix}", path.display()));
        if file.exists() {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
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
