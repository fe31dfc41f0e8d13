//! An action run: its steps one after the other, each waited out at the engine's speed, and
//! how the action finishes (done, failed, canceled, only planned).

use platform_api::WireEnum;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use chrono::Utc;
use platform_api::{
    ActionStatus, DeploymentStatus, Job, ServiceState, ServiceType, StepName, SubAction,
    TerraformService, VariableType,
};
use sqlx::{Sqlite, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::plan;

use super::plan::{seconds_in_words, PlannedStep, QUEUE_SECONDS};
use crate::dns::Pointing;
use crate::git::{self};
use crate::store::action::Action;
use crate::store::cluster_network;
use crate::store::custom_domains;
use crate::store::organization_resources::GIT_TOKENS;
use crate::store::variables::{self, Given};

use super::rows::{self, end, enter_state, log, record_step, Outcome};

use super::tuning::Tuning;
use super::{Engine, Start};

/// The variable that makes an action fail on purpose, so that failure views can be tested: its
/// value is a step name (BUILD, DEPLOYMENT, ...) or an action (DEPLOY, RESTART, STOP, DELETE).
pub const FAIL_AT_VARIABLE: &str = "PLATFORM_FAIL_AT";

/// The variable that makes a step never end on its own, so that timeouts and cancels inside a
/// step can be tested: its value is a step name or an action, as `PLATFORM_FAIL_AT`'s.
pub const HANG_AT_VARIABLE: &str = "PLATFORM_HANG_AT";

/// How a wait of the engine ended.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Waited {
    Elapsed,
    /// A cancel was asked for.
    Canceled,
    /// The action's timeout came.
    TimedOut,
}

/// Whether a cancel of the action was asked for, read in `tx` by a write, so that the
/// transaction holds the writer from here: no cancel can land between this read and its writes.
pub(super) async fn cancel_flag(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
) -> sqlx::Result<bool> {
    let requested: bool = sqlx::query_scalar(
        "UPDATE deployments SET updated_at = ? WHERE id = ? RETURNING cancel_requested",
    )
    .bind(Utc::now())
    .bind(deployment_id.hyphenated())
    .fetch_one(&mut **tx)
    .await?;
    Ok(requested)
}

/// Enters `step`, with what the advanced settings gave it in its log.
async fn enter(
    tx: &mut Transaction<'_, Sqlite>,
    (deployment_id, service_id): (Uuid, Uuid),
    step: &PlannedStep,
    tuning: &Tuning,
) -> anyhow::Result<usize> {
    let recorded = enter_state(tx, deployment_id, service_id, step).await?;
    if let Some(note) = tuning.note(step) {
        log(tx, deployment_id, service_id, &note).await?;
    }
    Ok(recorded)
}

/// The repository a service is built from: its address, branch, and the name of the git token
/// it is read with.
pub(super) struct Repository {
    url: String,
    branch: Option<String>,
    git_token: Option<String>,
}

/// An action being run: what it is, on what, the faults asked of it, and what is left of its
/// time.
struct Run {
    deployment_id: Uuid,
    service_id: Uuid,
    kind: ServiceType,
    action: Action,
    sub_action: SubAction,
    plan: &'static [PlannedStep],
    tuning: Tuning,
    /// Known from the start when a commit was chosen, else learnt at the clone.
    git_commit_id: Option<String>,
    timeout: f64,
    left: f64,
    canceled: Arc<Notify>,
    fail_at: Option<String>,
    hang_at: Option<String>,
    /// The step at which a deployment reads its repository (its clone, else its first).
    reads_repository: usize,
}

/// What a step's end leads to.
enum Next {
    Step,
    Ended,
}

