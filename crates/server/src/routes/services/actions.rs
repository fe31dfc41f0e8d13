//! A service's actions: deploy (with what it pins and rolls back to), redeploy, restart, stop,
//! uninstall, cancel; and what it has done: its history, its commits, its instances' log.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use platform_api::audit::EventType;
use platform_api::{
    Commit, Contributor, DeployRequest, DeployedService, DeployedServicePage,
    DeploymentHistoryPage, DeploysQuery, FieldError, GitSource, HistoryQuery, InstanceLogLine,
    List, ServiceDeploy, ServiceDeployPage, Status,
};
use sqlx::{Sqlite, Transaction};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::Caller;
use crate::engine::{self, admission::Queued, rollback};
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::git;
use crate::state::AppState;
use crate::store::action::{Action, Request};
use crate::store::scope::Scope;

use crate::routes::services::records::find;
use crate::routes::services::resource::ServiceResource;
use crate::store::services as store;

/// Restart, stop or uninstall.
async fn act<R: ServiceResource>(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    action: Action,
) -> ApiResult<(StatusCode, Json<Status>)> {
    find::<R>(state, caller, id).await?;
    let status = state.engine.request(action, id, caller).await?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}

pub(super) async fn restart<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    act::<R>(&state, &caller, id, Action::Restart).await
}

pub(super) async fn stop<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    act::<R>(&state, &caller, id, Action::Stop).await
}

pub(super) async fn uninstall<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    act::<R>(&state, &caller, id, Action::Uninstall).await
}

pub(super) async fn redeploy<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    find::<R>(&state, &caller, id).await?;
    let mut tx = state.engine.begin().await?;
    let request = Request::redeploy(&mut tx, id).await?;
    let queued = state
        .engine
        .queue(&mut tx, request, id, (&caller).into())
        .await?;
    let target = Target::service(&mut tx, id).await?;
    audit::record(
        &mut tx,
        &caller,
        Change::new(EventType::TriggerRedeploy, target),
    )
    .await?;
    tx.commit().await?;
    state.engine.start(queued.deployment_id);
    Ok((StatusCode::ACCEPTED, Json(queued.status)))
}

pub(super) async fn cancel<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    find::<R>(&state, &caller, id).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(state.engine.cancel(id, &caller).await?),
    ))
}

pub(super) async fn history<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> ApiResult<Json<DeploymentHistoryPage>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    query.validate().map_err(ApiError::invalid)?;
    let service = history_of::<R>(&state, id, &record);
    let results = engine::history::page(&state.db, service, &query).await?;
    Ok(Json(DeploymentHistoryPage {
        page: query.page,
        page_size: query.page_size,
        results,
    }))
}

/// The older shape of an application's history: its deploys, after `startId`.
pub(super) async fn application_deploys<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<DeploysQuery>,
) -> ApiResult<Json<ServiceDeployPage>> {
    let results = deploys_after::<R>(&state, &caller, id, query).await?;
    Ok(Json(ServiceDeployPage {
        page: 1,
        page_size: platform_api::DEPLOYS_PAGE_SIZE,
        results: results.into_iter().map(ServiceDeploy::from).collect(),
    }))
}

/// The older shape of another kind's history: its deploys, after `startId`.
pub(super) async fn deploys<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<DeploysQuery>,
) -> ApiResult<Json<DeployedServicePage>> {
    let results = deploys_after::<R>(&state, &caller, id, query).await?;
    Ok(Json(DeployedServicePage {
        page: 1,
        page_size: platform_api::DEPLOYS_PAGE_SIZE,
        results: results.into_iter().map(DeployedService::from).collect(),
    }))
}

async fn deploys_after<R: ServiceResource>(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    query: DeploysQuery,
) -> ApiResult<Vec<platform_api::DeploymentHistoryEntry>> {
    let (record, _) = find::<R>(state, caller, id).await?;
    let service = history_of::<R>(state, id, &record);
    engine::history::deploys_after(&state.db, service, query.start_id).await
}

