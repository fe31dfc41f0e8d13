//! Reads what the engine recorded: the deployments of a service, newest first, and its log lines.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use platform_api::{
    iso_duration, ActionStatus, AuditingData, Commit, DeployedChart, DeploymentDetails,
    DeploymentHistoryEntry, DeploymentHistoryStage, DeploymentIdentifier, EnvironmentDeployment,
    EnvironmentDeploymentIdentifier, HistoryOutcome, HistoryQuery, ServiceState, ServiceType,
    StageStatus, StateTone, StatusAction, StatusDetails, SubAction,
};
use serde_json::Value;
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};
use crate::git;

#[derive(sqlx::FromRow)]
struct DeploymentRow {
    execution_id: String,
    action: StatusAction,
    sub_action: SubAction,
    state: ServiceState,
    git_commit_id: Option<String>,
    triggered_by: String,
    origin: String,
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
    pub repository: Option<git::Repository>,
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
            // The query refuses values it does not know.
            HistoryOutcome::Other(_) => ActionStatus::Never,
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
        "SELECT execution_id, action, sub_action, state, git_commit_id, triggered_by, origin, created_at,
                updated_at, finished_at, spec, rollback_to
         FROM deployments
         WHERE service_id = ? {status_filter}
           AND (? IS NULL OR git_commit_id LIKE ? || '%')
           AND (? IS NULL OR instr(lower(triggered_by), lower(?)) > 0)
         ORDER BY created_at DESC, id LIMIT ? OFFSET ?"
    ))
    .bind(service.id.hyphenated())
    .bind(query.git_commit_id.as_deref())
    .bind(query.git_commit_id.as_deref().map(str::to_lowercase))
    .bind(query.triggered_by.as_deref())
    .bind(query.triggered_by.as_deref())
    .bind(query.page_size)
    .bind((query.page - 1) * query.page_size)
    .fetch_all(db)
    .await?;
    Ok(entries(rows, service).await)
}

/// The service's deployments read, as its history shows them, their commits described.
async fn entries(rows: Vec<DeploymentRow>, service: HistoryOf<'_>) -> Vec<DeploymentHistoryEntry> {
    let commits = describe_commits(service.repository.clone(), &rows).await;
    rows.into_iter()
        .map(|row| entry(row, (service.id, service.name, service.kind), &commits))
        .collect()
}

/// A deployment as its service's history shows it.
fn entry(
    row: DeploymentRow,
    (service_id, name, kind): (Uuid, &str, ServiceType),
    commits: &HashMap<String, Commit>,
) -> DeploymentHistoryEntry {
    let state = row.state;
    let spec: Option<Value> = row
        .spec
        .as_deref()
        .and_then(|spec| serde_json::from_str(spec).ok());
    DeploymentHistoryEntry {
        identifier: DeploymentIdentifier {
            name: name.to_string(),
            service_id,
            service_type: kind,
            execution_id: row.execution_id,
        },
        status: state,
        auditing_data: AuditingData {
            created_at: row.created_at,
            updated_at: Some(row.updated_at),
            triggered_by: row.triggered_by,
            origin: row.origin,
        },
        details: details(
            kind,
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
            action: row.action,
            status: action_status(state),
            sub_action: row.sub_action,
        },
        icon_uri: kind.default_icon_uri(),
        total_duration: iso_duration(
            (row.finished_at.unwrap_or_else(Utc::now) - row.created_at).num_seconds(),
        ),
    }
}

/// A deployment of one of an environment's services, and the environment deployment it is part
/// of (the request on the environment that ran it, or its own).
#[derive(sqlx::FromRow)]
struct EnvironmentRow {
    grouped_as: String,
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    name: String,
    kind: ServiceType,
    /// The stage of the request it ran in, when it ran in stages.
    stage_name: Option<String>,
    #[sqlx(flatten)]
    deployment: DeploymentRow,
}

/// From the first start to the last end of a stage's deployments (to now while one runs).
struct Span {
    started: DateTime<Utc>,
    ended: Option<DateTime<Utc>>,
}

impl Span {
    fn of(deployment: &DeploymentRow) -> Self {
        Span {
            started: deployment.created_at,
            ended: deployment.finished_at,
        }
    }

    fn widen(&mut self, other: Span) {
        self.started = self.started.min(other.started);
        self.ended = self.ended.zip(other.ended).map(|(a, b)| a.max(b));
    }

    fn duration(&self) -> String {
        iso_duration((self.ended.unwrap_or_else(Utc::now) - self.started).num_seconds())
    }
}

/// Which deployments a page of a history holds.
#[derive(Clone, Copy)]
pub enum Window {
    /// The current histories': every action, by page (from 1).
    Page { page: i64, page_size: i64 },
    /// The older histories': the deploys after the execution `start` (the latest without it);
    /// none after an id that is not one of them.
    DeploysAfter(Option<Uuid>),
    /// The one request (an execution) of this id.
    Request(Uuid),
}

