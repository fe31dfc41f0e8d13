//! A cluster installed (or updated) and stopped, simulated: DEPLOYMENT_QUEUED → DEPLOYING →
//! DEPLOYED and STOP_QUEUED → STOPPING → STOPPED, a step at a time, each step's log lines
//! written as it ends. The step reached is stored with the step's lines, so that a restart of the
//! server resumes the action at the step it was running.

use std::sync::Arc;

use chrono::Utc;
use platform_api::{ClusterAction, ClusterLogStep, ClusterState, FeatureValue, STATIC_IP};
use sqlx::SqliteConnection;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::plan::QUEUE_SECONDS;
use super::{retrying, Engine};
use crate::store::cluster_network;

/// One step of a cluster action: its step name, how long it takes at engine speed 1, and the
/// line it logs when done.
struct ClusterStep {
    step: ClusterLogStep,
    seconds: f64,
    done: &'static str,
}

/// The steps of `action`, in order.
fn plan(action: ClusterAction) -> &'static [ClusterStep] {
    match action {
        ClusterAction::Deploy => &[
            ClusterStep {
                step: ClusterLogStep::LoadConfiguration,
                seconds: 2.0,
                done: "Configuration loaded (simulated: no cloud is reached).",
            },
            ClusterStep {
                step: ClusterLogStep::RetrieveClusterConfig,
                seconds: 3.0,
                done: "Cluster configuration retrieved.",
            },
            ClusterStep {
                step: ClusterLogStep::ValidateSystemRequirements,
                seconds: 2.0,
                done: "System requirements met.",
            },
            ClusterStep {
                step: ClusterLogStep::Create,
                seconds: 20.0,
                done: "Kubernetes control plane, nodes and the platform's agents are up to date.",
            },
            ClusterStep {
                step: ClusterLogStep::Created,
                seconds: 1.0,
                done: "Cluster deployed.",
            },
        ],
        // Stored actions are read strictly: none is unknown.
        ClusterAction::Stop | ClusterAction::Other(_) => &[
            ClusterStep {
                step: ClusterLogStep::LoadConfiguration,
                seconds: 2.0,
                done: "Configuration loaded (simulated: no cloud is reached).",
            },
            ClusterStep {
                step: ClusterLogStep::Pause,
                seconds: 10.0,
                done: "Nodes scaled down to zero; the control plane is kept.",
            },
            ClusterStep {
                step: ClusterLogStep::Paused,
                seconds: 1.0,
                done: "Cluster stopped.",
            },
        ],
    }
}

/// The states an action goes through: queued, running, done.
fn states(action: ClusterAction) -> (ClusterState, ClusterState, ClusterState) {
    match action {
        ClusterAction::Deploy => (
            ClusterState::DeploymentQueued,
            ClusterState::Deploying,
            ClusterState::Deployed,
        ),
        ClusterAction::Stop | ClusterAction::Other(_) => (
            ClusterState::StopQueued,
            ClusterState::Stopping,
            ClusterState::Stopped,
        ),
    }
}