impl Engine {
    pub(super) async fn run(&self, deployment_id: Uuid, start: Start) -> anyhow::Result<()> {
        if let Some(message) = start.resuming() {
            // Said before the action is read, so that a try that breaks reading it says so too.
            let Some(service_id) = rows::service_of_unfinished(&self.db, deployment_id).await?
            else {
                return Ok(());
            };
            let mut tx = self.writes.begin().await?;
            log(&mut tx, deployment_id, service_id, message).await?;
            tx.commit().await?;
        }
        // None: a try that broke after the action had ended.
        let Some(unfinished) = rows::unfinished(&self.db, deployment_id).await? else {
            return Ok(());
        };
        let mut run = self.load(deployment_id, unfinished, start).await?;
        let done = rows::steps_recorded(&self.db, deployment_id).await?;
        if done == 0
            && self
                .stop_after_failed_stage(deployment_id, run.service_id)
                .await?
        {
            return Ok(());
        }
        let given = variables::given_to_service(&self.db, run.service_id).await?;
        if done == 0 && run.action == Action::Deploy {
            let mut tx = self.writes.begin().await?;
            log(
                &mut tx,
                deployment_id,
                run.service_id,
                &given_in_words(&given),
            )
            .await?;
            tx.commit().await?;
        }
        run.fail_at = Self::fault(&given, FAIL_AT_VARIABLE);
        run.hang_at = Self::fault(&given, HANG_AT_VARIABLE);
        for (position, step) in run.plan.iter().enumerate().skip(done) {
            // Later steps were entered in the transaction that recorded the step before.
            if position == done
                && matches!(self.enter_first(&run, position, step).await?, Next::Ended)
            {
                return Ok(());
            }
            let started = Instant::now();
            let failure = self.step(&mut run, position, step).await?;
            if matches!(
                self.end_step(&run, (position, step), started, failure)
                    .await?,
                Next::Ended
            ) {
                return Ok(());
            }
        }
        // A resumed action whose every step was recorded ends now.
        let tx = self.writes.begin().await?;
        self.finish(
            tx,
            (run.action, run.sub_action),
            deployment_id,
            (run.service_id, run.kind),
            run.git_commit_id,
        )
        .await
    }

    /// The action as the engine runs it, from its stored row, once it has waited its turn in
    /// the queue (a resumed action has had its turn).
    async fn load(
        &self,
        deployment_id: Uuid,
        unfinished: rows::Unfinished,
        start: Start,
    ) -> anyhow::Result<Run> {
        let (kind, service_id) = (unfinished.kind, unfinished.service_id);
        let canceled = self.cancel_signal(deployment_id);
        let timeout = plan::timeout_seconds(kind, unfinished.timeout_sec);
        let mut left = timeout;
        if matches!(start, Start::Queued)
            // A cancel ends the wait; the first step finds it asked for.
            && self
                .wait_unless_stopped(Some(QUEUE_SECONDS), &canceled, &mut left)
                .await
                == Waited::Canceled
        {
            canceled.notify_one();
        }
        let action = Action::from_status_action(unfinished.action)
            .ok_or_else(|| anyhow::anyhow!("deployment {deployment_id} has no known action"))?;
        let plan = plan::steps(action, kind, unfinished.sub_action);
        Ok(Run {
            deployment_id,
            service_id,
            kind,
            action,
            sub_action: unfinished.sub_action,
            plan,
            tuning: Tuning::of(&self.db, action, kind, service_id).await?,
            git_commit_id: unfinished.git_commit_id,
            timeout,
            left,
            canceled,
            fail_at: None,
            hang_at: None,
            reads_repository: plan
                .iter()
                .position(|step| step.name == StepName::GitClone)
                .unwrap_or(0),
        })
    }

    /// Enters the first step this run runs, unless a cancel came before it (that step is then
    /// the one canceled, and the action ends).
    async fn enter_first(
        &self,
        run: &Run,
        position: usize,
        step: &PlannedStep,
    ) -> anyhow::Result<Next> {
        let ids = (run.deployment_id, run.service_id);
        let mut tx = self.writes.begin().await?;
        if cancel_flag(&mut tx, run.deployment_id).await? {
            record_step(
                &mut tx,
                ids,
                position,
                step,
                Duration::ZERO,
                Outcome::Canceled,
            )
            .await?;
            self.finish_canceled(tx, run.deployment_id, run.service_id)
                .await?;
            return Ok(Next::Ended);
        }
        let recorded = enter(&mut tx, ids, step, &run.tuning).await?;
        tx.commit().await?;
        self.wake_deliveries(recorded);
        Ok(Next::Step)
    }

