//! Reads what the engine recorded: the deployments of a service, newest first, and its log lines.

use std::collections::HashMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use platform_api::{
    iso_duration, ActionStatus, AuditingData, Commit, DeployedChart, DeploymentDetails,
    DeploymentHistoryEntry, DeploymentIdentifier, HistoryOutcome, HistoryQuery, LogLine, LogQuery,
    ServiceState, ServiceType, StateTone, StatusDetails,
};
use serde_json::Value;
use sqlx::SqlitePool;
use uuid::Uuid;

use crate::error::ApiResult;
use crate::{db, git};

/// Where deployment requests come from: every request reaches the engine through the API.
pub const ORIGIN: &str = "API";

#[derive(sqlx::FromRow)]
struct DeploymentRow {
    execution_id: String,
    action: String,
    sub_action: String,
    state: String,
    git_commit_id: Option<String>,
    triggered_by: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    spec: Option<String>,
    rollback_to: Option<String>,
}

/// The service a history is read for.
pub struct HistoryOf<'a> {
    pub id: Uuid,
    pub name: &'a str,
    pub kind: ServiceType,
    /// Its git repository, when it is built from one that can be read here: the commits'
    /// messages and authors come from it.
    pub repository: Option<PathBuf>,
}

/// One page of the service's deployments, newest first, filtered as the query asks.
pub async fn page(
    db: &SqlitePool,
    service: HistoryOf<'_>,
    query: &HistoryQuery,
) -> ApiResult<Vec<DeploymentHistoryEntry>> {
    let ended_in = |outcome: HistoryOutcome| {
        let wanted = match outcome {
            HistoryOutcome::Success => ActionStatus::Success,
            HistoryOutcome::Failed => ActionStatus::Error,
        };
        ServiceState::ALL
            .iter()
            .filter(|state| action_status(**state) == wanted)
            .map(|state| format!("'{}'", state.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let status_filter = query
        .status
        .map(|outcome| format!("AND state IN ({})", ended_in(outcome)))
        .unwrap_or_default();
    let rows: Vec<DeploymentRow> = sqlx::query_as(&format!(
        "SELECT execution_id, action, sub_action, state, git_commit_id, triggered_by, created_at,
                updated_at, finished_at, spec, rollback_to
         FROM deployments
         WHERE service_id = ? {status_filter}
           AND (? IS NULL OR git_commit_id LIKE ? || '%')
           AND (? IS NULL OR instr(lower(triggered_by), lower(?)) > 0)
         ORDER BY created_at DESC, id LIMIT ? OFFSET ?"
    ))
    .bind(service.id.to_string())
    .bind(query.git_commit_id.as_deref())
    .bind(query.git_commit_id.as_deref().map(str::to_lowercase))
    .bind(query.triggered_by.as_deref())
    .bind(query.triggered_by.as_deref())
    .bind(query.page_size)
    .bind((query.page - 1) * query.page_size)
    .fetch_all(db)
    .await?;
    let commits = describe_commits(service.repository.clone(), &rows).await;
    rows.into_iter()
        .map(|row| {
            let state: ServiceState = db::wire(&row.state)?;
            let spec: Option<Value> = row
                .spec
                .as_deref()
                .and_then(|spec| serde_json::from_str(spec).ok());
            Ok(DeploymentHistoryEntry {
                identifier: DeploymentIdentifier {
                    name: service.name.to_string(),
                    service_id: service.id,
                    service_type: service.kind,
                    execution_id: row.execution_id,
                },
                status: state,
                auditing_data: AuditingData {
                    created_at: row.created_at,
                    updated_at: Some(row.updated_at),
                    triggered_by: row.triggered_by,
                    origin: ORIGIN.to_string(),
                },
                details: details(
                    service.kind,
                    spec.as_ref(),
                    row.git_commit_id.map(|id| {
                        commits.get(&id).cloned().unwrap_or_else(|| Commit {
                            // Known by its id only: its date stands for when it was deployed.
                            created_at: row.created_at,
                            git_commit_id: id,
                            tag: String::new(),
                            message: String::new(),
                            author_name: String::new(),
                            author_avatar_url: None,
                            commit_page_url: None,
                        })
                    }),
                    row.rollback_to,
                ),
                status_details: StatusDetails {
                    action: db::wire(&row.action)?,
                    status: action_status(state),
                    sub_action: db::wire(&row.sub_action)?,
                },
                icon_uri: service.kind.default_icon_uri(),
                total_duration: iso_duration(
                    (row.finished_at.unwrap_or_else(Utc::now) - row.created_at).num_seconds(),
                ),
            })
        })
        .collect()
}

/// The commits of the page, with their messages and authors, read from the repository in one
/// call; none when it cannot be read.
async fn describe_commits(
    repository: Option<PathBuf>,
    rows: &[DeploymentRow],
) -> HashMap<String, Commit> {
    let mut ids: Vec<String> = rows
        .iter()
        .filter_map(|row| row.git_commit_id.clone())
        .collect();
    ids.sort();
    ids.dedup();
    let Some(path) = repository.filter(|_| !ids.is_empty()) else {
        return HashMap::new();
    };
    let described = tokio::task::spawn_blocking(move || git::describe(&path, &ids)).await;
    match described {
        Ok(Ok(commits)) => commits
            .into_iter()
            .map(|commit| (commit.git_commit_id.clone(), commit))
            .collect(),
        Ok(Err(error)) => {
            tracing::warn!(%error, "the deployed commits could not be described");
            HashMap::new()
        }
        Err(_) => HashMap::new(),
    }
}

/// What a deployment put in place, read from the configuration it was asked with.
fn details(
    kind: ServiceType,
    spec: Option<&Value>,
    commit: Option<Commit>,
    rollback_to: Option<String>,
) -> DeploymentDetails {
    let text = |pointer: &str| {
        spec.and_then(|spec| spec.pointer(pointer))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let (image_name, tag, repository) = match kind {
        ServiceType::Container => (text("/image_name"), text("/tag"), None),
        ServiceType::Job => (
            text("/source/image/image_name"),
            text("/source/image/tag"),
            None,
        ),
        ServiceType::Helm if text("/source/repository/chart_version").is_some() => (
            None,
            None,
            Some(DeployedChart {
                chart_name: text("/source/repository/chart_name"),
                chart_version: text("/source/repository/chart_version"),
            }),
        ),
        _ => (None, None, None),
    };
    DeploymentDetails {
        commit,
        image_name,
        tag,
        repository,
        rollback_to,
    }
}

/// How far an action in `state` got.
pub fn action_status(state: ServiceState) -> ActionStatus {
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