/// What the cluster's network is set to, as a deployment applies it: its range and, with a
/// static IP, the fixed addresses its traffic leaves from (simulated: addresses of the
/// documentation range, the same for a cluster every time), who writes its DNS records under
/// which domain, and each route of its routing table.
async fn network_said(conn: &mut SqliteConnection, cluster_id: Uuid) -> anyhow::Result<String> {
    let cluster = cluster_network::cluster(&mut *conn, cluster_id).await?;
    let provider = cluster_network::dns_provider(&mut *conn, cluster_id).await?;
    let routes = cluster_network::routing_table(conn, cluster_id).await?;
    let routes = match routes.as_slice() {
        [] => "no routes beyond the network".to_string(),
        routes => routes
            .iter()
            .map(|route| format!("{} via {}", route.destination, route.target))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let range = cluster
        .network()
        .map(|range| format!("Network {range}; "))
        .unwrap_or_default();
    let static_ip = cluster
        .features
        .iter()
        .any(|feature| feature.id == STATIC_IP && feature.value() == &FeatureValue::Bool(true));
    let outbound = if static_ip {
        let [first, second] = static_addresses(cluster_id);
        format!("outbound traffic leaves from {first} and {second} (static IP); ")
    } else {
        String::new()
    };
    Ok(format!(
        "{range}{outbound}DNS records under {} written by {}; routing table applied: {routes}.",
        provider.domain,
        provider.writer()
    ))
}

/// A cluster's two static addresses: in TEST-NET-3 (203.0.113.0/24, reserved for
/// documentation), picked by its id.
fn static_addresses(cluster_id: Uuid) -> [std::net::Ipv4Addr; 2] {
    let first = 1 + cluster_id.as_bytes()[0] % 250;
    [
        std::net::Ipv4Addr::new(203, 0, 113, first),
        std::net::Ipv4Addr::new(203, 0, 113, first + 1),
    ]
}

impl Engine {
    /// Queues `action` on the cluster in `conn`; `start_cluster_action` starts it once that
    /// transaction commits. The caller has checked that nothing else runs on the cluster.
    pub async fn queue_cluster_action(
        &self,
        conn: &mut SqliteConnection,
        cluster_id: Uuid,
        action: ClusterAction,
    ) -> sqlx::Result<()> {
        let (queued, _, _) = states(action);
        sqlx::query(
            "INSERT INTO cluster_statuses (cluster_id, status, running_action, running_step,
                 last_execution_id)
             VALUES (?, ?, ?, 0, ?)
             ON CONFLICT (cluster_id) DO UPDATE SET status = excluded.status,
                 running_action = excluded.running_action, running_step = 0,
                 last_execution_id = excluded.last_execution_id",
        )
        .bind(cluster_id.hyphenated())
        .bind(queued)
        .bind(action)
        .bind(Uuid::new_v4().simple().to_string())
        .execute(conn)
        .await?;
        Ok(())
    }

    pub fn start_cluster_action(self: &Arc<Self>, cluster_id: Uuid) {
        self.spawn_cluster_action(cluster_id);
    }

    /// Picks up the actions a previous run of the server left unfinished.
    pub(super) async fn resume_cluster_actions(self: &Arc<Self>) -> anyhow::Result<()> {
        let unfinished: Vec<Hyphenated> = sqlx::query_scalar(
            "SELECT cluster_id FROM cluster_statuses WHERE running_action IS NOT NULL",
        )
        .fetch_all(&self.db)
        .await?;
        for id in unfinished {
            tracing::info!(cluster = %id, "resuming a cluster action");
            self.spawn_cluster_action(id.into_uuid());
        }
        Ok(())
    }

    fn spawn_cluster_action(self: &Arc<Self>, cluster_id: Uuid) {
        let engine = self.clone();
        tokio::spawn(async move {
            let outcome = retrying(cluster_id, |_| engine.run_cluster_action(cluster_id)).await;
            if let Err(error) = outcome {
                tracing::error!(cluster = %cluster_id, %error, "cluster action broke; giving up");
                // Ended in error, not left running: the person can try again.
                let given_up = sqlx::query(
                    "UPDATE cluster_statuses
                     SET status = CASE running_action WHEN 'STOP' THEN ? ELSE ? END,
                         running_action = NULL
                     WHERE cluster_id = ? AND running_action IS NOT NULL",
                )
                .bind(ClusterState::StopError)
                .bind(ClusterState::DeploymentError)
                .bind(cluster_id.hyphenated())
                .execute(&engine.db)
                .await;
                if let Err(error) = given_up {
                    tracing::error!(cluster = %cluster_id, %error, "could not end the action");
                }
            }
        });
    }

    async fn run_cluster_action(&self, cluster_id: Uuid) -> anyhow::Result<()> {
        #[derive(sqlx::FromRow)]
        struct Running {
            running_action: Option<ClusterAction>,
            running_step: i64,
            last_execution_id: Option<String>,
        }
        let running: Running = sqlx::query_as(
            "SELECT running_action, running_step, last_execution_id FROM cluster_statuses
             WHERE cluster_id = ?",
        )
        .bind(cluster_id.hyphenated())
        .fetch_one(&self.db)
        .await?;
        let (Some(action), Some(execution)) = (running.running_action, running.last_execution_id)
        else {
            return Ok(());
        };
        let (_, in_progress, done_state) = states(action);
        let steps = plan(action);
        let first = usize::try_from(running.running_step)?;
        if first == 0 {
            self.wait(QUEUE_SECONDS).await;
        }
        sqlx::query("UPDATE cluster_statuses SET status = ? WHERE cluster_id = ?")
            .bind(in_progress)
            .bind(cluster_id.hyphenated())
            .execute(&self.db)
            .await?;
        for (position, step) in steps.iter().enumerate().skip(first) {
            self.wait(step.seconds).await;
            let message = if step.step == ClusterLogStep::Create {
                let mut conn = self.db.acquire().await?;
                format!(
                    "{} {}",
                    step.done,
                    network_said(&mut conn, cluster_id).await?
                )
            } else {
                step.done.to_string()
            };
            let mut tx = self.writes.begin().await?;
            sqlx::query(
                "INSERT OR IGNORE INTO cluster_logs (cluster_id, execution_id, position, created_at,
                     level, step, message)
                 VALUES (?, ?, ?, ?, 'info', ?, ?)",
            )
            .bind(cluster_id.hyphenated())
            .bind(&execution)
            .bind(i64::try_from(position)?)
            .bind(Utc::now())
            .bind(step.step)
            .bind(&message)
            .execute(&mut *tx)
            .await?;
            let last = position + 1 == steps.len();
            sqlx::query(
                "UPDATE cluster_statuses
                 SET running_step = ?,
                     status = CASE WHEN ? THEN ? ELSE status END,
                     running_action = CASE WHEN ? THEN NULL ELSE running_action END,
                     is_deployed = CASE WHEN ? THEN 1 ELSE is_deployed END,
                     last_deployment_date = CASE WHEN ? THEN ? ELSE last_deployment_date END
                 WHERE cluster_id = ?",
            )
            .bind(i64::try_from(position + 1)?)
            .bind(last)
            .bind(done_state)
            .bind(last)
            .bind(last && action == ClusterAction::Deploy)
            .bind(last && action == ClusterAction::Deploy)
            .bind(Utc::now())
            .bind(cluster_id.hyphenated())
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        }
        Ok(())
    }
}
