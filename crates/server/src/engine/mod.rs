//! The deployment engine. It simulates the platform's cloud work: an action moves a service
//! through the state machine of DESIGN §3, one persisted step at a time, with log lines. Every
//! change is written to SQLite before it is visible, so that a restart resumes where it stopped.

pub mod action;
mod cluster;
pub mod history;
pub mod instances;
pub mod logs;
pub mod plan;
pub mod rollback;
pub mod status;
pub mod workers;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use platform_api::{
    ActionStatus, DeploymentStatus, ServiceState, ServiceType, StatusAction, StepName, StepStatus,
    SubAction, WebhookEvent,
};
use sqlx::{Sqlite, SqliteConnection, SqlitePool, Transaction};
use uuid::Uuid;

use crate::audit;
use crate::caller::Caller;
use crate::db;
use crate::error::{ApiError, ApiResult};
use crate::events;
use crate::git::{self, Repositories};
use action::{Action, Request};
use plan::{PlannedStep, QUEUE_SECONDS};
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
    /// Rung when a cancel of the action is asked for: its wait in the queue or in a step ends
    /// at once.
    cancels: std::sync::Mutex<std::collections::HashMap<Uuid, Arc<tokio::sync::Notify>>>,
    /// Whether the engine takes work: from when it has resumed what a previous run left until
    /// the server stops.
    running: std::sync::atomic::AtomicBool,
    /// The most actions one organization may have waiting for a worker.
    queue_limit: usize,
}

