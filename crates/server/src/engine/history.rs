//! Reads what the engine recorded: the deployments of a service, newest first, and its log lines.

use chrono::{DateTime, Utc};
use platform_api::{
    iso_duration, ActionStatus, AuditingData, Commit, DeploymentDetails, DeploymentHistoryEntry,
    DeploymentIdentifier, HistoryQuery, LogLine, LogQuery, ServiceState, ServiceType, StateTone,
    StatusDetails,
};
use sqlx::SqlitePool;
use uuid::Uuid;

use crate::db;
use crate::error::ApiResult;

/// Where deployment requests come from: every request reaches the engine through the API.
const ORIGIN: &str = "API";

type DeploymentRow = (
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    DateTime<Utc>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
);

/// One page of the service's deployments, newest first.
pub async fn page(
    db: &SqlitePool,
    service_id: Uuid,
    service_name: &str,
    service_type: ServiceType,
    query: HistoryQuery,
) -> ApiResult<Vec<DeploymentHistoryEntry>> {
    let rows: Vec<DeploymentRow> = sqlx::query_as(
        "SELECT execution_id, action, sub_action, state, git_commit_id, triggered_by, created_at, updated_at,
                finished_at
         FROM deployments WHERE service_id = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?",
    )
    .bind(service_id.to_string())
    .bind(query.page_size)
    .bind((query.page - 1) * query.page_size)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|row| {
            let (
                execution_id,
                action,
                sub_action,
                state,
                commit,
                triggered_by,
                created_at,
                updated_at,
                finished_at,
            ) = row;
            let state: ServiceState = db::wire(&state)?;
            Ok(DeploymentHistoryEntry {
                identifier: DeploymentIdentifier {
                    name: service_name.to_string(),
                    service_id,
                    service_type,
                    execution_id,
                },
                status: state,
                auditing_data: AuditingData {
                    created_at,
                    updated_at: Some(updated_at),
                    triggered_by,
                    origin: ORIGIN.to_string(),
                },
                details: DeploymentDetails {
                    // The entry keeps the commit's id only: its date stands for when it was
                    // deployed, and its message and author are left empty.
                    commit: commit.map(|git_commit_id| Commit {
                        created_at,
                        git_commit_id,
                        tag: String::new(),
                        message: String::new(),
                        author_name: String::new(),
                        author_avatar_url: None,
                        commit_page_url: None,
                    }),
                },
                status_details: StatusDetails {
                    action: db::wire(&action)?,
                    status: action_status(state),
                    sub_action: db::wire(&sub_action)?,
                },
                icon_uri: service_type.default_icon_uri(),
                total_duration: iso_duration(
                    (finished_at.unwrap_or_else(Utc::now) - created_at).num_seconds(),
                ),
            })
        })
        .collect()
}

/// How far an action in `state` got.
fn action_status(state: ServiceState) -> ActionStatus {
    match (state, state.tone()) {
        (ServiceState::Canceled, _) => ActionStatus::Canceled,
        (ServiceState::Canceling, _) => ActionStatus::Canceling,
        (ServiceState::Executing, _) => ActionStatus::Executing,
        (_, StateTone::Progress) if state.as_str().ends_with("_QUEUED") => ActionStatus::Queued,
        (_, StateTone::Progress) => ActionStatus::Ongoing,
        (_, StateTone::Failure) => ActionStatus::Error,
        _ => ActionStatus::Success,
    }
}

/// The service's last log lines, oldest first; of one execution when the query names it.
pub async fn log(db: &SqlitePool, service_id: Uuid, query: &LogQuery) -> ApiResult<Vec<LogLine>> {
    let rows: Vec<(i64, DateTime<Utc>, String, String)> = sqlx::query_as(
        "SELECT l.id, l.created_at, d.execution_id, l.message
         FROM deployment_logs l JOIN deployments d ON d.id = l.deployment_id
         WHERE l.service_id = ? AND (? IS NULL OR d.execution_id = ?)
         ORDER BY l.id DESC LIMIT ?",
    )
    .bind(service_id.to_string())
    .bind(query.execution_id.as_deref())
    .bind(query.execution_id.as_deref())
    .bind(query.tail)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .rev()
        .map(|(line, created_at, execution_id, message)| LogLine {
            // The platform gives each line an id: the service's, with the line's number.
            id: Uuid::from_u64_pair(service_id.as_u64_pair().0, line as u64),
            created_at,
            execution_id,
            message,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_status_follows_the_state() {
        assert_eq!(
            action_status(ServiceState::DeploymentQueued),
            ActionStatus::Queued
        );
        assert_eq!(action_status(ServiceState::Building), ActionStatus::Ongoing);
        assert_eq!(action_status(ServiceState::Deployed), ActionStatus::Success);
        assert_eq!(action_status(ServiceState::BuildError), ActionStatus::Error);
        assert_eq!(
            action_status(ServiceState::Canceled),
            ActionStatus::Canceled
        );
    }
}
