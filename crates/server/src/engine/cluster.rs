//! Cluster upgrades: DEPLOYMENT_QUEUED → DEPLOYING → DEPLOYED at the next Kubernetes version,
//! persisted so that a restart of the server resumes them.

use std::sync::Arc;

use chrono::Utc;
use platform_api::ClusterState;
use sqlx::SqliteConnection;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::plan::QUEUE_SECONDS;
use super::{retrying, Engine};

/// Seconds an upgrade takes at engine speed 1.
const UPGRADE_SECONDS: f64 = 30.0;

impl Engine {
    /// Queues the upgrade of a cluster to `version` in `conn`; `start_cluster_upgrade` starts it
    /// once that transaction commits. The caller has checked that the cluster may be upgraded.
    pub async fn queue_cluster_upgrade(
        &self,
        conn: &mut SqliteConnection,
        cluster_id: Uuid,
        version: &str,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO cluster_statuses (cluster_id, status, upgrading_to, last_execution_id)
             VALUES (?, ?, ?, ?)
             ON CONFLICT (cluster_id) DO UPDATE SET status = excluded.status,
                 upgrading_to = excluded.upgrading_to, last_execution_id = excluded.last_execution_id",
        )
        .bind(cluster_id.hyphenated())
        .bind(ClusterState::DeploymentQueued)
        .bind(version)
        .bind(Uuid::new_v4().simple())
        .execute(conn)
        .await?;
        Ok(())
    }

    pub fn start_cluster_upgrade(self: &Arc<Self>, cluster_id: Uuid) {
        self.spawn_upgrade(cluster_id);
    }

    /// Picks up the upgrades a previous run of the server left unfinished.
    pub(super) async fn resume_cluster_upgrades(self: &Arc<Self>) -> anyhow::Result<()> {
        let unfinished: Vec<Hyphenated> = sqlx::query_scalar(
            "SELECT cluster_id FROM cluster_statuses WHERE upgrading_to IS NOT NULL",
        )
        .fetch_all(&self.db)
        .await?;
        for id in unfinished {
            tracing::info!(cluster = %id, "resuming a cluster upgrade");
            self.spawn_upgrade(id.into_uuid());
        }
        Ok(())
    }

    fn spawn_upgrade(self: &Arc<Self>, cluster_id: Uuid) {
        let engine = self.clone();
        tokio::spawn(async move {
            let outcome = retrying(cluster_id, |_| engine.run_upgrade(cluster_id)).await;
            if let Err(error) = outcome {
                tracing::error!(cluster = %cluster_id, %error, "cluster upgrade broke; giving up");
                // Not upgraded, and not left upgrading: the person can try again.
                let given_up = sqlx::query(
                    "UPDATE cluster_statuses SET status = ?, upgrading_to = NULL
                     WHERE cluster_id = ? AND upgrading_to IS NOT NULL",
                )
                .bind(ClusterState::DeploymentError)
                .bind(cluster_id.hyphenated())
                .execute(&engine.db)
                .await;
                if let Err(error) = given_up {
                    // Still upgrading: resumed at the next start.
                    tracing::error!(cluster = %cluster_id, %error, "could not end the upgrade");
                }
            }
        });
    }

    async fn run_upgrade(&self, cluster_id: Uuid) -> anyhow::Result<()> {
        self.wait(QUEUE_SECONDS).await;
        sqlx::query("UPDATE cluster_statuses SET status = ? WHERE cluster_id = ?")
            .bind(ClusterState::Deploying)
            .bind(cluster_id.hyphenated())
            .execute(&self.db)
            .await?;
        self.wait(UPGRADE_SECONDS).await;
        let now = Utc::now();
        let mut tx = self.writes.begin().await?;
        sqlx::query(
            "UPDATE organization_resources
             SET record = json_set(record, '$.version',
                     (SELECT upgrading_to FROM cluster_statuses WHERE cluster_id = ?),
                     '$.updated_at', ?),
                 updated_at = ?
             WHERE id = ?
               AND (SELECT upgrading_to FROM cluster_statuses WHERE cluster_id = ?) IS NOT NULL",
        )
        .bind(cluster_id.hyphenated())
        .bind(now.to_rfc3339())
        .bind(now)
        .bind(cluster_id.hyphenated())
        .bind(cluster_id.hyphenated())
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE cluster_statuses SET status = ?, is_deployed = 1, last_deployment_date = ?,
                 upgrading_to = NULL
             WHERE cluster_id = ? AND upgrading_to IS NOT NULL",
        )
        .bind(ClusterState::Deployed)
        .bind(now)
        .bind(cluster_id.hyphenated())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}
