//! Services of every kind share one shape: listed and created in an environment, read, updated
//! and deleted by id, with a status. They are stored in `services` (the record as JSON) with a
//! row in `service_statuses`. Each kind says its paths, types and rules by implementing
//! `ServiceResource`.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::EventType;
use platform_api::{
    Commit, DeployRequest, DeploymentHistoryPage, FieldError, GitSource, HistoryOutcome,
    HistoryQuery, InstanceLogLine, List, ServiceType, Status,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use sqlx::{Sqlite, SqliteConnection, SqlitePool, Transaction};
use utoipa::ToSchema;
use uuid::Uuid;

use super::environments::find_environment;
use super::organization_resources::ensure_exists;
use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine::action::{Action, Request};
use crate::engine::{self, rollback, status, Queued, Scope};
use crate::error::{from_json, ApiError, ApiJson, ApiPath, ApiQuery, ApiResult, UniqueViolation};
use crate::fresh::Read;
use crate::git;
use crate::routes::doc::{self, Doc};
use crate::routes::raw_json::{self, Asked, StoredList};
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::{Kind, Secrets};

pub trait ServiceResource: Send + Sync + 'static {
    const TYPE: ServiceType;
    /// The kind in messages: "application".
    const WHAT: &'static str;
    /// `/environment/{environment_id}/...`
    const COLLECTION: &'static str;
    /// `/.../{..._id}`
    const ITEM: &'static str;
    /// `/.../{..._id}/status`
    const STATUS: &'static str;
    /// `/.../{..._id}/deploy`
    const DEPLOY: &'static str;

    /// Where the record names one of the organization's records (a container registry, a helm
    /// repository), filled with that record's name, address and kind whenever it is read.
    const NAMES: Option<Names> = None;

    type Request: DeserializeOwned + ToSchema + Send + Sync + 'static;
    type Record: Serialize + DeserializeOwned + ToSchema + GitSource + Send + Sync + 'static;

    /// Checks the request's rules; `kept` names the secrets an update may leave out.
    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>>;

    /// The request's secret values, stored apart from the record.
    fn secrets(_request: &Self::Request) -> Secrets {
        Secrets::new()
    }

    /// The secrets the record still declares; others are dropped on update.
    fn secret_names(_record: &Self::Record) -> Vec<String> {
        Vec::new()
    }

    /// The organization's records the request names (a registry, a helm repository), checked
    /// to exist: `(field, kind, id)`.
    fn references(_request: &Self::Request) -> Vec<(String, Kind, Uuid)> {
        Vec::new()
    }

    /// The record of a new service (`previous` is `None`) or of an updated one.
    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record;

    fn name(record: &Self::Record) -> &str;

    /// Where the record holds the tag of the image it runs (`$.tag`), if it runs one: a deploy
    /// with `image_tag` sets it.
    fn image_tag_at(_record: &Self::Record) -> Option<&'static str> {
        None
    }

    /// Where the record holds the version of the chart it installs from a helm repository, if
    /// it installs one: a deploy with `chart_version` sets it.
    fn chart_version_at(_record: &Self::Record) -> Option<&'static str> {
        None
    }

    /// The parts of the record that say what runs, beyond the commit (an image, a chart version
    /// and values): a rollback puts back those of the deployment it deploys again.
    const RESTORED_BY_ROLLBACK: &'static [&'static str] = &[];

    /// Whether an update may leave out any field (it keeps its value): the kinds whose edit
    /// request in the production document has no required field. Their `completed_update`
    /// fills the fields left out.
    const PARTIAL_EDIT: bool = false;

    /// The body of an update as a whole request (see `PARTIAL_EDIT`).
    fn completed_update(_previous: &Self::Record, body: Value) -> Value {
        body
    }
}

/// `body`'s top-level fields over `record`'s: an edit that leaves a field out keeps it.
pub fn over(record: impl Serialize, body: Value) -> Value {
    match (
        serde_json::to_value(record).expect("a request serializes"),
        body,
    ) {
        (Value::Object(mut merged), Value::Object(body)) => {
            merged.extend(body);
            Value::Object(merged)
        }
        (_, body) => body,
    }
}

/// A record of the organization a service's record names: at `at` (a JSON path such as
/// `$.registry`, holding `{id}` as stored), of `kind`.
pub struct Names {
    pub at: &'static str,
    pub kind: Kind,
}

