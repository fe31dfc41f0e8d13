//! The SQLite database: opened with foreign keys on and WAL journaling, migrated on start.

use std::ffi::{c_char, c_int, c_void};
use std::path::Path;
use std::ptr::NonNull;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

/// How many transactions have written to the database since the server started, on any
/// connection of `open` or `writer`. Counted once each commit has landed (SQLite's write-ahead
/// log hook, called after the commit is in the log and its lock released): an answer read after
/// noting the count holds every commit counted so far, so it stays true while the count stands.
/// SQLite's commit hook, called before the commit lands, would let a read racing a commit keep
/// what the commit changed.
#[derive(Clone, Default)]
pub struct Commits(Arc<AtomicU64>);

impl Commits {
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    #[cfg(test)]
    pub fn committed(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }

    /// The pool options that count the commits of each of the pool's connections;
    /// `connected` is told of each connection opened (it goes to whoever asked for one).
    fn counted(
        &self,
        pool: SqlitePoolOptions,
        connected: impl Fn() + Send + Sync + 'static,
    ) -> SqlitePoolOptions {
        let commits = self.clone();
        // A connection to a local file does not go stale: no ping (a round trip to SQLite's
        // thread) before each use.
        pool.test_before_acquire(false)
            .after_connect(move |connection, _| {
                connected();
                let commits = commits.clone();
                Box::pin(async move {
                    let mut handle = connection.lock_handle().await?;
                    count_landed_commits(handle.as_raw_handle(), &commits.0);
                    Ok(())
                })
            })
    }
}

/// The write-ahead log's size, in pages, past which a commit checkpoints it: SQLite's own
/// default, which a hook of ours replaces.
const AUTOCHECKPOINT_PAGES: c_int = 1000;

/// Counts in `count` each commit of `database` once it has landed.
fn count_landed_commits(database: NonNull<libsqlite3_sys::sqlite3>, count: &Arc<AtomicU64>) {
    unsafe extern "C" fn landed(
        count: *mut c_void,
        database: *mut libsqlite3_sys::sqlite3,
        name: *const c_char,
        pages: c_int,
    ) -> c_int {
        // SAFETY: `count` is the counter leaked below, never freed.
        let count = unsafe { &*(count as *const AtomicU64) };
        count.fetch_add(1, Ordering::AcqRel);
        // What SQLite's default hook does. A checkpoint that cannot finish now (a reader holds
        // the log) is finished by a later one.
        if pages >= AUTOCHECKPOINT_PAGES {
            // SAFETY: the connection and the database's name SQLite passed to the hook.
            unsafe { libsqlite3_sys::sqlite3_wal_checkpoint(database, name) };
        }
        libsqlite3_sys::SQLITE_OK
    }
    // The hook may run as long as the connection lives, which the pool decides: the counter is
    // kept for it (one reference to the counter, not a copy, per connection opened).
    let count = Arc::into_raw(Arc::clone(count)) as *mut c_void;
    // SAFETY: the handle is locked for us (no other call on it meanwhile); `landed` matches the
    // hook's signature.
    unsafe { libsqlite3_sys::sqlite3_wal_hook(database.as_ptr(), Some(landed), count) };
}

pub async fn open(path: &Path, commits: &Commits, busy: Duration) -> anyhow::Result<SqlitePool> {
    owner_only(path)?;
    let pool = commits
        .counted(SqlitePoolOptions::new().max_connections(8), || {})
        .connect_with(options(path, busy)?)
        .await?;
    // Commits are counted by the write-ahead log's hook (`Commits`): without the log, answers
    // kept in memory would never learn of a change.
    let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&pool)
        .await?;
    anyhow::ensure!(
        journal == "wal",
        "SQLite could not keep {} in WAL mode (journal mode {journal}); put it on a local disk",
        path.display()
    );
    sqlx::migrate!("./migrations").run(&pool).await?;
    Ok(pool)
}

/// One connection to the database `open` made, for every write. SQLite takes one writer at a
/// time: writers queued here in turn (first asked, first served) wait less than writers
/// contending for its lock, whose busy handler sleeps between tries and lets a later one through
/// first. A writer waiting longer than `busy` fails (`ApiError::busy`). How long the connection
/// is held is watched (`WriteLock`).
pub async fn writer(
    path: &Path,
    commits: &Commits,
    busy: Duration,
) -> anyhow::Result<(SqlitePool, Arc<WriteLock>)> {
    let lock = Arc::new(WriteLock::default());
    let (taken, fresh, released) = (lock.clone(), lock.clone(), lock.clone());
    let pool = commits
        .counted(
            SqlitePoolOptions::new()
                .max_connections(1)
                .acquire_timeout(busy),
            move || fresh.taken(),
        )
        .before_acquire(move |_, _| {
            taken.taken();
            Box::pin(async { Ok(true) })
        })
        .after_release(move |_, _| {
            released.released();
            Box::pin(async { Ok(true) })
        })
        .connect_with(options(path, busy)?)
        .await?;
    // The check `connect_with` made held the connection: not a writer.
    lock.released();
    Ok((pool, lock))
}

/// A write holding the writer longer than this is logged: every other write waits meanwhile.
pub const WRITE_HELD_LONG: Duration = Duration::from_secs(1);