/// The states in which a service is busy: a new action on it answers 409.
pub fn busy_states() -> String {
    ServiceState::ALL
        .iter()
        .filter(|state| state.is_in_progress())
        .map(|state| format!("'{}'", state.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a delete or a configuration change applies to.
#[derive(Clone, Copy, Debug)]
pub enum Scope {
    Project(Uuid),
    Environment(Uuid),
    Service(Uuid),
}

/// 409 while an action runs on a service in `scope`: deleting it now would pull the rug from
/// under the engine.
pub async fn ensure_idle(conn: &mut SqliteConnection, scope: Scope) -> ApiResult<()> {
    let (column, id, what) = match scope {
        Scope::Project(id) => ("e.project_id", id, "a service of this project"),
        Scope::Environment(id) => ("sv.environment_id", id, "a service of this environment"),
        Scope::Service(id) => ("sv.id", id, "this service"),
    };
    let (busy,): (i64,) = sqlx::query_as(&format!(
        "SELECT COUNT(*) FROM service_statuses s
         JOIN services sv ON sv.id = s.service_id
         JOIN environments e ON e.id = sv.environment_id
         WHERE {column} = ? AND s.state IN ({})",
        busy_states()
    ))
    .bind(id.to_string())
    .fetch_one(conn)
    .await?;
    if busy > 0 {
        return Err(ApiError::conflict(format!(
            "An action is running on {what}; wait for it to finish or cancel it."
        )));
    }
    Ok(())
}

/// Deletes the project, environment or service of `scope` with all it holds, unless an action
/// runs in it (409).
pub async fn delete_when_idle(conn: &mut SqliteConnection, scope: Scope) -> ApiResult<()> {
    ensure_idle(conn, scope).await?;
    let (table, id) = match scope {
        Scope::Project(id) => ("projects", id),
        Scope::Environment(id) => ("environments", id),
        Scope::Service(id) => ("services", id),
    };
    sqlx::query(&format!("DELETE FROM {table} WHERE id = ?"))
        .bind(id.to_string())
        .execute(conn)
        .await?;
    Ok(())
}

/// After a change of configuration or variables in `scope`, its deployed services no longer run
/// what is configured.
pub async fn mark_scope_out_of_date(conn: &mut SqliteConnection, scope: Scope) -> ApiResult<()> {
    let (column, id) = match scope {
        Scope::Project(id) => ("e.project_id", id),
        Scope::Environment(id) => ("sv.environment_id", id),
        Scope::Service(id) => ("sv.id", id),
    };
    sqlx::query(&format!(
        "UPDATE service_statuses SET deployment_status = ?
         WHERE deployment_status = ? AND service_id IN (
             SELECT sv.id FROM services sv JOIN environments e ON e.id = sv.environment_id
             WHERE {column} = ?)"
    ))
    .bind(DeploymentStatus::UpToDate.after_change().as_str())
    .bind(DeploymentStatus::UpToDate.as_str())
    .bind(id.to_string())
    .execute(conn)
    .await?;
    Ok(())
}

/// The status of a service that was never deployed.
pub async fn insert_initial_status(conn: &mut SqliteConnection, service_id: Uuid) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO service_statuses (service_id, state, deployment_status, action, action_status, sub_action)
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(service_id.to_string())
    .bind(ServiceState::Ready.as_str())
    .bind(DeploymentStatus::NeverDeployed.as_str())
    .bind(StatusAction::Deploy.as_str())
    .bind(ActionStatus::Never.as_str())
    .bind(SubAction::None.as_str())
    .execute(conn)
    .await?;
    Ok(())
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

/// The variable that makes an action fail on purpose, so that failure views can be tested: its
/// value is a step name (BUILD, DEPLOYMENT, ...) or an action (DEPLOY, RESTART, STOP, DELETE).
pub const FAIL_AT_VARIABLE: &str = "PLATFORM_FAIL_AT";

/// The variable that makes a step never end on its own, so that timeouts and cancels inside a
/// step can be tested: its value is a step name or an action, as `PLATFORM_FAIL_AT`'s.
pub const HANG_AT_VARIABLE: &str = "PLATFORM_HANG_AT";

/// 409 when `action` makes no sense in the service's present state.
pub fn precondition(action: Action, current: &platform_api::Status) -> ApiResult<()> {
    let refusal = match action {
        Action::Deploy => None,
        Action::Restart if !current.runs() => {
            Some("This service runs nothing to restart; deploy it first.")
        }
        Action::Stop if !current.runs() => Some("This service runs nothing to stop."),
        Action::Uninstall if !current.installed() => Some("Nothing of this service is installed."),
        _ => None,
    };
    refusal.map_or(Ok(()), |message| Err(ApiError::conflict(message)))
}

/// Who asked for an action, and from where.
#[derive(Clone, Copy, Debug)]
pub struct AskedBy<'a> {
    pub name: &'a str,
    pub origin: platform_api::audit::Origin,
}

impl<'a> From<&'a Caller> for AskedBy<'a> {
    fn from(caller: &'a Caller) -> Self {
        Self {
            name: &caller.name,
            origin: caller.client.origin,
        }
    }
}

/// An action `Engine::queue` wrote: its deployment, and the service's status it left.
pub struct Queued {
    pub deployment_id: Uuid,
    pub status: platform_api::Status,
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

/// How a wait of the engine ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Waited {
    Elapsed,
    /// A cancel was asked for.
    Canceled,
    /// The action's timeout came.
    TimedOut,
}

/// Whether a cancel of the action was asked for, read in `tx` by a write, so that the
/// transaction holds the writer from here: no cancel can land between this read and its writes.
async fn cancel_flag(tx: &mut Transaction<'_, Sqlite>, deployment_id: Uuid) -> sqlx::Result<bool> {
    let (requested,): (bool,) = sqlx::query_as(
        "UPDATE deployments SET updated_at = ? WHERE id = ? RETURNING cancel_requested",
    )
    .bind(Utc::now())
    .bind(deployment_id.to_string())
    .fetch_one(&mut **tx)
    .await?;
    Ok(requested)
}

/// A number of seconds as a person reads it: "90 s".
fn seconds_in_words(seconds: f64) -> String {
    format!("{} s", seconds.round() as i64)
}

/// How a step ends.
#[derive(Clone, Copy)]
enum Outcome {
    Done,
    Failed,
    Canceled,
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

    /// Queues `action` on the service and starts working on it, recorded in the audit log as
    /// asked by `caller`. 409 while another action runs on the service, or when the action makes
    /// no sense in its state.
    pub async fn request(
        self: &Arc<Self>,
        request: impl Into<Request>,
        service_id: Uuid,
        caller: &Caller,
    ) -> ApiResult<platform_api::Status> {
        let request = request.into();
        let event_type = request.action.event_type();
        let mut tx = self.begin().await?;
        let queued = self
            .queue(&mut tx, request, service_id, caller.into())
            .await?;
        let target = audit::Target::service(&mut tx, service_id).await?;
        audit::record(&mut tx, caller, audit::Change::new(event_type, target)).await?;
        tx.commit().await?;
        self.start(queued.deployment_id);
        Ok(queued.status)
    }

    /// Queues `action` on the service in `tx`; nothing runs until `start` is called with the
    /// deployment, after `tx` commits. 409 while another action runs on the service, or when the
    /// action makes no sense in its state.
    pub async fn queue(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        request: Request,
        service_id: Uuid,
        asked_by: AskedBy<'_>,
    ) -> ApiResult<Queued> {
        let triggered_by = asked_by.name;
        let Request {
            action,
            git_commit_id,
            plan_only,
            rollback_to,
            environment_execution_id,
        } = request;
        let current = status::of_service(tx, service_id).await?;
        precondition(action, &current)?;
        let (kind, organization): (String, String) =
            sqlx::query_as("SELECT kind, organization_id FROM services WHERE id = ?")
                .bind(service_id.to_string())
                .fetch_one(&mut **tx)
                .await?;
        self.ensure_room(tx, &organization).await?;
        let kind: ServiceType = db::wire(&kind)?;
        let sub_action = action.sub_action(kind, plan_only);
        let from_git = self.repository_url(service_id, kind).await?.is_some();
        let deployment_id = Uuid::new_v4();
        let now = Utc::now();
        // One conditional update claims the service, so two concurrent requests cannot both win.
        let claimed = sqlx::query(&format!(
            "UPDATE service_statuses
             SET state = ?, action = ?, action_status = ?, sub_action = ?,
                 deployment_request_id = ?, execution_id = ?
             WHERE service_id = ? AND state NOT IN ({})",
            busy_states()
        ))
        .bind(action.queued().as_str())
        .bind(action.status_action().as_str())
        .bind(ActionStatus::Queued.as_str())
        .bind(sub_action.as_str())
        .bind(deployment_id.to_string())
        .bind(deployment_id.simple().to_string())
        .bind(service_id.to_string())
        .execute(&mut **tx)
        .await?;
        if claimed.rows_affected() == 0 {
            return Err(ApiError::conflict(
                "An action is already running on this service; wait for it to finish or cancel it.",
            ));
        }
        sqlx::query(
            "INSERT INTO deployments (id, service_id, execution_id, action, sub_action, git_commit_id, state, created_at, updated_at, triggered_by, origin, rollback_to, environment_execution_id, spec)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT spec FROM services WHERE id = ?))",
        )
        .bind(deployment_id.to_string())
        .bind(service_id.to_string())
        .bind(deployment_id.simple().to_string())
        .bind(action.status_action().as_str())
        .bind(sub_action.as_str())
        .bind(git_commit_id.as_deref())
        .bind(action.queued().as_str())
        .bind(now)
        .bind(now)
        .bind(triggered_by)
        .bind(asked_by.origin.as_str())
        .bind(rollback_to.as_deref())
        .bind(environment_execution_id.as_deref())
        .bind(service_id.to_string())
        .execute(&mut **tx)
        .await?;
        let requested = match (action, &git_commit_id) {
            _ if sub_action == SubAction::TerraformPlanOnly => {
                "Plan requested: nothing will be applied; waiting in the queue.".to_string()
            }
            _ if rollback_to.is_some() => format!(
                "Rollback requested to deployment {}{}; waiting in the queue.",
                rollback_to.as_deref().unwrap_or_default(),
                git_commit_id
                    .as_deref()
                    .map(|commit| format!(" (commit {commit})"))
                    .unwrap_or_default()
            ),
            (Action::Deploy, Some(commit)) => {
                format!("Deployment requested at commit {commit}; waiting in the queue.")
            }
            (Action::Deploy, None) if from_git => {
                "Deployment requested at the branch's latest commit; waiting in the queue."
                    .to_string()
            }
            (Action::Deploy, None) => "Deployment requested; waiting in the queue.".to_string(),
            _ => format!(
                "{} requested by {triggered_by}; waiting in the queue.",
                action.noun()
            ),
        };
        log(tx, deployment_id, service_id, &requested).await?;
        // The answer is the service as this request left it, whatever the engine does next.
        Ok(Queued {
            deployment_id,
            status: status::of_service(tx, service_id).await?,
        })
    }

    /// Starts working on an action `queue` wrote, once its transaction has committed.
    /// Once the server stops, nothing new starts: the action stays queued, and the next start
    /// picks it up.
    pub fn start(self: &Arc<Self>, deployment_id: Uuid) {
        if self.is_running() {
            self.spawn(deployment_id, Start::Queued);
        }
    }

    /// Stops the action running or queued on the service: its wait ends at once (in the queue or
    /// inside a step) and no later step runs. 409 when nothing runs.
    pub async fn cancel(
        &self,
        service_id: Uuid,
        caller: &Caller,
    ) -> ApiResult<platform_api::Status> {
        let mut tx = self.begin().await?;
        let running: Option<(String,)> = sqlx::query_as(
            "SELECT deployment_request_id FROM service_statuses
             WHERE service_id = ? AND deployment_request_id IS NOT NULL",
        )
        .bind(service_id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        let canceled = match running {
            Some((deployment_id,)) => self.mark_canceled(&mut tx, db::id(&deployment_id)?).await?,
            None => None,
        };
        let Some(deployment_id) = canceled else {
            return Err(ApiError::conflict(
                "Nothing runs on this service to cancel.",
            ));
        };
        let canceling = status::of_service(&mut tx, service_id).await?;
        let target = audit::Target::service(&mut tx, service_id).await?;
        let change = audit::Change::new(platform_api::audit::EventType::TriggerCancel, target);
        audit::record(&mut tx, caller, change).await?;
        tx.commit().await?;
        self.ring_cancel(deployment_id);
        Ok(canceling)
    }

    /// Cancels the deployment request `request_id` of the caller's organization (one action, or
    /// the actions one request on an environment queued together) while it waits in the queue:
    /// what has not started never starts. 404 for a request of another organization; 409 when
    /// all of it has started or ended (a running deployment is canceled with its environment's).
    pub async fn cancel_queued(&self, request_id: Uuid, caller: &Caller) -> ApiResult<()> {
        let mut tx = self.begin().await?;
        let actions: Vec<(String, String, bool)> = sqlx::query_as(
            "SELECT d.id, d.service_id, d.finished_at IS NULL AND d.worker_at IS NULL
             FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE (d.id = ? OR d.environment_execution_id = ?) AND s.organization_id = ?",
        )
        .bind(request_id.to_string())
        .bind(request_id.simple().to_string())
        .bind(caller.organization_id.to_string())
        .fetch_all(&mut *tx)
        .await?;
        if actions.is_empty() {
            return Err(ApiError::not_found("deployment request"));
        }
        let mut canceled = Vec::new();
        for (deployment_id, service_id, waiting) in actions {
            if !waiting {
                continue;
            }
            if let Some(id) = self.mark_canceled(&mut tx, db::id(&deployment_id)?).await? {
                let target = audit::Target::service(&mut tx, db::id(&service_id)?).await?;
                let change =
                    audit::Change::new(platform_api::audit::EventType::TriggerCancel, target);
                audit::record(&mut tx, caller, change).await?;
                canceled.push(id);
            }
        }
        if canceled.is_empty() {
            return Err(ApiError::conflict(
                "This deployment request is no longer waiting in the queue; cancel its environment's deployment instead.",
            ));
        }
        tx.commit().await?;
        for deployment_id in canceled {
            self.ring_cancel(deployment_id);
        }
        Ok(())
    }

    /// Cancels every action running or queued on the environment's services. 409 when none
    /// runs.
    pub async fn cancel_environment(&self, environment_id: Uuid, caller: &Caller) -> ApiResult<()> {
        let mut tx = self.begin().await?;
        let unfinished: Vec<(String,)> = sqlx::query_as(
            "SELECT d.id FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE s.environment_id = ? AND d.finished_at IS NULL AND d.cancel_requested = 0
             ORDER BY d.rowid",
        )
        .bind(environment_id.to_string())
        .fetch_all(&mut *tx)
        .await?;
        let mut canceled = Vec::new();
        for (deployment_id,) in unfinished {
            if let Some(id) = self.mark_canceled(&mut tx, db::id(&deployment_id)?).await? {
                canceled.push(id);
            }
        }
        if canceled.is_empty() {
            return Err(ApiError::conflict(
                "No deployment of this environment runs or waits to cancel.",
            ));
        }
        let target = audit::Target::environment(&mut tx, environment_id).await?;
        let change = audit::Change::new(platform_api::audit::EventType::TriggerCancel, target);
        audit::record(&mut tx, caller, change).await?;
        tx.commit().await?;
        for deployment_id in canceled {
            self.ring_cancel(deployment_id);
        }
        Ok(())
    }

    /// Marks the action canceled in `tx` (its service CANCELING, a log line saying so) unless it
    /// has ended or is canceled already: its id when marked. `ring_cancel` once `tx` commits.
    async fn mark_canceled(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        deployment_id: Uuid,
    ) -> ApiResult<Option<Uuid>> {
        let marked: Option<(String,)> = sqlx::query_as(
            "UPDATE deployments SET cancel_requested = 1
             WHERE id = ? AND finished_at IS NULL AND cancel_requested = 0
             RETURNING service_id",
        )
        .bind(deployment_id.to_string())
        .fetch_optional(&mut **tx)
        .await?;
        let Some((service_id,)) = marked else {
            return Ok(None);
        };
        let service_id: Uuid = db::id(&service_id)?;
        set_state(
            tx,
            deployment_id,
            service_id,
            ServiceState::Canceling,
            ActionStatus::Canceling,
        )
        .await?;
        log(
            tx,
            deployment_id,
            service_id,
            "Cancel requested; the running step stops now.",
        )
        .await?;
        Ok(Some(deployment_id))
    }

    /// Ends the wait of a canceled action, in the queue or in a step.
    fn ring_cancel(&self, deployment_id: Uuid) {
        // A permit kept until the action waits, if it is not waiting now.
        self.cancel_signal(deployment_id).notify_one();
    }

    /// Picks up every action a previous run of the server left unfinished.
    pub async fn resume_unfinished(self: &Arc<Self>) -> anyhow::Result<()> {
        let unfinished: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM deployments WHERE finished_at IS NULL ORDER BY created_at",
        )
        .fetch_all(&self.db)
        .await?;
        // Every one waits for a worker again.
        sqlx::query("UPDATE deployments SET worker_at = NULL WHERE finished_at IS NULL")
            .execute(&self.writes)
            .await?;
        for (id,) in unfinished {
            tracing::info!(deployment = %id, "resuming an unfinished action");
            self.spawn(id.parse()?, Start::ServerRestarted);
        }
        self.resume_cluster_upgrades().await?;
        self.running
            .store(true, std::sync::atomic::Ordering::Release);
        Ok(())
    }

    /// 503 when the organization has `queue_limit` actions waiting already: the queue is full
    /// for it (others have their own turns), and the request may be sent again later.
    async fn ensure_room(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        organization: &str,
    ) -> ApiResult<()> {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE d.finished_at IS NULL AND d.worker_at IS NULL AND s.organization_id = ?",
        )
        .bind(organization)
        .fetch_one(&mut **tx)
        .await?;
        if waiting >= self.queue_limit as i64 {
            return Err(ApiError::busy());
        }
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
        .bind(deployment_id.to_string())
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
            .bind(deployment_id.to_string())
            .execute(&self.writes)
            .await
            .map(drop)
    }

    /// Ends an action whose run kept breaking in the error state of the step it was at.
    async fn give_up(&self, deployment_id: Uuid, error: &anyhow::Error) -> anyhow::Result<()> {
        let (service_id, kind, action, sub_action, done): (String, String, String, String, i64) =
            sqlx::query_as(
                "SELECT d.service_id, s.kind, d.action, d.sub_action,
                        (SELECT COUNT(*) FROM deployment_steps WHERE deployment_id = d.id)
                 FROM deployments d JOIN services s ON s.id = d.service_id
                 WHERE d.id = ? AND d.finished_at IS NULL",
            )
            .bind(deployment_id.to_string())
            .fetch_one(&self.db)
            .await?;
        let action = action
            .parse()
            .ok()
            .and_then(Action::from_status_action)
            .unwrap_or(Action::Deploy);
        let step = match (kind.parse(), sub_action.parse()) {
            (Ok(kind), Ok(sub_action)) => plan::steps(action, kind, sub_action)
                .get(usize::try_from(done)?)
                .map(|step| step.name),
            _ => None,
        };
        let tx = self.writes.begin().await?;
        self.finish_failed(
            tx,
            deployment_id,
            service_id.parse()?,
            action.failed(step.unwrap_or(StepName::Deployment)),
            &format!("The engine could not go on with this action ({error}); run it again."),
        )
        .await
    }

    async fn run(&self, deployment_id: Uuid, start: Start) -> anyhow::Result<()> {
        let (service_id, kind, action, sub_action, mut git_commit_id, configured_timeout): (
            String,
            String,
            String,
            String,
            Option<String>,
            Option<i64>,
        ) = match sqlx::query_as(
            "SELECT d.service_id, s.kind, d.action, d.sub_action, d.git_commit_id,
                    json_extract(s.spec, '$.timeout_sec')
             FROM deployments d
             JOIN services s ON s.id = d.service_id WHERE d.id = ? AND d.finished_at IS NULL",
        )
        .bind(deployment_id.to_string())
        .fetch_optional(&self.db)
        .await?
        {
            Some(row) => row,
            // A try that broke after the action had ended.
            None => return Ok(()),
        };
        let service_id: Uuid = service_id.parse()?;
        let canceled = self.cancel_signal(deployment_id);
        let timeout = plan::timeout_seconds(kind.parse()?, configured_timeout);
        let mut left = timeout;
        let resuming = match start {
            Start::Queued => None,
            Start::ServerRestarted => Some(
                "The server restarted during this action; resuming at the step it was running.",
            ),
            Start::RunBroke => {
                Some("The engine broke off this action; resuming at the step it was running.")
            }
        };
        match resuming {
            Some(message) => {
                let mut tx = self.writes.begin().await?;
                log(&mut tx, deployment_id, service_id, message).await?;
                tx.commit().await?;
            }
            None => {
                // A cancel ends the wait; the first step finds it asked for.
                if self
                    .wait_unless_stopped(Some(QUEUE_SECONDS), &canceled, &mut left)
                    .await
                    == Waited::Canceled
                {
                    canceled.notify_one();
                }
            }
        }
        let action = Action::from_status_action(action.parse()?)
            .ok_or_else(|| anyhow::anyhow!("deployment {deployment_id} has no known action"))?;
        let sub_action: SubAction = sub_action.parse()?;
        let kind: ServiceType = kind.parse()?;
        let plan = plan::steps(action, kind, sub_action);
        let (done,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM deployment_steps WHERE deployment_id = ?")
                .bind(deployment_id.to_string())
                .fetch_one(&self.db)
                .await?;
        let done = usize::try_from(done)?;
        let fail_at = self.fault(service_id, FAIL_AT_VARIABLE).await?;
        let hang_at = self.fault(service_id, HANG_AT_VARIABLE).await?;
        let reads_repository = plan
            .iter()
            .position(|step| step.name == StepName::GitClone)
            .unwrap_or(0);

        for (position, step) in plan.iter().enumerate().skip(done) {
            // Later steps were entered in the transaction that recorded the step before.
            if position == done {
                let mut tx = self.writes.begin().await?;
                if cancel_flag(&mut tx, deployment_id).await? {
                    // Canceled before its first step ran: that step is the one canceled.
                    record_step(
                        &mut tx,
                        (deployment_id, service_id),
                        position,
                        step,
                        Duration::ZERO,
                        Outcome::Canceled,
                    )
                    .await?;
                    return self.finish_canceled(tx, deployment_id, service_id).await;
                }
                let recorded = enter_state(&mut tx, deployment_id, service_id, step).await?;
                tx.commit().await?;
                self.wake_deliveries(recorded);
            }
            let started = Instant::now();
            let aimed_at = |target: &Option<String>| {
                target.as_deref().is_some_and(|target| {
                    target == step.name.as_str()
                        || (position == 0 && target == action.status_action().as_str())
                })
            };
            let length = (!aimed_at(&hang_at)).then_some(step.seconds);
            let waited = self.wait_unless_stopped(length, &canceled, &mut left).await;
            let mut failure = aimed_at(&fail_at).then(|| {
                format!(
                    "{}: failed on purpose ({FAIL_AT_VARIABLE}={}).",
                    step.name.label(),
                    fail_at.clone().unwrap_or_default()
                )
            });
            if waited == Waited::TimedOut {
                failure = Some(format!(
                    "{}: the {} ran past its timeout of {} and was stopped.",
                    step.name.label(),
                    action.noun().to_lowercase(),
                    seconds_in_words(timeout)
                ));
            }
            // A deployment of the branch's latest commit learns which one at its clone (at its
            // first step for the kinds whose plan shows no clone).
            if failure.is_none()
                && position == reads_repository
                && action == Action::Deploy
                && git_commit_id.is_none()
            {
                match self.branch_tip(service_id, kind).await? {
                    Ok(Some(commit)) => {
                        self.record_commit(deployment_id, service_id, step, &commit)
                            .await?;
                        git_commit_id = Some(commit);
                    }
                    Ok(None) => {}
                    Err(error) => failure = Some(format!("{}: {error}", step.name.label())),
                }
            }
            // The step's end and what follows it (the next step, or the action's end) are one
            // transaction: half as many commits, and no moment between two states. A cancel is
            // read in it, so that no step starts after a cancel was recorded.
            let mut tx = self.writes.begin().await?;
            let outcome = if cancel_flag(&mut tx, deployment_id).await? {
                Outcome::Canceled
            } else if failure.is_some() {
                Outcome::Failed
            } else {
                Outcome::Done
            };
            record_step(
                &mut tx,
                (deployment_id, service_id),
                position,
                step,
                started.elapsed(),
                outcome,
            )
            .await?;
            match (outcome, plan.get(position + 1)) {
                (Outcome::Done, Some(next)) => {
                    let recorded = enter_state(&mut tx, deployment_id, service_id, next).await?;
                    tx.commit().await?;
                    self.wake_deliveries(recorded);
                }
                (Outcome::Done, None) => {
                    return self
                        .finish(
                            tx,
                            (action, sub_action),
                            deployment_id,
                            (service_id, kind),
                            git_commit_id,
                        )
                        .await;
                }
                (Outcome::Canceled, _) => {
                    return self.finish_canceled(tx, deployment_id, service_id).await;
                }
                (Outcome::Failed, _) => {
                    return self
                        .finish_failed(
                            tx,
                            deployment_id,
                            service_id,
                            action.failed(step.name),
                            &failure.unwrap_or_default(),
                        )
                        .await;
                }
            }
        }
        // A resumed action whose every step was recorded ends now.
        let tx = self.writes.begin().await?;
        self.finish(
            tx,
            (action, sub_action),
            deployment_id,
            (service_id, kind),
            git_commit_id,
        )
        .await
    }

    /// The commit at the tip of the service's branch, when its repository can be read here;
    /// `Ok(None)` when it cannot (a remote repository) or the kind is not built from git.
    async fn branch_tip(
        &self,
        service_id: Uuid,
        kind: ServiceType,
    ) -> anyhow::Result<Result<Option<String>, git::GitError>> {
        let Some((url, branch)) = self.repository_url(service_id, kind).await? else {
            return Ok(Ok(None));
        };
        let path = match self.repositories.locate(&url) {
            Ok(git::Location::Local(path)) => path,
            Ok(git::Location::Remote) => return Ok(Ok(None)),
            Err(refused) => return Ok(Err(refused)),
        };
        let revision = branch.unwrap_or_else(|| "HEAD".into());
        let tip = tokio::task::spawn_blocking(move || git::resolve(&path, &revision)).await?;
        Ok(tip.map(Some))
    }

    /// The repository the service is built from and its branch; `None` for a service not built
    /// from git (a database, a container, a job from an image, a chart from a helm repository).
    async fn repository_url(
        &self,
        service_id: Uuid,
        kind: ServiceType,
    ) -> sqlx::Result<Option<(String, Option<String>)>> {
        let Some(path) = kind.git_repository_path() else {
            return Ok(None);
        };
        let (url, branch): (Option<String>, Option<String>) = sqlx::query_as(&format!(
            "SELECT json_extract(spec, '{path}.url'), json_extract(spec, '{path}.branch')
             FROM services WHERE id = ?"
        ))
        .bind(service_id.to_string())
        .fetch_one(&self.db)
        .await?;
        Ok(url.map(|url| (url, branch)))
    }

    /// Records the commit a deployment found at its clone, so that a resume and the end of the
    /// deployment use it.
    async fn record_commit(
        &self,
        deployment_id: Uuid,
        service_id: Uuid,
        step: &PlannedStep,
        commit: &str,
    ) -> anyhow::Result<()> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("UPDATE deployments SET git_commit_id = ? WHERE id = ?")
            .bind(commit)
            .bind(deployment_id.to_string())
            .execute(&mut *tx)
            .await?;
        let message = format!("{}: the branch is at commit {commit}.", step.name.label());
        log(&mut tx, deployment_id, service_id, &message).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The value of a fault variable (`PLATFORM_FAIL_AT`, `PLATFORM_HANG_AT`) the service sees:
    /// its own, else its environment's, else its project's.
    async fn fault(&self, service_id: Uuid, variable: &str) -> anyhow::Result<Option<String>> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT v.scope, v.value FROM variables v
             JOIN services s ON s.id = ?
             JOIN environments e ON e.id = s.environment_id
             WHERE v.key = ? AND v.is_secret = 0 AND v.value IS NOT NULL
               AND v.parent_id IN (s.id, s.environment_id, e.project_id)",
        )
        .bind(service_id.to_string())
        .bind(variable)
        .fetch_all(&self.db)
        .await?;
        let depth = |scope: &str| match scope {
            "PROJECT" => 0,
            "ENVIRONMENT" => 1,
            _ => 2,
        };
        Ok(rows
            .into_iter()
            .max_by_key(|(scope, _)| depth(scope))
            .map(|(_, value)| value.trim().to_uppercase()))
    }

    /// Tells the delivery worker when a transaction recorded webhook deliveries.
    fn wake_deliveries(&self, recorded: usize) {
        if recorded > 0 {
            self.events_recorded.notify_one();
        }
    }

    /// Waits `seconds`, at the engine's speed.
    async fn wait(&self, seconds: f64) {
        tokio::time::sleep(Duration::from_secs_f64(seconds / self.speed)).await;
    }

    /// Waits `seconds` (at the engine's speed; for ever when `None`), unless a cancel is asked
    /// for or the action's time (`left`, in seconds at engine speed 1) runs out first. The time
    /// an action takes is counted in its steps' seconds, not on the clock: at a speed where a
    /// step lasts a nanosecond, the engine's own work between steps would otherwise outlast any
    /// timeout.
    async fn wait_unless_stopped(
        &self,
        seconds: Option<f64>,
        canceled: &tokio::sync::Notify,
        left: &mut f64,
    ) -> Waited {
        let (length, ends) = match seconds {
            Some(seconds) if seconds <= *left => (seconds, Waited::Elapsed),
            _ => (*left, Waited::TimedOut),
        };
        let started = Instant::now();
        let waited = tokio::select! {
            () = tokio::time::sleep(Duration::from_secs_f64(length / self.speed)) => ends,
            () = canceled.notified() => Waited::Canceled,
        };
        *left -= match waited {
            Waited::Canceled => started.elapsed().as_secs_f64() * self.speed,
            _ => length,
        };
        waited
    }

    /// The action went through: the service reaches the action's done state.
    async fn finish(
        &self,
        mut tx: Transaction<'_, Sqlite>,
        (action, sub_action): (Action, SubAction),
        deployment_id: Uuid,
        (service_id, kind): (Uuid, ServiceType),
        git_commit_id: Option<String>,
    ) -> anyhow::Result<()> {
        let now = Utc::now();
        if sub_action == SubAction::TerraformPlanOnly {
            return self.finish_plan(tx, deployment_id, service_id).await;
        }
        match action {
            Action::Deploy => {
                sqlx::query(
                    "UPDATE service_statuses
                     SET deployment_status = ?, last_deployment_date = ?, is_part_last_deployment = 1
                     WHERE service_id = ?",
                )
                .bind(DeploymentStatus::UpToDate.as_str())
                .bind(now)
                .bind(service_id.to_string())
                .execute(&mut *tx)
                .await?;
                if let (Some(commit), Some(path)) = (&git_commit_id, kind.git_repository_path()) {
                    sqlx::query(&format!(
                        "UPDATE services SET spec = json_set(spec,
                            '{path}.deployed_commit_id', ?, '{path}.deployed_commit_date', ?)
                         WHERE id = ?"
                    ))
                    .bind(commit)
                    .bind(now.to_rfc3339())
                    .bind(service_id.to_string())
                    .execute(&mut *tx)
                    .await?;
                }
            }
            // Compute and data are gone; the configuration stays, never deployed again.
            Action::Uninstall => {
                sqlx::query(
                    "UPDATE service_statuses SET deployment_status = ?, is_part_last_deployment = 0
                     WHERE service_id = ?",
                )
                .bind(DeploymentStatus::NeverDeployed.as_str())
                .bind(service_id.to_string())
                .execute(&mut *tx)
                .await?;
            }
            Action::Restart | Action::Stop => {}
        }
        let message = match action {
            Action::Deploy => "Deployed.",
            Action::Restart => "Restarted.",
            Action::Stop => "Stopped.",
            Action::Uninstall => "Uninstalled: compute and data deleted, configuration kept.",
        };
        let recorded = end(
            &mut tx,
            deployment_id,
            service_id,
            action.done(),
            ActionStatus::Success,
            message,
        )
        .await?;
        tx.commit().await?;
        self.wake_deliveries(recorded);
        Ok(())
    }

    /// A plan applies nothing: the service is left as deployed (or not) as it was.
    async fn finish_plan(
        &self,
        mut tx: Transaction<'_, Sqlite>,
        deployment_id: Uuid,
        service_id: Uuid,
    ) -> anyhow::Result<()> {
        // A write first: see `cancel`.
        sqlx::query("UPDATE deployments SET updated_at = ? WHERE id = ?")
            .bind(Utc::now())
            .bind(deployment_id.to_string())
            .execute(&mut *tx)
            .await?;
        let (deployment_status,): (String,) =
            sqlx::query_as("SELECT deployment_status FROM service_statuses WHERE service_id = ?")
                .bind(service_id.to_string())
                .fetch_one(&mut *tx)
                .await?;
        let state = if deployment_status == DeploymentStatus::NeverDeployed.as_str() {
            ServiceState::Ready
        } else {
            ServiceState::Deployed
        };
        let recorded = end(
            &mut tx,
            deployment_id,
            service_id,
            state,
            ActionStatus::Success,
            "Planned; nothing was applied.",
        )
        .await?;
        tx.commit().await?;
        self.wake_deliveries(recorded);
        Ok(())
    }

    async fn finish_failed(
        &self,
        mut tx: Transaction<'_, Sqlite>,
        deployment_id: Uuid,
        service_id: Uuid,
        state: ServiceState,
        message: &str,
    ) -> anyhow::Result<()> {
        let recorded = end(
            &mut tx,
            deployment_id,
            service_id,
            state,
            ActionStatus::Error,
            message,
        )
        .await?;
        tx.commit().await?;
        self.wake_deliveries(recorded);
        Ok(())
    }

    async fn finish_canceled(
        &self,
        mut tx: Transaction<'_, Sqlite>,
        deployment_id: Uuid,
        service_id: Uuid,
    ) -> anyhow::Result<()> {
        let recorded = end(
            &mut tx,
            deployment_id,
            service_id,
            ServiceState::Canceled,
            ActionStatus::Canceled,
            "Canceled.",
        )
        .await?;
        tx.commit().await?;
        self.wake_deliveries(recorded);
        Ok(())
    }
}