    /// Runs one step: waits out its length (unless canceled, timed out or hung on purpose) and
    /// does what it does; the reason it failed, if it did.
    async fn step(
        &self,
        run: &mut Run,
        position: usize,
        step: &PlannedStep,
    ) -> anyhow::Result<Option<String>> {
        let action = run.action;
        let aimed_at = |target: &Option<String>| {
            target.as_deref().is_some_and(|target| {
                target == step.name.as_str()
                    || (position == 0 && target == action.status_action().as_str())
            })
        };
        // A build past its timeout is stopped at it, even one that would never end.
        let (seconds, build_stopped) = run.tuning.length(step);
        let length = (!aimed_at(&run.hang_at) || build_stopped.is_some()).then_some(seconds);
        let canceled = run.canceled.clone();
        let waited = self
            .wait_unless_stopped(length, &canceled, &mut run.left)
            .await;
        let mut failure = aimed_at(&run.fail_at).then(|| {
            format!(
                "{}: failed on purpose ({FAIL_AT_VARIABLE}={}).",
                step.name.label(),
                run.fail_at.clone().unwrap_or_default()
            )
        });
        if waited == Waited::Elapsed && failure.is_none() {
            failure = build_stopped;
        }
        if waited == Waited::TimedOut {
            failure = Some(format!(
                "{}: the {} ran past its timeout of {} and was stopped.",
                step.name.label(),
                action.noun().to_lowercase(),
                seconds_in_words(run.timeout)
            ));
        }
        if failure.is_some() || action != Action::Deploy {
            return Ok(failure);
        }
        let (deployment_id, service_id, kind) = (run.deployment_id, run.service_id, run.kind);
        // A deployment of the branch's latest commit learns which one at its clone (at its
        // first step for the kinds whose plan shows no clone).
        if position == run.reads_repository && run.git_commit_id.is_none() {
            match self.branch_tip(service_id, kind).await? {
                Ok(Some((commit, git_token))) => {
                    let read = (step, commit.as_str(), git_token.as_deref());
                    self.record_commit(deployment_id, service_id, read).await?;
                    run.git_commit_id = Some(commit);
                }
                Ok(None) => {}
                Err(error) => return Ok(Some(format!("{}: {error}", step.name.label()))),
            }
        }
        if position == 0 && kind == ServiceType::Terraform {
            self.say_terraform_engine(deployment_id, service_id, step)
                .await?;
        }
        if kind == ServiceType::Job && step.name == StepName::Build {
            self.say_dockerfile(deployment_id, service_id, step).await?;
        }
        if plan::routing_step(kind) == Some(step.name) {
            self.check_custom_domains(deployment_id, service_id, step)
                .await?;
        }
        Ok(None)
    }

    /// Records the step's end and what follows it (the next step entered, or the action's end)
    /// in one transaction: half as many commits, and no moment between two states. A cancel is
    /// read in it, so that no step starts after a cancel was recorded.
    async fn end_step(
        &self,
        run: &Run,
        (position, step): (usize, &PlannedStep),
        started: Instant,
        failure: Option<String>,
    ) -> anyhow::Result<Next> {
        let ids = (run.deployment_id, run.service_id);
        let mut tx = self.writes.begin().await?;
        let outcome = if cancel_flag(&mut tx, run.deployment_id).await? {
            Outcome::Canceled
        } else if failure.is_some() {
            Outcome::Failed
        } else {
            Outcome::Done
        };
        record_step(&mut tx, ids, position, step, started.elapsed(), outcome).await?;
        match (outcome, run.plan.get(position + 1)) {
            (Outcome::Done, Some(next)) => {
                let recorded = enter(&mut tx, ids, next, &run.tuning).await?;
                tx.commit().await?;
                self.wake_deliveries(recorded);
                return Ok(Next::Step);
            }
            (Outcome::Done, None) => {
                self.finish(
                    tx,
                    (run.action, run.sub_action),
                    run.deployment_id,
                    (run.service_id, run.kind),
                    run.git_commit_id.clone(),
                )
                .await?;
            }
            (Outcome::Canceled, _) => {
                self.finish_canceled(tx, run.deployment_id, run.service_id)
                    .await?;
            }
            (Outcome::Failed, _) => {
                let state = run.action.failed(step.name);
                let message = failure.unwrap_or_default();
                self.finish_failed(tx, run.deployment_id, run.service_id, state, &message)
                    .await?;
            }
        }
        Ok(Next::Ended)
    }

