//! The deployment engine. It simulates the platform's cloud work: an action moves a service
//! through the state machine of DESIGN §3, one persisted step at a time, with log lines. Every
//! change is written to SQLite before it is visible, so that a restart resumes where it stopped.

pub mod admission;
mod backup;
mod cluster;
mod cluster_actions;
pub mod environment;
pub mod history;
pub mod instances;
pub mod logs;
pub mod plan;
pub mod rollback;
mod rows;
pub mod run;
mod stages;
pub mod status;
mod tuning;
pub mod workers;

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use platform_api::{ServiceType, StatusAction, StepName, SubAction};
use sqlx::{Sqlite, SqlitePool, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::db;
use crate::error::ApiResult;
use crate::git::Repositories;
use crate::store::action::Action;
use workers::Workers;

pub struct Engine {
    /// The folders whose git repositories deployments read.
    pub repositories: Repositories,
    db: SqlitePool,
    /// The engine's writes, one at a time (`db::writer`).
    writes: SqlitePool,
    /// How many times faster than real life steps run.
    speed: f64,
    /// An action waits in its queued state until a worker is free and its organization's turn
    /// comes.
    pub workers: Arc<Workers>,
    /// Rung after a transaction that may have recorded webhook events.
    pub events_recorded: Arc<tokio::sync::Notify>,
    /// Rung for every waiter when an action ends: the deployments of later stages look again.
    action_ended: tokio::sync::Notify,
    /// Rung when a cancel of the action is asked for: its wait in the queue or in a step ends
    /// at once.
    cancels: std::sync::Mutex<std::collections::HashMap<Uuid, Arc<tokio::sync::Notify>>>,
    /// Whether the engine takes work: from when it has resumed what a previous run left until
    /// the server stops.
    running: std::sync::atomic::AtomicBool,
    /// The most actions one organization may have waiting for a worker.
    queue_limit: usize,
}

/// How a run of an action begins.
#[derive(Clone, Copy)]
enum Start {
    /// Fresh from the queue.
    Queued,
    /// A previous run of the server left the action unfinished.
    ServerRestarted,
    /// The previous try of this run broke (see `Engine::spawn`).
    RunBroke,
}

impl Start {
    /// What the action's log says when it starts again.
    fn resuming(self) -> Option<&'static str> {
        match self {
            Start::Queued => None,
            Start::ServerRestarted => Some(
                "The server restarted during this action; resuming at the step it was running.",
            ),
            Start::RunBroke => {
                Some("The engine broke off this action; resuming at the step it was running.")
            }
        }
    }
}

/// How long the engine waits before each new try of an action whose run broke.
const RUN_RETRY_WAITS: [Duration; 3] = [
    Duration::from_millis(200),
    Duration::from_secs(1),
    Duration::from_secs(3),
];

/// Runs `attempt` again, after a wait, each time it breaks (`retry` is true then); the error of
/// the last try is returned.
async fn retrying<F, Fut>(work: impl std::fmt::Display, mut attempt: F) -> anyhow::Result<()>
where
    F: FnMut(bool) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    let mut outcome = attempt(false).await;
    for retry_wait in RUN_RETRY_WAITS {
        let Err(error) = &outcome else { break };
        tracing::warn!(%work, %error, "engine work broke off; trying again");
        tokio::time::sleep(retry_wait).await;
        outcome = attempt(true).await;
    }
    outcome
}

impl Engine {
    pub fn new(
        db: SqlitePool,
        writes: SqlitePool,
        speed: f64,
        workers: usize,
        queue_limit: usize,
        repositories: Repositories,
    ) -> Self {
        Self {
            db,
            writes,
            repositories,
            speed,
            workers: Workers::new(workers.max(1)),
            events_recorded: Arc::new(tokio::sync::Notify::new()),
            action_ended: tokio::sync::Notify::new(),
            cancels: std::sync::Mutex::new(std::collections::HashMap::new()),
            running: std::sync::atomic::AtomicBool::new(false),
            queue_limit,
        }
    }