/// Enters the state of `step`, in the transaction that recorded the step before (or on its own for
/// an action's first step); returns how many webhook deliveries it recorded.
async fn enter_state(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    step: &PlannedStep,
) -> anyhow::Result<usize> {
    set_state(
        tx,
        deployment_id,
        service_id,
        step.state,
        ActionStatus::Ongoing,
    )
    .await?;
    log(
        tx,
        deployment_id,
        service_id,
        &format!("{}: started.", step.name.label()),
    )
    .await?;
    // The first step of an action starts it, once, even when a restart replays the step.
    let first =
        sqlx::query("UPDATE deployments SET started_at = ? WHERE id = ? AND started_at IS NULL")
            .bind(Utc::now())
            .bind(deployment_id.to_string())
            .execute(&mut **tx)
            .await?;
    Ok(if first.rows_affected() == 1 {
        events::emit(
            tx,
            deployment_id,
            WebhookEvent::DeploymentStarted,
            step.state,
        )
        .await?
    } else {
        0
    })
}

async fn record_step(
    tx: &mut Transaction<'_, Sqlite>,
    (deployment_id, service_id): (Uuid, Uuid),
    position: usize,
    step: &PlannedStep,
    took: Duration,
    outcome: Outcome,
) -> anyhow::Result<()> {
    let duration_sec = took.as_secs_f64().round() as i64;
    let (status, ended) = match outcome {
        Outcome::Done => (StepStatus::Success, "done"),
        Outcome::Failed => (StepStatus::Error, "failed"),
        Outcome::Canceled => (StepStatus::Cancel, "canceled"),
    };
    sqlx::query(
        "INSERT INTO deployment_steps (deployment_id, position, step_name, status, duration_sec, finished_at)
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(deployment_id.to_string())
    .bind(i64::try_from(position)?)
    .bind(step.name.as_str())
    .bind(status.as_str())
    .bind(duration_sec)
    .bind(Utc::now())
    .execute(&mut **tx)
    .await?;
    log(
        tx,
        deployment_id,
        service_id,
        &format!("{}: {ended} in {duration_sec} s.", step.name.label()),
    )
    .await?;
    Ok(())
}

/// Ends an action in `state`: the state, the end time, a last log line and the event that says
/// how it ended, in one transaction; returns how many deliveries of the event it recorded.
async fn end(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    state: ServiceState,
    action_status: ActionStatus,
    message: &str,
) -> anyhow::Result<usize> {
    set_state(tx, deployment_id, service_id, state, action_status).await?;
    sqlx::query("UPDATE deployments SET finished_at = ? WHERE id = ?")
        .bind(Utc::now())
        .bind(deployment_id.to_string())
        .execute(&mut **tx)
        .await?;
    log(tx, deployment_id, service_id, message).await?;
    let event = match action_status {
        ActionStatus::Success => WebhookEvent::DeploymentSuccessful,
        ActionStatus::Canceled => WebhookEvent::DeploymentCancelled,
        _ => WebhookEvent::DeploymentFailure,
    };
    events::emit(tx, deployment_id, event, state).await
}

async fn set_state(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    state: ServiceState,
    action_status: ActionStatus,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE deployments SET state = ?, updated_at = ? WHERE id = ?")
        .bind(state.as_str())
        .bind(Utc::now())
        .bind(deployment_id.to_string())
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE service_statuses SET state = ?, action_status = ? WHERE service_id = ?")
        .bind(state.as_str())
        .bind(action_status.as_str())
        .bind(service_id.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn log(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    message: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO deployment_logs (deployment_id, service_id, created_at, message) VALUES (?, ?, ?, ?)",
    )
    .bind(deployment_id.to_string())
    .bind(service_id.to_string())
    .bind(Utc::now())
    .bind(message)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