    /// The commit at the tip of the service's branch, when its repository can be read here, and
    /// the git token it is read with; `Ok(None)` when it cannot be read (a remote repository) or
    /// the kind is not built from git.
    pub(super) async fn branch_tip(
        &self,
        service_id: Uuid,
        kind: ServiceType,
    ) -> anyhow::Result<Result<Option<(String, Option<String>)>, git::GitError>> {
        let Some(repository) =
            Self::repository(&mut *self.db.acquire().await?, service_id, kind).await?
        else {
            return Ok(Ok(None));
        };
        let read = match self.repositories.locate(&repository.url) {
            Ok(git::Location::Local(read)) => read,
            Ok(git::Location::Remote) => return Ok(Ok(None)),
            Err(refused) => return Ok(Err(refused)),
        };
        let revision = repository.branch.unwrap_or_else(|| "HEAD".into());
        let tip = git::read(move || git::resolve(&read, &revision)).await;
        Ok(tip.map(|commit| Some((commit, repository.git_token))))
    }

    /// The repository the service is built from, read through `conn` (a request queuing an
    /// action reads what its own transaction wrote); `None` for a service not built from git (a
    /// database, a container, a job from an image, a chart from a helm repository).
    pub(super) async fn repository(
        conn: &mut sqlx::SqliteConnection,
        service_id: Uuid,
        kind: ServiceType,
    ) -> sqlx::Result<Option<Repository>> {
        let Some(path) = kind.git_repository_path() else {
            return Ok(None);
        };
        #[derive(sqlx::FromRow)]
        struct Row {
            url: Option<String>,
            branch: Option<String>,
            git_token: Option<String>,
        }
        let row: Row = sqlx::query_as(&format!(
            "SELECT json_extract(s.spec, '{path}.url') AS url,
                    json_extract(s.spec, '{path}.branch') AS branch, t.name AS git_token
             FROM services s LEFT JOIN organization_resources t ON t.kind = ?
                AND t.organization_id = s.organization_id
                AND t.id = json_extract(s.spec, '{path}.git_token_id')
             WHERE s.id = ?"
        ))
        .bind(GIT_TOKENS.stored_as)
        .bind(service_id.hyphenated())
        .fetch_one(conn)
        .await?;
        Ok(row.url.map(|url| Repository {
            url,
            branch: row.branch,
            git_token: row.git_token,
        }))
    }