/// The service whose history is read, with its repository when this server reads it (the
/// commits' messages and authors come from it).
fn history_of<'r, R: ServiceResource>(
    state: &AppState,
    id: Uuid,
    record: &'r R::Record,
) -> engine::history::HistoryOf<'r> {
    let repository = record.git_repository().and_then(|repository| {
        match state.engine.repositories.locate(&repository.url) {
            Ok(git::Location::Local(read)) => Some(read),
            _ => None,
        }
    });
    engine::history::HistoryOf {
        id,
        name: R::name(record),
        kind: R::TYPE,
        repository,
    }
}

#[derive(serde::Deserialize)]
pub(super) struct CommitParameters {
    #[serde(rename = "startId")]
    start_id: Option<String>,
    #[serde(rename = "gitCommitId")]
    git_commit_id: Option<String>,
}

/// The repository the service is built from; 400 when it is not built from one.
pub(super) fn git_repository_of<R: ServiceResource>(
    record: &R::Record,
) -> ApiResult<platform_api::GitRepository> {
    record.git_repository().cloned().ok_or_else(|| {
        ApiError::unanswerable(
            "NO_GIT_REPOSITORY",
            format!("This {} is not built from a git repository.", R::WHAT),
        )
    })
}

pub(super) async fn commits<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<CommitParameters>,
) -> ApiResult<Json<List<Commit>>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    let repository = git_repository_of::<R>(&record)?;
    let read = state.engine.repositories.local(&repository.url)?;
    let commits = git::read(move || {
        git::commits(
            &read,
            &git::CommitQuery {
                branch: repository.branch.as_deref(),
                start_after: query.start_id.as_deref(),
                only: query.git_commit_id.as_deref(),
            },
        )
    })
    .await?;
    Ok(Json(List::new(commits)))
}

pub(super) async fn contributors<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Contributor>>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    let repository = git_repository_of::<R>(&record)?;
    let read = state.engine.repositories.local(&repository.url)?;
    let authors = git::read(move || git::contributors(&read, repository.branch.as_deref())).await?;
    let contributors = authors
        .into_iter()
        .map(|author| {
            let (first_name, last_name) = match author.name.split_once(' ') {
                Some((first, last)) => (first.to_string(), Some(last.to_string())),
                None => (author.name.clone(), None),
            };
            let email = author.email;
            Contributor {
                // The same person, by email, the same id at every read.
                id: Some(Uuid::new_v5(
                    &Uuid::NAMESPACE_URL,
                    format!("mailto:{email}").as_bytes(),
                )),
                created_at: Some(author.first),
                updated_at: Some(author.last),
                first_name: Some(first_name),
                last_name,
                email: Some(email),
                profile_picture_url: None,
            }
        })
        .collect();
    Ok(Json(List::new(contributors)))
}

pub(super) async fn instance_log<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<List<InstanceLogLine>>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    Ok(Json(List::new(
        engine::instances::instance_log(&state.db, id, R::name(&record)).await?,
    )))
}

pub(super) async fn deploy<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<DeployRequest>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    let asked = serde_json::to_value(&request).map_err(ApiError::internal)?;
    let prepared = prepare_deploy::<R>(&state, &caller, id, request).await?;
    let mut tx = state.engine.begin().await?;
    let queued = prepared.queue(&state, &mut tx, &caller, None).await?;
    let target = Target::service(&mut tx, id).await?;
    let change = Change::new(EventType::TriggerDeploy, target).after(&asked);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    state.engine.start(queued.deployment_id);
    Ok((StatusCode::ACCEPTED, Json(queued.status)))
}

/// A deployment checked and ready to start: what it sets in the service's configuration (an
/// image tag, a chart version), the earlier deployment it rolls back to, the commit.
pub struct PreparedDeploy {
    id: Uuid,
    /// `(path in the configuration, value)`.
    pinned: Vec<(&'static str, String)>,
    rollback: Option<rollback::Deployed>,
    restored: &'static [&'static str],
    commit: Option<String>,
    plan_only: bool,
}

