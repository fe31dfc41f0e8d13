//! The SQLite database: opened with foreign keys on and WAL journaling, migrated on start.

use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

/// How many transactions have written to the database since the server started, on any
/// connection of `open` or `writer` (SQLite's commit hook, called as each one commits).
#[derive(Clone, Default)]
pub struct Commits(Arc<AtomicU64>);

impl Commits {
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    pub fn committed(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }

    /// The pool options that count the commits of each of the pool's connections.
    fn counted(&self, pool: SqlitePoolOptions) -> SqlitePoolOptions {
        let commits = self.clone();
        // A connection to a local file does not go stale: no ping (a round trip to SQLite's
        // thread) before each use.
        pool.test_before_acquire(false)
            .after_connect(move |connection, _| {
                let commits = commits.clone();
                Box::pin(async move {
                    connection.lock_handle().await?.set_commit_hook(move || {
                        commits.committed();
                        true
                    });
                    Ok(())
                })
            })
    }
}

pub async fn open(path: &Path, commits: &Commits) -> anyhow::Result<SqlitePool> {
    owner_only(path)?;
    let pool = commits
        .counted(SqlitePoolOptions::new().max_connections(8))
        .connect_with(options(path)?)
        .await?;
    sqlx::migrate!("./migrations").run(&pool).await?;
    Ok(pool)
}

/// One connection to the database `open` made, for the engine's writes. SQLite takes one writer
/// at a time: writers queued here in turn wait less than writers contending for its lock, whose
/// busy handler sleeps between tries.
pub async fn writer(path: &Path, commits: &Commits) -> anyhow::Result<SqlitePool> {
    Ok(commits
        .counted(SqlitePoolOptions::new().max_connections(1))
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

/// A transaction that holds SQLite's write lock from its start, so that its reads and its writes
/// see one state of the database (a transaction that read first could not write after another
/// writer committed: SQLITE_BUSY_SNAPSHOT, which no timeout waits out).
pub async fn begin_write(
    pool: &SqlitePool,
) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, crate::error::ApiError> {
    Ok(pool.begin_with("BEGIN IMMEDIATE").await?)
}
