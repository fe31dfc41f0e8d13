//! Reads the lines the engine wrote while it worked on an environment's services, in the shapes of
//! the production document's environment logs: `GET /environment/{id}/logs` (each line naming
//! its service) and the older `GET /environment/{id}/log`.

use chrono::{DateTime, Utc};
use platform_api::{
    ActionStatus, DeploymentLogDetails, DeploymentLogLine, EnvironmentLogEntry,
    EnvironmentLogScope, EnvironmentLogType, LogMessage, LogTransmitter, ServiceState, ServiceType,
    StatusKind, WireEnum, ENVIRONMENT_LOG_LINES,
};
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::history::action_status;
use crate::db;
use crate::error::ApiResult;

/// A line as read, with the service that wrote it.
#[derive(sqlx::FromRow)]
struct Line {
    id: i64,
    created_at: DateTime<Utc>,
    message: String,
    execution_id: String,
    state: ServiceState,
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    service_name: String,
    kind: ServiceType,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    #[sqlx(try_from = "db::MaybeId")]
    cluster_id: Option<Uuid>,
}

/// The environment's last `ENVIRONMENT_LOG_LINES` lines, oldest first; only those of the
/// execution `version` (a service's action, or a request on the environment) when given.
async fn lines(
    db: &SqlitePool,
    environment_id: Uuid,
    version: Option<&str>,
) -> ApiResult<Vec<Line>> {
    let mut lines: Vec<Line> = sqlx::query_as(
        "SELECT l.id, l.created_at, l.message, d.execution_id, d.state, s.id AS service_id,
                s.name AS service_name, s.kind, e.organization_id, e.cluster_id
         FROM environments e
         JOIN services s ON s.environment_id = e.id
         JOIN deployment_logs l ON l.service_id = s.id
         JOIN deployments d ON d.id = l.deployment_id
         WHERE e.id = ? AND (? IS NULL OR d.execution_id = ? OR d.environment_execution_id = ?)
         ORDER BY l.id DESC LIMIT ?",
    )
    .bind(environment_id.hyphenated())
    .bind(version)
    .bind(version)
    .bind(version)
    .bind(ENVIRONMENT_LOG_LINES)
    .fetch_all(db)
    .await?;
    lines.reverse();
    Ok(lines)
}

/// `GET /environment/{id}/logs`.
pub async fn environment_logs(
    db: &SqlitePool,
    environment_id: Uuid,
    version: Option<&str>,
) -> ApiResult<Vec<DeploymentLogLine>> {
    Ok(lines(db, environment_id, version)
        .await?
        .into_iter()
        .map(|line| DeploymentLogLine {
            kind: "Info".into(),
            timestamp: line.created_at,
            details: DeploymentLogDetails {
                organization_id: Some(line.organization_id),
                cluster_id: line.cluster_id,
                execution_id: Some(line.execution_id),
                transmitter: Some(LogTransmitter {
                    id: Some(line.service_id),
                    name: Some(line.service_name),
                    kind: Some(line.kind.label().to_string()),
                }),
            },
            message: Some(LogMessage {
                safe_message: Some(line.message),
                full_details: None,
            }),
            error: None,
        })
        .collect())
}

/// `GET /environment/{id}/log`, the older shape: each line with its service as its scope.
pub async fn environment_log(
    db: &SqlitePool,
    environment_id: Uuid,
) -> ApiResult<Vec<EnvironmentLogEntry>> {
    Ok(lines(db, environment_id, None)
        .await?
        .into_iter()
        .map(|line| {
            let state = status_kind(line.state);
            EnvironmentLogEntry {
                // Each line's id: the service's, with the line's number.
                id: Uuid::from_u64_pair(line.service_id.as_u64_pair().0, line.id as u64),
                created_at: line.created_at,
                scope: EnvironmentLogScope {
                    kind: match line.kind {
                        ServiceType::Database => EnvironmentLogType::Database,
                        _ => EnvironmentLogType::Application,
                    },
                    name: line.service_name.clone(),
                    id: line.service_id,
                },
                state,
                message: line.message,
                execution_id: line.execution_id,
                service: line.service_name,
                status: state,
            }
        })
        .collect())
}

/// Where an action in `state` stands, in the older log's words.
fn status_kind(state: ServiceState) -> StatusKind {
    match (action_status(state), state) {
        (ActionStatus::Other(_), _) => StatusKind::Waiting,
        (ActionStatus::Canceled, _) => StatusKind::Canceled,
        (ActionStatus::Canceling, _) => StatusKind::Canceling,
        (ActionStatus::Queued, _) => StatusKind::Waiting,
        (ActionStatus::Error, ServiceState::DeleteError) => StatusKind::DeleteError,
        (ActionStatus::Error, ServiceState::StopError) => StatusKind::PauseError,
        (ActionStatus::Error, _) => StatusKind::DeploymentError,
        (ActionStatus::Success, ServiceState::Deleted) => StatusKind::Deleted,
        (ActionStatus::Success, ServiceState::Stopped) => StatusKind::Paused,
        (ActionStatus::Success | ActionStatus::Never, _) => StatusKind::Deployed,
        (ActionStatus::Ongoing | ActionStatus::Executing, ServiceState::Deleting) => {
            StatusKind::DeleteInProgress
        }
        (ActionStatus::Ongoing | ActionStatus::Executing, ServiceState::Stopping) => {
            StatusKind::PauseInProgress
        }
        (ActionStatus::Ongoing | ActionStatus::Executing, _) => StatusKind::DeploymentInProgress,
    }
}