    /// Records the commit a deployment found at its clone, so that a resume and the end of the
    /// deployment use it.
    /// Checks the service's custom domains at the step that routes them, each outcome in the
    /// deployment's log: a domain whose DNS is not set is said so (the deployment goes on; the
    /// service stays reached at its own address).
    async fn check_custom_domains(
        &self,
        deployment_id: Uuid,
        service_id: Uuid,
        step: &PlannedStep,
    ) -> anyhow::Result<()> {
        let domains = custom_domains::of_service(&self.db, service_id).await?;
        if domains.is_empty() {
            return Ok(());
        }
        let environment_id: Hyphenated =
            sqlx::query_scalar("SELECT environment_id FROM services WHERE id = ?")
                .bind(service_id.hyphenated())
                .fetch_one(&self.db)
                .await?;
        let environment_id = environment_id.into_uuid();
        let mut conn = self.db.acquire().await?;
        let provider =
            cluster_network::dns_provider_of_environment(&mut conn, environment_id).await?;
        drop(conn);
        let pointing = Pointing::new(&provider, service_id, environment_id);
        let mut tx = self.writes.begin().await?;
        for domain in domains {
            let checked = pointing.check(&domain.domain, domain.use_cdn.unwrap_or(false));
            let message = match checked.error_details {
                // Its certificate: made here (simulated, no authority is asked), or left to
                // the CDN or proxy in front of it.
                None => format!(
                    "{}: custom domain {} routed ({}); its record {} written by {}; {}.",
                    step.name.label(),
                    domain.domain,
                    checked.status.label().to_lowercase(),
                    pointing.target,
                    provider.writer(),
                    if domain.generate_certificate {
                        "its certificate made by the platform (simulated)"
                    } else {
                        "its certificate left to the CDN or proxy in front of it"
                    }
                ),
                Some(details) => format!(
                    "{}: custom domain {} failed its check ({}): {details} The service stays reached at its own address until it passes.",
                    step.name.label(),
                    domain.domain,
                    checked.status.label().to_lowercase()
                ),
            };
            log(&mut tx, deployment_id, service_id, &message).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The service's configuration the deployment was asked with, when it reads as a `T`.
    async fn asked<T: serde::de::DeserializeOwned>(
        &self,
        deployment_id: Uuid,
    ) -> anyhow::Result<Option<T>> {
        let spec: Option<String> = sqlx::query_scalar("SELECT spec FROM deployments WHERE id = ?")
            .bind(deployment_id.hyphenated())
            .fetch_one(&self.db)
            .await?;
        Ok(spec.and_then(|spec| serde_json::from_str(&spec).ok()))
    }

    /// Says which engine and version a terraform deployment runs, read from the configuration
    /// it was asked with.
    async fn say_terraform_engine(
        &self,
        deployment_id: Uuid,
        service_id: Uuid,
        step: &PlannedStep,
    ) -> anyhow::Result<()> {
        let Some(service) = self.asked::<TerraformService>(deployment_id).await? else {
            return Ok(());
        };
        let message = format!(
            "{}: runs {}.",
            step.name.label(),
            service.provider_version.runs(service.engine)
        );
        let mut tx = self.writes.begin().await?;
        log(&mut tx, deployment_id, service_id, &message).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Says which Dockerfile a job built from git is built with: the one written with it (and
    /// the image it builds on), else the repository's.
    async fn say_dockerfile(
        &self,
        deployment_id: Uuid,
        service_id: Uuid,
        step: &PlannedStep,
    ) -> anyhow::Result<()> {
        let Some(docker) = self
            .asked::<Job>(deployment_id)
            .await?
            .and_then(|job| job.source.docker)
        else {
            return Ok(());
        };
        let built = match (&docker.dockerfile_raw, &docker.dockerfile_path) {
            (Some(raw), _) => format!(
                "the Dockerfile written with the job ({} lines, on {})",
                raw.lines().count(),
                platform_api::dockerfile_base(raw).unwrap_or("no image")
            ),
            (None, Some(path)) => format!("the repository's Dockerfile at {path}"),
            (None, None) => return Ok(()),
        };
        let message = format!(
            "{}: builds {built} in {} (simulated: no image is built).",
            step.name.label(),
            docker
                .git_repository
                .root_path
                .as_deref()
                .filter(|root| !root.is_empty() && *root != "/")
                .unwrap_or("the repository's root")
        );
        let mut tx = self.writes.begin().await?;
        log(&mut tx, deployment_id, service_id, &message).await?;
        tx.commit().await?;
        Ok(())
    }

    /// `read` is the step that read the repository, the commit, and the git token it was read
    /// with.
    pub(super) async fn record_commit(
        &self,
        deployment_id: Uuid,
        service_id: Uuid,
        (step, commit, git_token): (&PlannedStep, &str, Option<&str>),
    ) -> anyhow::Result<()> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("UPDATE deployments SET git_commit_id = ? WHERE id = ?")
            .bind(commit)
            .bind(deployment_id.hyphenated())
            .execute(&mut *tx)
            .await?;
        let message = format!("{}: the branch is at commit {commit}.", step.name.label());
        log(&mut tx, deployment_id, service_id, &message).await?;
        if let Some(token) = git_token {
            // The token is never written, only which one: and a local repository asks for none.
            let message = format!(
                "{}: read with the git token \"{token}\" (this server reads local repositories, which ask for no credential).",
                step.name.label()
            );
            log(&mut tx, deployment_id, service_id, &message).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The value of a fault variable (`PLATFORM_FAIL_AT`, `PLATFORM_HANG_AT`) among what the
    /// service is given: its own, an alias's or an override's, else its environment's, else its
    /// project's.
    fn fault(given: &[Given], variable: &str) -> Option<String> {
        given
            .iter()
            .find(|given| given.key == variable)
            .and_then(|given| given.value.as_deref())
            .map(|value| value.trim().to_uppercase())
    }

    /// An action ended (its transaction committed): the delivery worker is told of the events it
    /// recorded, and the deployments waiting for their stage look again.
    pub(super) fn ended(&self, recorded: usize) {
        self.wake_deliveries(recorded);
        self.action_ended.notify_waiters();
    }

    /// Tells the delivery worker when a transaction recorded webhook deliveries.
    pub(super) fn wake_deliveries(&self, recorded: usize) {
        if recorded > 0 {
            self.events_recorded.notify_one();
        }
    }

    /// Waits `seconds`, at the engine's speed.
    pub(super) async fn wait(&self, seconds: f64) {
        tokio::time::sleep(Duration::from_secs_f64(seconds / self.speed)).await;
    }

    /// Waits `seconds` (at the engine's speed; for ever when `None`), unless a cancel is asked
    /// for or the action's time (`left`, in seconds at engine speed 1) runs out first. The time
    /// an action takes is counted in its steps' seconds, not on the clock: at a speed where a
    /// step lasts a nanosecond, the engine's own work between steps would otherwise outlast any
    /// timeout.
    pub(super) async fn wait_unless_stopped(
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
    pub(super) async fn finish(
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
                .bind(DeploymentStatus::UpToDate)
                .bind(now)
                .bind(service_id.hyphenated())
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
                    .bind(service_id.hyphenated())
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
                .bind(DeploymentStatus::NeverDeployed)
                .bind(service_id.hyphenated())
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
        self.ended(recorded);
        Ok(())
    }

    /// A plan applies nothing: the service is left as deployed (or not) as it was.
    pub(super) async fn finish_plan(
        &self,
        mut tx: Transaction<'_, Sqlite>,
        deployment_id: Uuid,
        service_id: Uuid,
    ) -> anyhow::Result<()> {
        // A write first: see `cancel`.
        sqlx::query("UPDATE deployments SET updated_at = ? WHERE id = ?")
            .bind(Utc::now())
            .bind(deployment_id.hyphenated())
            .execute(&mut *tx)
            .await?;
        let deployment_status: String = sqlx::query_scalar(
            "SELECT deployment_status FROM service_statuses WHERE service_id = ?",
        )
        .bind(service_id.hyphenated())
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
        self.ended(recorded);
        Ok(())
    }

    pub(super) async fn finish_failed(
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
        self.ended(recorded);
        Ok(())
    }

    pub(super) async fn finish_canceled(
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
        self.ended(recorded);
        Ok(())
    }
}

/// How many variables the deployment's log names one by one.
const VARIABLES_NAMED_MAX: usize = 50;

/// The log line naming what a deployment gives the service: keys only (a value may be
/// sensitive even when not secret), an alias with the key it stands for, an override with the
/// scope it is made at.
fn given_in_words(given: &[Given]) -> String {
    if given.is_empty() {
        return "The service is given no variable.".to_string();
    }
    let named: Vec<String> = given
        .iter()
        .take(VARIABLES_NAMED_MAX)
        .map(|variable| {
            let secret = if variable.is_secret { ", secret" } else { "" };
            let how = match (&variable.aliased_key, variable.variable_type) {
                (Some(aliased), _) => format!(" (alias of {aliased}{secret})"),
                (None, VariableType::Override) => format!(
                    " (overridden at {}{secret})",
                    variable.scope.as_str().to_lowercase()
                ),
                _ if variable.is_secret => " (secret)".to_string(),
                _ => String::new(),
            };
            format!("{}{how}", variable.key)
        })
        .collect();
    let more = given.len().saturating_sub(VARIABLES_NAMED_MAX);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let noun = if given.len() == 1 {
        "variable"
    } else {
        "variables"
    };
    format!(
        "The service is given {} {noun}: {}{more}.",
        given.len(),
        named.join(", ")
    )
}