pub fn register<R: ServiceResource>(routes: &mut RouteTable) {
    let what = R::WHAT;
    // The console reaches each kind through `ServiceType::path_segment`: both must agree.
    let segment = R::TYPE.path_segment();
    assert!(
        R::ITEM.starts_with(&format!("/{segment}/"))
            && R::COLLECTION.ends_with(&format!("/{segment}")),
        "{} routes must use the path segment {segment}",
        R::WHAT
    );
    routes
        .add(
            Method::GET,
            R::COLLECTION,
            Permission::Read,
            Doc::new(format!("List the {what}s of an environment"))
                .answers_list_of::<R::Record>(StatusCode::OK),
            list::<R>,
        )
        .add(
            Method::POST,
            R::COLLECTION,
            Permission::Write,
            Doc::new(format!("Create a {what}"))
                .body::<R::Request>()
                .answers::<R::Record>(StatusCode::CREATED),
            create::<R>,
        )
        .add(
            Method::GET,
            R::ITEM,
            Permission::Read,
            Doc::new(format!("Read a {what}")).answers::<R::Record>(StatusCode::OK),
            read::<R>,
        )
        .add(
            Method::PUT,
            R::ITEM,
            Permission::Write,
            {
                let doc = Doc::new(format!(
                    "Update a {what}; a deployed one becomes OUT_OF_DATE"
                ));
                if R::PARTIAL_EDIT {
                    doc.edit_body::<R::Request>()
                } else {
                    doc.body::<R::Request>()
                }
            }
            .answers::<R::Record>(StatusCode::OK),
            update::<R>,
        )
        .add(
            Method::DELETE,
            R::ITEM,
            Permission::Admin,
            Doc::new(format!("Delete a {what}")).answers_nothing(StatusCode::NO_CONTENT),
            delete::<R>,
        )
        .add(
            Method::GET,
            R::STATUS,
            Permission::Read,
            Doc::new(format!("The status of a {what}")).answers::<Status>(StatusCode::OK),
            get_status::<R>,
        )
        .add(
            Method::POST,
            R::DEPLOY,
            Permission::Deploy,
            Doc::new(format!("Deploy a {what}, at a git commit if given"))
                .body::<DeployRequest>()
                .answers::<Status>(StatusCode::ACCEPTED),
            deploy::<R>,
        )
        .add(
            Method::POST,
            format!("{}/redeploy", R::ITEM),
            Permission::Deploy,
            Doc::new(format!(
                "Deploy a {what} again at the version it runs (its last deployed commit, its image or chart as configured)"
            ))
            .answers::<Status>(StatusCode::ACCEPTED),
            redeploy::<R>,
        )
        .add(
            Method::POST,
            format!("{}/cancel", R::ITEM),
            Permission::Deploy,
            Doc::new(format!("Cancel the action running on a {what}"))
                .answers::<Status>(StatusCode::ACCEPTED),
            cancel::<R>,
        )
        .add(
            Method::GET,
            format!("{}/deploymentHistoryV2", R::ITEM),
            Permission::Read,
            Doc::new(format!(
                "The deployments of a {what}, newest first (`pageSize` 1 to 100, 20 by default; `page` from 1); only those that ended in `status`, of `git_commit_id` (a prefix), asked for by `triggered_by` (a part of the name), when given"
            ))
            .query("page", false, doc::integer(1, platform_api::PAGE_MAX))
            .query("pageSize", false, doc::integer(1, 100))
            .query(
                "status",
                false,
                doc::one_of_enum::<HistoryOutcome>(),
            )
            .query("git_commit_id", false, doc::text())
            .query("triggered_by", false, doc::text())
            .answers::<DeploymentHistoryPage>(StatusCode::OK),
            history::<R>,
        );
    if matches!(R::TYPE, ServiceType::Application | ServiceType::Container) {
        routes.add(
            Method::GET,
            format!("{}/log", R::ITEM),
            Permission::Read,
            Doc::new(format!(
                "What a {what}'s instances printed, simulated from its actions: the last {} lines",
                platform_api::INSTANCE_LOG_LINES
            ))
            .answers_list_of::<InstanceLogLine>(StatusCode::OK),
            instance_log::<R>,
        );
    }
    if R::TYPE.git_repository_path().is_some() {
        routes.add(
            Method::GET,
            format!("{}/commit", R::ITEM),
            Permission::Read,
            Doc::new(format!(
                "The commits of a {what}'s git repository, newest first, at most 100 (`startId`: those after that one; `gitCommitId`: that one)"
            ))
            .query("startId", false, doc::text())
            .query("gitCommitId", false, doc::text())
            .answers_list_of::<Commit>(StatusCode::OK),
            commits::<R>,
        );
    }
    let actions = [
        ("restart-service", Action::Restart, "Restart a running"),
        ("stop", Action::Stop, "Stop a running"),
        (
            "uninstall",
            Action::Uninstall,
            "Delete the compute and data, keeping the configuration, of a",
        ),
    ];
    for (suffix, action, summary) in actions {
        routes.add(
            Method::POST,
            format!("{}/{suffix}", R::ITEM),
            Permission::Deploy,
            Doc::new(format!("{summary} {what}")).answers::<Status>(StatusCode::ACCEPTED),
            move |state: State<AppState>, caller: Caller, path: ApiPath<Uuid>| {
                act::<R>(state, caller, path, action)
            },
        );
    }
}