    /// A transaction on the engine's writer that holds the write lock from its start, for
    /// requests of actions (`queue`) and what is written with them.
    pub async fn begin(&self) -> ApiResult<Transaction<'static, Sqlite>> {
        db::begin_write(&self.writes).await
    }

    /// Starts working on an action `queue` wrote, once its transaction has committed.
    /// Once the server stops, nothing new starts: the action stays queued, and the next start
    /// picks it up.
    pub fn start(self: &Arc<Self>, deployment_id: Uuid) {
        if self.is_running() {
            self.spawn(deployment_id, Start::Queued);
        }
    }

    /// Ends the wait of a canceled action, in the queue or in a step.
    fn ring_cancel(&self, deployment_id: Uuid) {
        // A permit kept until the action waits, if it is not waiting now.
        self.cancel_signal(deployment_id).notify_one();
    }

    /// Picks up every action a previous run of the server left unfinished.
    pub async fn resume_unfinished(self: &Arc<Self>) -> anyhow::Result<()> {
        let unfinished: Vec<Hyphenated> = sqlx::query_scalar(
            "SELECT id FROM deployments WHERE finished_at IS NULL ORDER BY created_at",
        )
        .fetch_all(&self.db)
        .await?;
        // Every one waits for a worker again.
        sqlx::query("UPDATE deployments SET worker_at = NULL WHERE finished_at IS NULL")
            .execute(&self.writes)
            .await?;
        for id in unfinished {
            tracing::info!(deployment = %id, "resuming an unfinished action");
            self.spawn(id.into_uuid(), Start::ServerRestarted);
        }
        self.resume_cluster_upgrades().await?;
        self.resume_cluster_actions().await?;
        self.resume_backups().await?;
        self.running
            .store(true, std::sync::atomic::Ordering::Release);
        Ok(())
    }

    /// Whether the engine takes work (`/readyz`).
    pub fn is_running(&self) -> bool {
        self.running.load(std::sync::atomic::Ordering::Acquire)
    }

    /// The server stops: the engine takes no more work. What runs stops with the process, at the
    /// end of the step it was at or inside it; every step's end is written as it ends, and the
    /// next start resumes each action at the step it was in.
    pub fn stop(&self) {
        self.running
            .store(false, std::sync::atomic::Ordering::Release);
    }

    /// Runs the action in a worker.
    /// A run that breaks (the database busy past its timeout, say) resumes at the step it was
    /// running; after the last retry the action ends in its error state, so that no service stays
    /// in progress while the server runs.
    fn spawn(self: &Arc<Self>, deployment_id: Uuid, start: Start) {
        let engine = self.clone();
        tokio::spawn(async move {
            let canceled = engine.cancel_signal(deployment_id);
            let organization = match engine.organization_of(deployment_id).await {
                Ok(organization) => organization,
                Err(error) => {
                    // The row stays unfinished and is resumed at the next start.
                    tracing::error!(deployment = %deployment_id, %error, "could not queue the action");
                    return;
                }
            };
            // A stage starts when the ones before it have finished; a cancel ends the wait.
            tokio::select! {
                waited = engine.wait_for_earlier_stages(deployment_id) => {
                    if let Err(error) = waited {
                        tracing::error!(deployment = %deployment_id, %error, "could not read the stages before");
                    }
                }
                () = canceled.notified() => canceled.notify_one(),
            }
            // Canceled while waiting for a worker: it runs at once, to end canceled.
            let _worker = tokio::select! {
                worker = engine.workers.acquire(organization, deployment_id) => Some(worker),
                () = canceled.notified() => {
                    canceled.notify_one();
                    None
                }
            };
            if let Err(error) = engine.record_worker(deployment_id).await {
                tracing::error!(deployment = %deployment_id, %error, "could not record the worker");
            }
            let outcome = retrying(deployment_id, |retry| {
                engine.run(deployment_id, if retry { Start::RunBroke } else { start })
            })
            .await;
            if let Err(error) = outcome {
                tracing::error!(deployment = %deployment_id, %error, "action run broke; giving up");
                if let Err(error) = engine.give_up(deployment_id, &error).await {
                    // The row stays unfinished and is resumed at the next start.
                    tracing::error!(deployment = %deployment_id, %error, "could not end the action");
                }
            }
            engine.forget_cancel(deployment_id);
        });
    }

    /// The organization whose action this is: its turn for a worker.
    async fn organization_of(&self, deployment_id: Uuid) -> sqlx::Result<Uuid> {
        let organization: String = sqlx::query_scalar(
            "SELECT s.organization_id FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE d.id = ?",
        )
        .bind(deployment_id.hyphenated())
        .fetch_one(&self.db)
        .await?;
        organization
            .parse()
            .map_err(|error: uuid::Error| sqlx::Error::Decode(error.into()))
    }

    /// The signal a cancel of the action rings.
    fn cancel_signal(&self, deployment_id: Uuid) -> Arc<tokio::sync::Notify> {
        self.cancels
            .lock()
            .expect("no holder of the lock panics")
            .entry(deployment_id)
            .or_default()
            .clone()
    }

    fn forget_cancel(&self, deployment_id: Uuid) {
        self.cancels
            .lock()
            .expect("no holder of the lock panics")
            .remove(&deployment_id);
    }

    /// The action left the queue: a worker took it.
    async fn record_worker(&self, deployment_id: Uuid) -> sqlx::Result<()> {
        sqlx::query("UPDATE deployments SET worker_at = ? WHERE id = ? AND worker_at IS NULL")
            .bind(Utc::now())
            .bind(deployment_id.hyphenated())
            .execute(&self.writes)
            .await
            .map(drop)
    }

    /// Ends an action whose run kept breaking in the error state of the step it was at.
    async fn give_up(&self, deployment_id: Uuid, error: &anyhow::Error) -> anyhow::Result<()> {
        // The row may be what broke the run: its action and kind are read as text, and a value
        // that does not read leaves the step unknown rather than the action unfinished.
        #[derive(sqlx::FromRow)]
        struct Unfinished {
            #[sqlx(try_from = "Hyphenated")]
            service_id: Uuid,
            kind: String,
            action: String,
            sub_action: String,
            done: i64,
        }
        let Unfinished {
            service_id,
            kind,
            action,
            sub_action,
            done,
        } = sqlx::query_as(
            "SELECT d.service_id, s.kind, d.action, d.sub_action,
                        (SELECT COUNT(*) FROM deployment_steps WHERE deployment_id = d.id) AS done
                 FROM deployments d JOIN services s ON s.id = d.service_id
                 WHERE d.id = ? AND d.finished_at IS NULL",
        )
        .bind(deployment_id.hyphenated())
        .fetch_one(&self.db)
        .await?;
        let action = action
            .parse::<StatusAction>()
            .ok()
            .and_then(Action::from_status_action)
            .unwrap_or(Action::Deploy);
        let step = match (kind.parse::<ServiceType>(), sub_action.parse::<SubAction>()) {
            (Ok(kind), Ok(sub_action)) => plan::steps(action, kind, sub_action)
                .get(usize::try_from(done)?)
                .map(|step| step.name),
            _ => None,
        };
        let tx = self.writes.begin().await?;
        self.finish_failed(
            tx,
            deployment_id,
            service_id,
            action.failed(step.unwrap_or(StepName::Deployment)),
            &format!("The engine could not go on with this action ({error}); run it again."),
        )
        .await
    }
}