/// Who holds the one writer connection, and since when: so that a write holding it long is
/// logged, and `/readyz` says so while it lasts (a server whose writes all wait is not ready).
#[derive(Debug)]
pub struct WriteLock {
    started: std::time::Instant,
    /// Milliseconds from `started` to when the writer was taken, plus one; 0 while it is free.
    taken_at: AtomicU64,
}

impl Default for WriteLock {
    fn default() -> Self {
        Self {
            started: std::time::Instant::now(),
            taken_at: AtomicU64::new(0),
        }
    }
}

impl WriteLock {
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64 + 1
    }

    fn taken(&self) {
        self.taken_at.store(self.now(), Ordering::Release);
    }

    fn released(&self) {
        let taken_at = self.taken_at.swap(0, Ordering::AcqRel);
        if taken_at == 0 {
            return;
        }
        let held = Duration::from_millis(self.now().saturating_sub(taken_at));
        if held >= WRITE_HELD_LONG {
            tracing::warn!(
                held_ms = held.as_millis() as u64,
                "a write held the database's writer long: every other write waited meanwhile"
            );
        }
    }

    /// How long the writer has been held by the write holding it now; `None` while it is free.
    pub fn held_for(&self) -> Option<Duration> {
        match self.taken_at.load(Ordering::Acquire) {
            0 => None,
            taken_at => Some(Duration::from_millis(self.now().saturating_sub(taken_at))),
        }
    }
}

/// How long a statement waits for another connection's write lock before it fails (and its
/// request answers 503, `ApiError::busy`), unless the server is started with another.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

fn options(path: &Path, busy: Duration) -> anyhow::Result<SqliteConnectOptions> {
    Ok(
        SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(busy),
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

/// An id column that may be NULL, read as `Option<Uuid>`: a row's field
/// `#[sqlx(try_from = "db::MaybeId")] target_id: Option<Uuid>`. Ids are stored as their
/// hyphenated text (`Uuid::hyphenated()` binds them, `Hyphenated` reads them).
pub struct MaybeId(Option<uuid::Uuid>);

impl sqlx::Type<sqlx::Sqlite> for MaybeId {
    fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
        <uuid::fmt::Hyphenated as sqlx::Type<sqlx::Sqlite>>::type_info()
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for MaybeId {
    fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        use sqlx::ValueRef;
        if value.is_null() {
            return Ok(MaybeId(None));
        }
        let id = <uuid::fmt::Hyphenated as sqlx::Decode<sqlx::Sqlite>>::decode(value)?;
        Ok(MaybeId(Some(id.into_uuid())))
    }
}

impl From<MaybeId> for Option<uuid::Uuid> {
    fn from(id: MaybeId) -> Self {
        id.0
    }
}

/// A transaction that holds SQLite's write lock from its start, so that its reads and its writes
/// see one state of the database (a transaction that read first could not write after another
/// writer committed: SQLITE_BUSY_SNAPSHOT, which no timeout waits out).
pub async fn begin_write(
    pool: &SqlitePool,
) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, crate::error::ApiError> {
    Ok(pool.begin_with("BEGIN IMMEDIATE").await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn database() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("platform.db");
        (dir, path)
    }

    /// A read begun after noting the count sees every commit counted: counted as a commit
    /// starts (SQLite's commit hook), the count ran ahead of what reads saw, and an answer kept
    /// at that count missed the commit for good.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_see_every_commit_counted_before_them() {
        let (_dir, path) = database().await;
        let commits = Commits::default();
        let reads = open(&path, &commits, BUSY_TIMEOUT).await.unwrap();
        let (writes, _) = writer(&path, &commits, BUSY_TIMEOUT).await.unwrap();
        sqlx::query("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
            .execute(&writes)
            .await
            .unwrap();
        let before = commits.count();
        let writing = tokio::spawn(async move {
            for _ in 0..2_000 {
                sqlx::query("UPDATE counter SET n = n + 1")
                    .execute(&writes)
                    .await
                    .unwrap();
            }
        });
        let mut reads_made = 0;
        while !writing.is_finished() {
            let counted = commits.count() - before;
            let seen: i64 = sqlx::query_scalar("SELECT n FROM counter")
                .fetch_one(&reads)
                .await
                .unwrap();
            assert!(
                seen as u64 >= counted,
                "{counted} commits counted, {seen} seen"
            );
            reads_made += 1;
        }
        writing.await.unwrap();
        assert_eq!(commits.count() - before, 2_000, "each commit counted once");
        assert!(
            reads_made > 100,
            "the reads raced the writes ({reads_made} reads)"
        );
    }

    /// The hook that counts commits takes the place of SQLite's own, which checkpoints the log
    /// once it holds 1,000 pages: ours does too, or the log would grow without end.
    #[tokio::test]
    async fn the_write_ahead_log_is_still_checkpointed() {
        let (_dir, path) = database().await;
        let commits = Commits::default();
        let (writes, _) = writer(&path, &commits, BUSY_TIMEOUT).await.unwrap();
        sqlx::query("CREATE TABLE blobs (b BLOB NOT NULL)")
            .execute(&writes)
            .await
            .unwrap();
        // About 3 pages a commit: 4,500 pages, 18 MB of log if it were never checkpointed.
        for _ in 0..1_500 {
            sqlx::query("INSERT INTO blobs VALUES (randomblob(8000))")
                .execute(&writes)
                .await
                .unwrap();
        }
        let log = std::fs::metadata(format!("{}-wal", path.display()))
            .unwrap()
            .len();
        assert!(log < 8_000_000, "the log holds {log} bytes");
    }
}
