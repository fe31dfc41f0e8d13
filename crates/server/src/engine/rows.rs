//! The rows an action's run writes: the service's state, each step, the action's end (and its
//! entry in the audit log), its log lines.

use platform_api::WireEnum;
use std::time::Duration;

use chrono::Utc;
use platform_api::audit::{EventType, Origin};
use platform_api::{
    ActionStatus, ServiceState, ServiceType, StatusAction, StepStatus, SubAction, WebhookEvent,
};
use sqlx::{Sqlite, SqlitePool, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::plan::PlannedStep;
use crate::audit::{self, Change, Target};
use crate::events;

/// How a step ends.
#[derive(Clone, Copy)]
pub(super) enum Outcome {
    Done,
    Failed,
    Canceled,
}

/// Enters the state of `step`, in the transaction that recorded the step before (or on its own for
/// an action's first step); returns how many webhook deliveries it recorded.
pub(super) async fn enter_state(
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
            .bind(deployment_id.hyphenated())
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

pub(super) async fn record_step(
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
    .bind(deployment_id.hyphenated())
    .bind(i64::try_from(position)?)
    .bind(step.name)
    .bind(status)
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
pub(super) async fn end(
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
        .bind(deployment_id.hyphenated())
        .execute(&mut **tx)
        .await?;
    log(tx, deployment_id, service_id, message).await?;
    record_end(tx, deployment_id, service_id, action_status).await?;
    let event = match action_status {
        ActionStatus::Success => WebhookEvent::DeploymentSuccessful,
        ActionStatus::Canceled => WebhookEvent::DeploymentCancelled,
        _ => WebhookEvent::DeploymentFailure,
    };
    events::emit(tx, deployment_id, event, state).await
}

/// Who the audit log names as ending an action.
const ENDED_BY: &str = "Deployment engine";

/// Records in the audit log how the action ended (DEPLOYED, DEPLOY_FAILED, RESTARTED, …), as the
/// platform does: what places deployments on a chart's time axis. A canceled action's end is its
/// cancel's entry.
async fn record_end(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    action_status: ActionStatus,
) -> anyhow::Result<()> {
    #[derive(sqlx::FromRow)]
    struct Ended {
        action: StatusAction,
        plan_only: bool,
        #[sqlx(try_from = "Hyphenated")]
        organization_id: Uuid,
        git_commit_id: Option<String>,
    }
    let ended: Option<Ended> = sqlx::query_as(
        "SELECT d.action, d.sub_action = ? AS plan_only, s.organization_id, d.git_commit_id
         FROM deployments d JOIN services s ON s.id = d.service_id WHERE d.id = ?",
    )
    .bind(SubAction::TerraformPlanOnly)
    .bind(deployment_id.hyphenated())
    .fetch_optional(&mut **tx)
    .await
    .unwrap_or_else(|error| {
        // A row the engine cannot read still ends: without its entry.
        tracing::warn!(deployment = %deployment_id, %error, "the action's end is not in the audit log");
        None
    });
    let Some(ended) = ended else {
        return Ok(());
    };
    let succeeded = action_status == ActionStatus::Success;
    let event = match (ended.action, succeeded) {
        _ if ended.plan_only => return Ok(()),
        _ if action_status == ActionStatus::Canceled => return Ok(()),
        (StatusAction::Deploy, true) => EventType::Deployed,
        (StatusAction::Deploy, false) => EventType::DeployFailed,
        (StatusAction::Restart, true) => EventType::Restarted,
        (StatusAction::Restart, false) => EventType::RestartFailed,
        (StatusAction::Stop, true) => EventType::Stopped,
        (StatusAction::Stop, false) => EventType::StopFailed,
        (StatusAction::Delete, true) => EventType::Uninstalled,
        (StatusAction::Delete, false) => EventType::UninstallFailed,
        _ => return Ok(()),
    };
    let target = Target::service(tx, service_id).await?;
    let change = Change::new(event, target).after(&serde_json::json!({
        "execution_id": deployment_id.simple().to_string(),
        "git_commit_id": ended.git_commit_id,
    }));
    audit::record_as(
        tx,
        (ended.organization_id, ENDED_BY),
        Origin::PlatformInternal,
        change,
    )
    .await?;
    Ok(())
}

pub(super) async fn set_state(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    state: ServiceState,
    action_status: ActionStatus,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE deployments SET state = ?, updated_at = ? WHERE id = ?")
        .bind(state)
        .bind(Utc::now())
        .bind(deployment_id.hyphenated())
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE service_statuses SET state = ?, action_status = ? WHERE service_id = ?")
        .bind(state)
        .bind(action_status)
        .bind(service_id.hyphenated())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Adds a line to a deployment's log: one line, whatever the values it names hold.
pub(super) async fn log(
    tx: &mut Transaction<'_, Sqlite>,
    deployment_id: Uuid,
    service_id: Uuid,
    message: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO deployment_logs (deployment_id, service_id, created_at, message) VALUES (?, ?, ?, ?)",
    )
    .bind(deployment_id.hyphenated())
    .bind(service_id.hyphenated())
    .bind(Utc::now())
    .bind(platform_api::escape::log_line(message))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An action not finished yet, as the engine loads it to run it.
#[derive(sqlx::FromRow)]
pub(super) struct Unfinished {
    #[sqlx(try_from = "Hyphenated")]
    pub service_id: Uuid,
    pub kind: ServiceType,
    pub action: StatusAction,
    pub sub_action: SubAction,
    pub git_commit_id: Option<String>,
    /// The service's own timeout (helm and terraform services have one).
    pub timeout_sec: Option<i64>,
}

/// The service of the action `deployment_id`, unless the action has ended.
pub(super) async fn service_of_unfinished(
    db: &SqlitePool,
    deployment_id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    let service: Option<Hyphenated> = sqlx::query_scalar(
        "SELECT service_id FROM deployments WHERE id = ? AND finished_at IS NULL",
    )
    .bind(deployment_id.hyphenated())
    .fetch_optional(db)
    .await?;
    Ok(service.map(Hyphenated::into_uuid))
}

/// The action `deployment_id` with its service, unless it has ended.
pub(super) async fn unfinished(
    db: &SqlitePool,
    deployment_id: Uuid,
) -> sqlx::Result<Option<Unfinished>> {
    sqlx::query_as(
        "SELECT d.service_id, s.kind, d.action, d.sub_action, d.git_commit_id,
                json_extract(s.spec, '$.timeout_sec') AS timeout_sec
         FROM deployments d
         JOIN services s ON s.id = d.service_id WHERE d.id = ? AND d.finished_at IS NULL",
    )
    .bind(deployment_id.hyphenated())
    .fetch_optional(db)
    .await
}

/// How many of the action's steps were recorded (a resumed action starts after them).
pub(super) async fn steps_recorded(db: &SqlitePool, deployment_id: Uuid) -> anyhow::Result<usize> {
    let recorded: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM deployment_steps WHERE deployment_id = ?")
            .bind(deployment_id.hyphenated())
            .fetch_one(db)
            .await?;
    Ok(usize::try_from(recorded)?)
}