/// A window as the query reads it; executions are written as uuids without hyphens.
struct Bounds {
    deploys_only: bool,
    after: Option<String>,
    only: Option<String>,
    limit: i64,
    offset: i64,
}

impl Window {
    fn bounds(self) -> Bounds {
        let execution = |id: Uuid| id.simple().to_string();
        let all = Bounds {
            deploys_only: false,
            after: None,
            only: None,
            limit: 1,
            offset: 0,
        };
        match self {
            Window::Page { page, page_size } => Bounds {
                limit: page_size,
                offset: (page - 1) * page_size,
                ..all
            },
            Window::DeploysAfter(start) => Bounds {
                deploys_only: true,
                after: start.map(execution),
                limit: platform_api::DEPLOYS_PAGE_SIZE,
                ..all
            },
            Window::Request(id) => Bounds {
                only: Some(execution(id)),
                ..all
            },
        }
    }
}

/// The environment of the organization's request (an execution) `id`, if there is one.
pub async fn environment_of_request(
    db: &SqlitePool,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Option<Uuid>> {
    let environment: Option<Hyphenated> = sqlx::query_scalar(&format!(
        "SELECT s.environment_id FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE {GROUP} = ? AND s.organization_id = ? LIMIT 1"
    ))
    .bind(id.simple().to_string())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?;
    Ok(environment.map(Uuid::from))
}

/// A service's deploys after the execution `start` (the latest without it), newest first: its
/// older history.
pub async fn deploys_after(
    db: &SqlitePool,
    service: HistoryOf<'_>,
    start: Option<Uuid>,
) -> ApiResult<Vec<DeploymentHistoryEntry>> {
    let start = start.map(|id| id.simple().to_string());
    let rows: Vec<DeploymentRow> = sqlx::query_as(
        "SELECT execution_id, action, sub_action, state, git_commit_id, triggered_by, origin, created_at,
                updated_at, finished_at, spec, rollback_to
         FROM deployments
         WHERE service_id = ? AND action = 'DEPLOY'
           AND (? IS NULL OR rowid < (SELECT rowid FROM deployments WHERE service_id = ? AND execution_id = ?))
         ORDER BY rowid DESC LIMIT ?",
    )
    .bind(service.id.hyphenated())
    .bind(start.as_deref())
    .bind(service.id.hyphenated())
    .bind(start.as_deref())
    .bind(platform_api::DEPLOYS_PAGE_SIZE)
    .fetch_all(db)
    .await?;
    Ok(entries(rows, service).await)
}

/// What makes the group of an environment's deployment: the request on the environment, or the
/// service's own action.
const GROUP: &str = "COALESCE(d.environment_execution_id, d.execution_id)";

/// One page of the environment's deployments, newest first: the actions a request on the
/// environment ran together (deploy all, a selection), or one service's own.
pub async fn environment_page(
    db: &SqlitePool,
    repositories: &git::Repositories,
    environment_id: Uuid,
    window: Window,
) -> ApiResult<Vec<EnvironmentDeployment>> {
    let bounds = window.bounds();
    let groups: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT {GROUP} AS grouped_as FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE s.environment_id = ? AND (NOT ? OR d.action = 'DEPLOY')
         GROUP BY grouped_as
         HAVING (? IS NULL OR MIN(d.rowid) < (SELECT MIN(rowid) FROM deployments WHERE {GROUP_OF_ANY} = ?))
            AND (? IS NULL OR grouped_as = ?)
         ORDER BY MIN(d.rowid) DESC LIMIT ? OFFSET ?",
        GROUP_OF_ANY = GROUP.replace("d.", ""),
    ))
    .bind(environment_id.hyphenated())
    .bind(bounds.deploys_only)
    .bind(bounds.after.as_deref())
    .bind(bounds.after.as_deref())
    .bind(bounds.only.as_deref())
    .bind(bounds.only.as_deref())
    .bind(bounds.limit)
    .bind(bounds.offset)
    .fetch_all(db)
    .await?;
    let wanted: Vec<&str> = groups.iter().map(String::as_str).collect();
    let rows: Vec<EnvironmentRow> = sqlx::query_as(&format!(
        "SELECT {GROUP} AS grouped_as, s.id AS service_id, s.name, s.kind, d.stage_name, d.execution_id,
                d.action, d.sub_action, d.state, d.git_commit_id, d.triggered_by, d.origin, d.created_at,
                d.updated_at, d.finished_at, d.spec, d.rollback_to
         FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE s.environment_id = ? AND {GROUP} IN (SELECT value FROM json_each(?))
         ORDER BY d.stage_position, s.name"
    ))
    .bind(environment_id.hyphenated())
    .bind(serde_json::to_string(&wanted).map_err(ApiError::internal)?)
    .fetch_all(db)
    .await?;
    let mut by_group: HashMap<String, Vec<EnvironmentRow>> = HashMap::new();
    for row in rows {
        by_group
            .entry(row.grouped_as.clone())
            .or_default()
            .push(row);
    }
    let commits = environment_commits(repositories, by_group.values().flatten()).await;
    groups
        .into_iter()
        .filter_map(|group| Some((by_group.remove(&group)?, group)))
        .map(|(rows, group)| {
            let mut started = None::<DateTime<Utc>>;
            let mut ended = Some(DateTime::<Utc>::MIN_UTC);
            let mut updated = DateTime::<Utc>::MIN_UTC;
            // Each stage's services, in the order the stages ran.
            let mut stages: Vec<(String, Vec<DeploymentHistoryEntry>, Span)> = Vec::new();
            for row in rows {
                let deployment = &row.deployment;
                started =
                    Some(started.map_or(deployment.created_at, |s| s.min(deployment.created_at)));
                ended = ended.zip(deployment.finished_at).map(|(a, b)| a.max(b));
                updated = updated.max(deployment.updated_at);
                let stage = row
                    .stage_name
                    .clone()
                    .unwrap_or_else(|| "Services".to_string());
                let span = Span::of(deployment);
                let service = entry(
                    row.deployment,
                    (row.service_id, &row.name, row.kind),
                    &commits,
                );
                match stages.last_mut() {
                    Some((name, services, spanned)) if *name == stage => {
                        services.push(service);
                        spanned.widen(span);
                    }
                    _ => stages.push((stage, vec![service], span)),
                }
            }
            let services: Vec<DeploymentHistoryEntry> = stages
                .iter()
                .flat_map(|(_, services, _)| services.iter().cloned())
                .collect();
            let started = started.unwrap_or_else(Utc::now);
            let duration = iso_duration((ended.unwrap_or_else(Utc::now) - started).num_seconds());
            let stage = StageStatus::of(&services);
            let first = &services[0];
            // The environment is where its least advanced service is.
            let telling = services
                .iter()
                .find(|service| StageStatus::of(std::slice::from_ref(service)) == stage)
                .unwrap_or(first);
            Ok(EnvironmentDeployment {
                identifier: EnvironmentDeploymentIdentifier {
                    execution_id: group,
                    environment_id,
                },
                auditing_data: AuditingData {
                    created_at: started,
                    updated_at: Some(updated),
                    triggered_by: first.auditing_data.triggered_by.clone(),
                    origin: first.auditing_data.origin.clone(),
                },
                status: telling.status,
                trigger_action: first.status_details.action,
                total_duration: duration.clone(),
                stages: stages
                    .into_iter()
                    .map(|(name, services, span)| DeploymentHistoryStage {
                        name,
                        status: StageStatus::of(&services),
                        duration: span.duration(),
                        services,
                    })
                    .collect(),
                action_status: stage.action_status(),
            })
        })
        .collect()
}