/// Restart, stop or uninstall.
async fn act<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    action: Action,
) -> ApiResult<(StatusCode, Json<Status>)> {
    find::<R>(&state, &caller, id).await?;
    let status = state.engine.request(action, id, &caller).await?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}

async fn redeploy<R: ServiceResource>(
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

async fn cancel<R: ServiceResource>(
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

async fn history<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> ApiResult<Json<DeploymentHistoryPage>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    query.validate().map_err(ApiError::invalid)?;
    let repository = record.git_repository().and_then(|repository| {
        match state.engine.repositories.locate(&repository.url) {
            Ok(git::Location::Local(path)) => Some(path),
            _ => None,
        }
    });
    let service = engine::history::HistoryOf {
        id,
        name: R::name(&record),
        kind: R::TYPE,
        repository,
    };
    let results = engine::history::page(&state.db, service, &query).await?;
    Ok(Json(DeploymentHistoryPage {
        page: query.page,
        page_size: query.page_size,
        results,
    }))
}

#[derive(serde::Deserialize)]
struct CommitParameters {
    #[serde(rename = "startId")]
    start_id: Option<String>,
    #[serde(rename = "gitCommitId")]
    git_commit_id: Option<String>,
}

async fn commits<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<CommitParameters>,
) -> ApiResult<Json<List<Commit>>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    let repository = record.git_repository().cloned().ok_or_else(|| {
        ApiError::unanswerable(
            "NO_GIT_REPOSITORY",
            format!("This {} is not built from a git repository.", R::WHAT),
        )
    })?;
    let path = state.engine.repositories.local(&repository.url)?;
    let commits = tokio::task::spawn_blocking(move || {
        git::commits(
            &path,
            &git::CommitQuery {
                branch: repository.branch.as_deref(),
                start_after: query.start_id.as_deref(),
                only: query.git_commit_id.as_deref(),
            },
        )
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(Json(List::new(commits)))
}

async fn instance_log<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<List<InstanceLogLine>>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    Ok(Json(List::new(
        engine::instances::instance_log(&state.db, id, R::name(&record)).await?,
    )))
}

async fn deploy<R: ServiceResource>(
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
            engine::ensure_idle(tx, Scope::Service(id)).await?;
            for (path, value) in &self.pinned {
                sqlx::query(&format!(
                    "UPDATE services SET spec = json_set(spec, '{path}', ?) WHERE id = ?"
                ))
                .bind(value)
                .bind(id.to_string())
                .execute(&mut **tx)
                .await?;
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
    let path = match repositories.locate(url)? {
        git::Location::Local(path) => path,
        git::Location::Remote => return Ok(commit),
    };
    tokio::task::spawn_blocking(move || match git::resolve(&path, &commit) {
        Ok(full) => Ok(full),
        // A repository that reads (it has a HEAD) but not this commit: the request is wrong.
        Err(git::GitError::Failed(_)) if git::resolve(&path, "HEAD").is_ok() => {
            Err(ApiError::invalid(vec![FieldError::new(
                "git_commit_id",
                "is not a commit of the service's repository",
            )]))
        }
        Err(error) => Err(error.into()),
    })
    .await
    .map_err(ApiError::internal)?
}

async fn list<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    asked: Asked,
) -> ApiResult<Response> {
    find_environment(&state, &caller, environment_id).await?;
    raw_json::kept(
        &state.kept.service_lists,
        (environment_id, Some(R::TYPE)),
        asked,
        async {
            let records = stored::<R>(&state.db, environment_id).await?;
            Ok(Read {
                value: StoredList(records.into_iter().map(|(_, record)| record).collect())
                    .into_bytes(),
                keep: true,
            })
        },
    )
    .await
}

