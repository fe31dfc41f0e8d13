//! Deployment stages at run time: a deployment of an environment's request starts once every
//! deployment of the earlier stages of that request has finished, and is not run when one of
//! them did not end deployed: a failure stops the stages after it.

use std::time::Duration;

use platform_api::{ActionStatus, ServiceState};
use uuid::Uuid;

use super::rows::end;
use super::Engine;
use crate::store::action::Action;

/// The longest a deployment waiting for the stages before it goes without looking again: an
/// action's end wakes it at once; this bounds the wait should a wake-up be missed.
const STAGE_LOOK_AGAIN: Duration = Duration::from_secs(1);

impl Engine {
    /// Waits until the deployments of the earlier stages of the deployment's request have
    /// finished (at once for a deployment outside stages): it looks again each time an action
    /// ends.
    pub(super) async fn wait_for_earlier_stages(&self, deployment_id: Uuid) -> sqlx::Result<()> {
        loop {
            // Listening before looking: an end between the two is not missed.
            let ended = self.action_ended.notified();
            tokio::pin!(ended);
            ended.as_mut().enable();
            let unfinished: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM deployments e
                 JOIN deployments d ON d.environment_execution_id = e.environment_execution_id
                 WHERE d.id = ? AND e.stage_position < d.stage_position AND e.finished_at IS NULL",
            )
            .bind(deployment_id.hyphenated())
            .fetch_one(&self.db)
            .await?;
            if unfinished == 0 {
                return Ok(());
            }
            let _ = tokio::time::timeout(STAGE_LOOK_AGAIN, ended).await;
        }
    }

    /// Ends the deployment unrun when a deployment of an earlier stage of its request did not
    /// end deployed; whether it did.
    pub(super) async fn stop_after_failed_stage(
        &self,
        deployment_id: Uuid,
        service_id: Uuid,
    ) -> anyhow::Result<bool> {
        let failed: Option<String> = sqlx::query_scalar(
            "SELECT e.stage_name FROM deployments e
             JOIN deployments d ON d.environment_execution_id = e.environment_execution_id
             WHERE d.id = ? AND e.stage_position < d.stage_position
               AND e.finished_at IS NOT NULL AND e.state <> ?
             ORDER BY e.stage_position LIMIT 1",
        )
        .bind(deployment_id.hyphenated())
        .bind(Action::Deploy.done())
        .fetch_optional(&self.db)
        .await?;
        let Some(stage) = failed else {
            return Ok(false);
        };
        let mut tx = self.writes.begin().await?;
        let recorded = end(
            &mut tx,
            deployment_id,
            service_id,
            ServiceState::Canceled,
            ActionStatus::Canceled,
            &format!("Not deployed: the stage {stage} before this one did not deploy."),
        )
        .await?;
        tx.commit().await?;
        self.ended(recorded);
        Ok(true)
    }
}