/// Checks a deploy of the service (its rules, its commit, the deployment it rolls back to)
/// without changing anything.
pub async fn prepare_deploy<R: ServiceResource>(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
    request: DeployRequest,
) -> ApiResult<PreparedDeploy> {
    let (record, _) = find::<R>(state, caller, id).await?;
    let repository = record.git_repository().cloned();
    let image_tag_at = R::image_tag_at(&record);
    let chart_version_at = R::chart_version_at(&record);
    request
        .validate(
            R::TYPE,
            repository.is_some(),
            image_tag_at.is_some(),
            chart_version_at.is_some(),
        )
        .map_err(ApiError::invalid)?;
    // What the request sets in the service's configuration: each `(field, path, value)`.
    let pinned: Vec<(&str, &'static str, String)> = [
        ("image_tag", image_tag_at, request.image_tag.as_deref()),
        (
            "chart_version",
            chart_version_at,
            request.chart_version.as_deref(),
        ),
    ]
    .into_iter()
    .filter_map(|(field, path, value)| Some((field, path?, value?.trim().to_string())))
    .collect();
    let rollback = match request.rollback_to.as_deref() {
        Some(execution) => {
            let deployed = rollback::deployed(&state.db, id, execution.trim()).await?;
            let mut given: Vec<(&str, Option<&str>, &str)> = pinned
                .iter()
                .map(|(field, path, value)| (*field, Some(*path), value.as_str()))
                .collect();
            given.extend(
                request
                    .git_commit_id
                    .as_deref()
                    .map(|c| ("git_commit_id", None, c)),
            );
            deployed.agrees_with(&given).map_err(ApiError::invalid)?;
            Some(deployed)
        }
        None => None,
    };
    let plan_only = request.plans_only();
    let commit = match (rollback.as_ref(), request.git_commit_id, repository) {
        (Some(deployed), _, _) => deployed.git_commit_id.clone(),
        (None, Some(commit), Some(repository)) => {
            Some(known_commit(&state.engine.repositories, &repository.url, commit).await?)
        }
        (None, commit, _) => commit,
    };
    Ok(PreparedDeploy {
        id,
        pinned: pinned
            .into_iter()
            .map(|(_, path, value)| (path, value))
            .collect(),
        rollback,
        restored: R::RESTORED_BY_ROLLBACK,
        commit,
        plan_only,
    })
}

impl PreparedDeploy {
    /// Sets what the deploy pins in the service's configuration and queues it in `tx` (as one
    /// of the actions of a request on its environment, when `environment_execution_id` says
    /// which); nothing runs before `Engine::start`.
    pub async fn queue(
        self,
        state: &AppState,
        tx: &mut Transaction<'_, Sqlite>,
        caller: &Caller,
        environment_execution_id: Option<&str>,
    ) -> ApiResult<Queued> {
        let id = self.id;
        if !self.pinned.is_empty() || self.rollback.is_some() {
            // What is deployed becomes the service's, as an update would make it.
            crate::store::scope::ensure_idle(tx, Scope::Service(id)).await?;
            for (path, value) in &self.pinned {
                store::set_in_record(tx, id, path, value).await?;
            }
            if let Some(deployed) = &self.rollback {
                deployed.restore(tx, id, self.restored).await?;
            }
        }
        state
            .engine
            .queue(
                tx,
                Request {
                    action: Action::Deploy,
                    git_commit_id: self.commit,
                    plan_only: self.plan_only,
                    rollback_to: self.rollback.map(|deployed| deployed.execution_id),
                    environment_execution_id: environment_execution_id.map(str::to_string),
                    stage: None,
                },
                id,
                caller.into(),
            )
            .await
    }
}

/// The full id of `commit` when the repository can be read here (400 naming `git_commit_id` if
/// it has no such commit); `commit` as given when it is remote, as the build would find out.
async fn known_commit(
    repositories: &git::Repositories,
    url: &str,
    commit: String,
) -> ApiResult<String> {
    let read = match repositories.locate(url)? {
        git::Location::Local(read) => read,
        git::Location::Remote => return Ok(commit),
    };
    let resolved = git::read(move || {
        Ok(match git::resolve(&read, &commit) {
            // A repository that reads (it has a HEAD) but not this commit: the request is wrong.
            Err(git::GitError::Failed(_)) if git::resolve(&read, "HEAD").is_ok() => None,
            resolved => Some(resolved?),
        })
    })
    .await?;
    resolved.ok_or_else(|| {
        ApiError::invalid(vec![FieldError::new(
            "git_commit_id",
            "is not a commit of the service's repository",
        )])
    })
}