/// The environment's services of kind `R` as stored, by name: each name and record (JSON).
pub async fn stored<R: ServiceResource>(
    db: &SqlitePool,
    environment_id: Uuid,
) -> ApiResult<Vec<(String, String)>> {
    Ok(sqlx::query_as(&format!(
        "SELECT s.name, {} FROM services s {WITH_REGISTRY}
         WHERE s.environment_id = ? AND s.kind = ? ORDER BY s.name",
        spec()
    ))
    .bind(R::NAMES.map(|names| names.at))
    .bind(R::NAMES.map(|names| names.kind.stored_as))
    .bind(R::NAMES.map(|names| names.at))
    .bind(environment_id.to_string())
    .bind(R::TYPE.as_str())
    .fetch_all(db)
    .await?)
}

async fn create<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<R::Request>,
) -> ApiResult<(StatusCode, Json<R::Record>)> {
    let environment = find_environment(&state, &caller, environment_id).await?;
    check::<R>(
        &mut *state.db.acquire().await?,
        environment.organization.id,
        &request,
        &[],
    )
    .await?;
    let secrets: Vec<String> = R::secrets(&request).into_keys().collect();
    let mut tx = db::begin_write(&state.writes).await?;
    let id = insert::<R>(
        &mut tx,
        &state,
        environment.organization.id,
        environment_id,
        request,
    )
    .await?;
    // Answered as a read answers it (with what the record names filled in).
    let (created, _) = find_in::<R>(&mut tx, &caller, id).await?;
    let target = Target::service(&mut tx, id).await?;
    let change = Change::new(EventType::Create, target)
        .after(&created)
        .secrets(secrets);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn read<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<R::Record>> {
    Ok(Json(find::<R>(&state, &caller, id).await?.0))
}

async fn update<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Json<R::Record>> {
    let (previous, environment_id) = find::<R>(&state, &caller, id).await?;
    let request: R::Request = from_json(R::completed_update(&previous, body))?;
    let mut tx = db::begin_write(&state.writes).await?;
    let (stored,): (String,) = sqlx::query_as("SELECT secrets FROM services WHERE id = ?")
        .bind(id.to_string())
        .fetch_one(&mut *tx)
        .await?;
    let mut secrets: Secrets = serde_json::from_str(&stored).map_err(ApiError::internal)?;
    let kept: Vec<&str> = secrets.keys().map(String::as_str).collect();
    check::<R>(&mut tx, caller.organization_id, &request, &kept).await?;
    let given = R::secrets(&request);
    let mut changed_secrets: Vec<String> = given.keys().cloned().collect();
    secrets.extend(state.sealer.seal_all(given));
    let mut record = R::build(id, environment_id, request, Some(&previous));
    // What was deployed stays known across a change of configuration.
    if let (Some(deployed), Some(repository)) =
        (previous.git_repository(), record.git_repository_mut())
    {
        repository.deployed_commit_id = deployed.deployed_commit_id.clone();
        repository.deployed_commit_date = deployed.deployed_commit_date;
    }
    let declared = R::secret_names(&record);
    changed_secrets.extend(
        secrets
            .keys()
            .filter(|name| !declared.contains(name))
            .cloned(),
    );
    secrets.retain(|name, _| declared.contains(name));
    let spec = serde_json::to_string(&record).map_err(ApiError::internal)?;
    sqlx::query("UPDATE services SET name = ?, spec = ?, secrets = ?, updated_at = ? WHERE id = ?")
        .bind(R::name(&record))
        .bind(spec)
        .bind(serde_json::to_string(&secrets).map_err(ApiError::internal)?)
        .bind(Utc::now())
        .bind(id.to_string())
        .execute(&mut *tx)
        .await
        .on_unique_violation("name", "service")?;
    engine::mark_scope_out_of_date(&mut tx, Scope::Service(id)).await?;
    let (updated, _) = find_in::<R>(&mut tx, &caller, id).await?;
    let target = Target::service(&mut tx, id).await?;
    let change = Change::new(EventType::Update, target)
        .before(&previous)
        .after(&updated)
        .secrets(changed_secrets);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(updated))
}

