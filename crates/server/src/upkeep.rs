//! What the server does in the background so that its data folder does not grow without end:
//! audit entries past their retention deleted (in small batches, each its own short write), and
//! the write-ahead log checkpointed and truncated (SQLite's own checkpoints copy it into the
//! database but never shrink the file).

use std::time::Duration;

use chrono::Utc;
use sqlx::SqlitePool;

use crate::db;

/// How many entries one write deletes: a short hold of the write lock each.
const DELETED_PER_WRITE: i64 = 1000;

/// What one round of upkeep did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Done {
    pub audit_entries_deleted: u64,
    /// Whether the write-ahead log was emptied (no reader held it).
    pub log_truncated: bool,
}

/// One round: the audit entries older than `retention` (none when `None`), then the log.
pub async fn once(db: &SqlitePool, retention: Option<Duration>) -> anyhow::Result<Done> {
    let mut done = Done::default();
    if let Some(retention) = retention {
        let before = Utc::now() - chrono::Duration::from_std(retention)?;
        let before = before.timestamp_nanos_opt().unwrap_or(i64::MIN);
        loop {
            let mut tx = db::begin_write(db)
                .await
                .map_err(|error| anyhow::anyhow!("{error:?}"))?;
            let deleted = sqlx::query(
                "DELETE FROM audit_events WHERE id IN
                     (SELECT id FROM audit_events WHERE at_nanos < ? LIMIT ?)",
            )
            .bind(before)
            .bind(DELETED_PER_WRITE)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            tx.commit().await?;
            done.audit_entries_deleted += deleted;
            if deleted < DELETED_PER_WRITE as u64 {
                break;
            }
        }
    }
    // The first of the checkpoint's three columns: 1 when a reader kept it from finishing.
    let busy: i64 = sqlx::query_scalar("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(db)
        .await?;
    done.log_truncated = busy == 0;
    Ok(done)
}

/// Runs `once` every `every`, logging what it did and what failed (it tries again next round).
pub fn start(db: SqlitePool, retention: Option<Duration>, every: Duration) {
    tokio::spawn(async move {
        let mut rounds = tokio::time::interval(every);
        rounds.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            rounds.tick().await;
            match once(&db, retention).await {
                Ok(done) if done.audit_entries_deleted > 0 => tracing::info!(
                    deleted = done.audit_entries_deleted,
                    "audit entries past their retention deleted"
                ),
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "upkeep failed; tried again next round"),
            }
        }
    });
}