/// The commits an environment's deployments deployed, each read from its service's repository
/// when it is one this server reads: one `git log` per repository.
async fn environment_commits<'r>(
    repositories: &git::Repositories,
    rows: impl Iterator<Item = &'r EnvironmentRow>,
) -> HashMap<String, Commit> {
    let mut by_repository: HashMap<git::Repository, Vec<&DeploymentRow>> = HashMap::new();
    for row in rows {
        let deployment = &row.deployment;
        let url = (|| {
            let kind = row.kind;
            let spec: Value = serde_json::from_str(deployment.spec.as_deref()?).ok()?;
            let pointer = kind
                .git_repository_path()?
                .trim_start_matches('$')
                .replace('.', "/");
            spec.pointer(&format!("{pointer}/url"))?
                .as_str()
                .map(str::to_string)
        })();
        if let Some(git::Location::Local(repository)) =
            url.and_then(|url| repositories.locate(&url).ok())
        {
            by_repository
                .entry(repository)
                .or_default()
                .push(deployment);
        }
    }
    let mut commits = HashMap::new();
    for (repository, rows) in by_repository {
        commits.extend(describe_commits(Some(repository), rows).await);
    }
    commits
}

/// The commits of the page, with their messages and authors, read from the repository in one
/// call; none when it cannot be read.
async fn describe_commits<'r>(
    repository: Option<git::Repository>,
    rows: impl IntoIterator<Item = &'r DeploymentRow>,
) -> HashMap<String, Commit> {
    let mut ids: Vec<String> = rows
        .into_iter()
        .filter_map(|row| row.git_commit_id.clone())
        .collect();
    ids.sort();
    ids.dedup();
    let Some(repository) = repository.filter(|_| !ids.is_empty()) else {
        return HashMap::new();
    };
    match git::read(move || git::describe(&repository, &ids)).await {
        Ok(commits) => commits
            .into_iter()
            .map(|commit| (commit.git_commit_id.clone(), commit))
            .collect(),
        Err(error) => {
            tracing::warn!(%error, "the deployed commits could not be described");
            HashMap::new()
        }
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