async fn delete<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let (before, _) = find::<R>(&state, &caller, id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let target = Target::service(&mut tx, id).await?;
    engine::delete_when_idle(&mut tx, Scope::Service(id)).await?;
    let change = Change::new(EventType::Delete, target).before(&before);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn get_status<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<Status>> {
    find::<R>(&state, &caller, id).await?;
    Ok(Json(
        status::of_service(&mut *state.db.acquire().await?, id).await?,
    ))
}

/// The rules of the request, then the records it names.
async fn check<R: ServiceResource>(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    request: &R::Request,
    kept: &[&str],
) -> ApiResult<()> {
    R::validate(request, kept).map_err(ApiError::invalid)?;
    for (field, kind, id) in R::references(request) {
        ensure_exists(&mut *conn, kind, organization_id, id, &field).await?;
    }
    Ok(())
}

/// A service's stored spec with the groups it is attached to as they are now, in the order
/// attached (a group deleted since is gone); specs attached to no group (most, and every kind
/// without groups) as stored, without rewriting their JSON.
const GROUPED: &str = "CASE WHEN COALESCE(json_array_length(s.spec, '$.annotations_groups'), 0)
        + COALESCE(json_array_length(s.spec, '$.labels_groups'), 0) = 0 THEN s.spec
    ELSE json_set(s.spec,
        '$.annotations_groups', json((SELECT json_group_array(json(g.record) ORDER BY j.key)
            FROM json_each(s.spec, '$.annotations_groups') j JOIN organization_resources g
            ON g.kind = 'annotations_group' AND g.organization_id = s.organization_id
            AND g.id = json_extract(j.value, '$.id'))),
        '$.labels_groups', json((SELECT json_group_array(json(g.record) ORDER BY j.key)
            FROM json_each(s.spec, '$.labels_groups') j JOIN organization_resources g
            ON g.kind = 'labels_group' AND g.organization_id = s.organization_id
            AND g.id = json_extract(j.value, '$.id'))))
    END";

/// A service's record as read: `GROUPED`, with the organization's record it names (at the path
/// bound first, as in `ServiceResource::NAMES`) as that record is now.
fn spec() -> String {
    format!(
        "CASE WHEN r.id IS NULL THEN {GROUPED} ELSE json_set({GROUPED}, ?, json_object(
            'id', r.id, 'name', r.name, 'url', json_extract(r.record, '$.url'),
            'kind', json_extract(r.record, '$.kind'))) END"
    )
}

/// The record of `spec()` (of the kind bound second), joined on the id at the path bound third.
const WITH_REGISTRY: &str = "LEFT JOIN organization_resources r
    ON r.kind = ? AND r.id = json_extract(s.spec, ? || '.id')";

/// The caller's service of kind `R` with this id, and its environment; 404 otherwise.
pub async fn find<R: ServiceResource>(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(R::Record, Uuid)> {
    find_in::<R>(&mut *state.db.acquire().await?, caller, id).await
}

/// `find`, as `conn` sees the service.
pub(super) async fn find_in<R: ServiceResource>(
    conn: &mut SqliteConnection,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<(R::Record, Uuid)> {
    let (spec, environment_id): (String, String) = sqlx::query_as(&format!(
        "SELECT {}, s.environment_id FROM services s {WITH_REGISTRY}
         WHERE s.id = ? AND s.organization_id = ? AND s.kind = ?",
        spec()
    ))
    .bind(R::NAMES.map(|names| names.at))
    .bind(R::NAMES.map(|names| names.kind.stored_as))
    .bind(R::NAMES.map(|names| names.at))
    .bind(id.to_string())
    .bind(caller.organization_id.to_string())
    .bind(R::TYPE.as_str())
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| ApiError::not_found(R::WHAT))?;
    Ok((
        serde_json::from_str(&spec).map_err(ApiError::internal)?,
        crate::db::id(&environment_id)?,
    ))
}

/// Stores a new service of kind `R` in `conn`, READY and NEVER_DEPLOYED; its id. The request
/// must have been checked.
pub async fn insert<R: ServiceResource>(
    conn: &mut SqliteConnection,
    state: &AppState,
    organization_id: Uuid,
    environment_id: Uuid,
    request: R::Request,
) -> ApiResult<Uuid> {
    let id = Uuid::new_v4();
    let secrets = state.sealer.seal_all(R::secrets(&request));
    let record = R::build(id, environment_id, request, None);
    let spec = serde_json::to_string(&record).map_err(ApiError::internal)?;
    sqlx::query(
        "INSERT INTO services (id, organization_id, environment_id, kind, name, spec, secrets, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.to_string())
    .bind(organization_id.to_string())
    .bind(environment_id.to_string())
    .bind(R::TYPE.as_str())
    .bind(R::name(&record))
    .bind(spec)
    .bind(serde_json::to_string(&secrets).map_err(ApiError::internal)?)
    .bind(Utc::now())
    .execute(&mut *conn)
    .await
    .on_unique_violation("name", "service")?;
    engine::insert_initial_status(conn, id).await?;
    Ok(id)
}

/// When a service was created and last updated, for `build`.
pub fn timestamps(
    previous_created_at: Option<DateTime<Utc>>,
) -> (DateTime<Utc>, Option<DateTime<Utc>>) {
    let now = Utc::now();
    match previous_created_at {
        Some(created_at) => (created_at, Some(now)),
        None => (now, None),
    }
}
