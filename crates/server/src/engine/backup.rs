//! Database backups: QUEUED → EXECUTING (the dump, simulated: no database runs here, so the
//! step takes its time and copies nothing) → READY, persisted at each change. A backup the server
//! stopped in the middle of is not trusted: the next start ends it failed, saying so, so that no
//! backup stays in progress; one still queued is taken then.

use std::sync::Arc;

use platform_api::ServiceState;
use uuid::Uuid;

use super::plan::QUEUE_SECONDS;
use super::{retrying, Engine};
use crate::store::backups;

/// Seconds a backup takes at engine speed 1.
pub const BACKUP_SECONDS: f64 = 20.0;

/// Why a backup the server stopped in the middle of failed.
const INTERRUPTED: &str =
    "The server stopped while the backup was being taken: it is incomplete. Take another.";

impl Engine {
    /// Takes the backup `queue_backup`'s transaction wrote, once it has committed.
    pub fn start_backup(self: &Arc<Self>, backup_id: Uuid) {
        if self.is_running() {
            self.spawn_backup(backup_id);
        }
    }

    /// Ends the backups a previous run of the server was taking, and takes those it left queued.
    pub(super) async fn resume_backups(self: &Arc<Self>) -> anyhow::Result<()> {
        for backup in backups::unfinished(&self.db).await? {
            if backup.state == ServiceState::Queued {
                tracing::info!(backup = %backup.id, "taking a queued backup");
                self.spawn_backup(backup.id);
            } else {
                tracing::warn!(backup = %backup.id, "a backup was interrupted by a stop");
                let failed = (true, Some(INTERRUPTED));
                backups::advance(
                    &self.writes,
                    backup.id,
                    ServiceState::DeploymentError,
                    failed,
                )
                .await?;
            }
        }
        Ok(())
    }

    fn spawn_backup(self: &Arc<Self>, backup_id: Uuid) {
        let engine = self.clone();
        tokio::spawn(async move {
            let outcome = retrying(backup_id, |_| engine.take_backup(backup_id)).await;
            if let Err(error) = outcome {
                tracing::error!(backup = %backup_id, %error, "backup broke; giving up");
                let failed = (true, Some("The backup broke off: take another."));
                let given_up = backups::advance(
                    &engine.writes,
                    backup_id,
                    ServiceState::DeploymentError,
                    failed,
                )
                .await;
                if let Err(error) = given_up {
                    // Still unfinished: ended at the next start.
                    tracing::error!(backup = %backup_id, %error, "could not end the backup");
                }
            }
        });
    }

    async fn take_backup(&self, backup_id: Uuid) -> anyhow::Result<()> {
        self.wait(QUEUE_SECONDS).await;
        backups::advance(
            &self.writes,
            backup_id,
            ServiceState::Executing,
            (false, None),
        )
        .await?;
        self.wait(BACKUP_SECONDS).await;
        backups::advance(&self.writes, backup_id, ServiceState::Ready, (true, None)).await?;
        Ok(())
    }
}
