use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::Json;
use platform_api::audit::EventType;
use platform_api::paths;
use platform_api::{
    ActionStatus, CloudProvider, ClusterRequest, DeploymentLogLine, DeploymentStatus, DeploysQuery,
    Environment, EnvironmentDeploy, EnvironmentDeployPage, EnvironmentDeploymentPage,
    EnvironmentLogEntry, EnvironmentLogsQuery, EnvironmentMode, EnvironmentRequest,
    EnvironmentRequestQuery, EnvironmentRequestStatus, EnvironmentState, EnvironmentStatuses,
    FieldError, HistoryQuery, List, Status, StatusAction, StatusDetails, SubAction,
};
use sqlx::SqliteConnection;
use utoipa::openapi::schema::ObjectBuilder;
use uuid::Uuid;

use super::projects::find_project;
use crate::audit;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine;
use crate::engine::environment::OnEachService;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::fresh::Read;
use crate::raw_json::{self, Asked};
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::resources::{ensure_exists, insert, OrganizationResource};
use crate::routes::{doc, Doc, RouteTable};
use crate::state::AppState;
use crate::store::action::Action;
use crate::store::scope::Scope;
use crate::store::{self, deployment_rules};

pub fn register(routes: &mut RouteTable) {
    action_routes(routes);
    record_routes(routes);
    history_routes(routes);
}

/// Deploy, restart, stop, uninstall, redeploy, cancel. The production document answers a deploy with one
/// `Status` for the environment, and a stop with the environment's state; a restart (ours)
/// answers as a stop does.
fn action_routes(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        "/environment/{environment_id}/deploy",
        Permission::Deploy,
        Doc::new("Deploy every service of an environment").answers::<Status>(StatusCode::ACCEPTED),
        deploy_environment,
    );
    routes
        .add(
            Method::POST,
            "/environment/{environment_id}/restart",
            Permission::Deploy,
            Doc::new("Restart the running services of an environment")
                .answers::<EnvironmentState>(StatusCode::ACCEPTED),
            restart_environment,
        )
        .add(
            Method::POST,
            "/environment/{environment_id}/stop",
            Permission::Deploy,
            Doc::new("Stop the running services of an environment")
                .answers::<EnvironmentState>(StatusCode::ACCEPTED),
            stop_environment,
        )
        .add(
            Method::POST,
            "/environment/{environment_id}/uninstall",
            Permission::Deploy,
            Doc::new(
                "Delete the compute and data of every installed service of an environment, \
                 keeping their configuration",
            )
            .answers_named(
                "UninstallAccepted",
                ObjectBuilder::new().into(),
                StatusCode::ACCEPTED,
            ),
            uninstall_environment,
        )
        .add(
            Method::POST,
            "/environment/{environment_id}/redeploy",
            Permission::Deploy,
            Doc::new(
                "Deploy every deployed service of an environment again, at the version it runs",
            )
            .answers::<EnvironmentState>(StatusCode::ACCEPTED),
            redeploy_environment,
        )
        .add(
            Method::POST,
            paths::ENVIRONMENT_CANCEL,
            Permission::Deploy,
            Doc::new("Cancel every action running or queued on an environment's services")
                .body::<CancelDeploymentRequest>()
                .answers::<EnvironmentState>(StatusCode::ACCEPTED),
            cancel_deployment,
        );
}

/// The environments of a project, and each one: read, updated, deleted.
fn record_routes(routes: &mut RouteTable) {
    let environments = paths::ENVIRONMENTS;
    routes
        .add(
            Method::GET,
            environments,
            Permission::Read,
            Doc::new("List the environments of a project")
                .answers_list_of::<Environment>(StatusCode::OK),
            list_environments,
        )
        .add(
            Method::POST,
            environments,
            Permission::Write,
            Doc::new("Create an environment")
                .body::<EnvironmentRequest>()
                .answers::<Environment>(StatusCode::CREATED),
            create_environment,
        )
        .add(
            Method::GET,
            paths::ENVIRONMENT,
            Permission::Read,
            Doc::new("Read an environment").answers::<Environment>(StatusCode::OK),
            get_environment,
        )
        .add(
            Method::PUT,
            paths::ENVIRONMENT,
            Permission::Write,
            Doc::new("Update an environment")
                .body::<EnvironmentRequest>()
                .answers::<Environment>(StatusCode::OK),
            update_environment,
        )
        .add(
            Method::DELETE,
            paths::ENVIRONMENT,
            Permission::Admin,
            Doc::new("Delete an environment and its services")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete_environment,
        );
}

/// What ran in an environment: its deployments (in both shapes), a request's progress, its
/// log (in both shapes) and its services' statuses.
fn history_routes(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::ENVIRONMENT_HISTORY,
            Permission::Read,
            Doc::new(
                "The deployments of an environment, newest first: the actions one request on it ran together, or one service's own (`pageSize` 1 to 100, 20 by default; `page` from 1)",
            )
            .query("page", false, doc::integer(1, platform_api::PAGE_MAX))
            .query("pageSize", false, doc::integer(1, 100))
            .answers::<EnvironmentDeploymentPage>(StatusCode::OK),
            environment_history,
        )
        .add(
            Method::GET,
            "/environment/{environment_id}/deploymentHistory",
            Permission::Read,
            Doc::new(format!(
                "The older shape of an environment's history: its deploys (a request on it, or one service's own), newest first, {} at a time, after the one `startId` names (none after an id that is not one of them)",
                platform_api::DEPLOYS_PAGE_SIZE
            ))
            .query("startId", false, doc::uuid())
            .answers::<EnvironmentDeployPage>(StatusCode::OK),
            environment_deploys,
        )
        .add(
            Method::GET,
            "/environment/deploymentStatus",
            Permission::Read,
            Doc::new(
                "Where one request on an environment stands: `deploymentRequestId` is the execution its history names",
            )
            .query("deploymentRequestId", true, doc::uuid())
            .answers::<EnvironmentRequestStatus>(StatusCode::OK),
            request_status,
        )
        .add(
            Method::GET,
            paths::ENVIRONMENT_LOGS,
            Permission::Read,
            Doc::new(format!(
                "What the engine did to an environment's services, each line naming its service: the last {} lines, or those of the execution `version` (a service's action or a request on the environment)",
                platform_api::ENVIRONMENT_LOG_LINES
            ))
            .query("version", false, doc::text())
            .answers_array_of::<DeploymentLogLine>(StatusCode::OK),
            environment_logs,
        )
        .add(
            Method::GET,
            "/environment/{environment_id}/log",
            Permission::Read,
            Doc::new(format!(
                "The older shape of an environment's log: its last {} lines, each scoped to its service",
                platform_api::ENVIRONMENT_LOG_LINES
            ))
            .answers_list_of::<EnvironmentLogEntry>(StatusCode::OK),
            environment_log,
        )
        .add(
            Method::GET,
            paths::ENVIRONMENT_STATUSES,
            Permission::Read,
            Doc::new("Every service status of an environment, in one call")
                .answers::<EnvironmentStatuses>(StatusCode::OK),
            environment_statuses,
        );
}

async fn list_environments(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Environment>>> {
    find_project(&state, &caller, project_id).await?;
    Ok(Json(List::new(
        store::environments::of_project(&state.db, project_id).await?,
    )))
}

/// The cluster a new environment runs on: the one asked for (it must be the organization's),
/// else the organization's oldest cluster of the environment's kind (production or not), else its
/// oldest; an organization without clusters gets a default one, as every organization of the
/// platform has.
async fn cluster_for(
    tx: &mut SqliteConnection,
    state: &AppState,
    organization_id: Uuid,
    request: &EnvironmentRequest,
) -> ApiResult<Uuid> {
    if let Some(cluster_id) = request.cluster_id {
        ensure_exists(
            &mut *tx,
            Clusters::KIND,
            organization_id,
            cluster_id,
            "cluster",
        )
        .await?;
        return Ok(cluster_id);
    }
    let production = request.mode == EnvironmentMode::Production;
    let existing = store::environments::preferred_cluster(tx, organization_id, production).await?;
    match existing {
        Some(id) => Ok(id),
        None => {
            let default = ClusterRequest {
                name: "default".into(),
                description: Some("Created for the organization's first environment".into()),
                cloud_provider: CloudProvider::OnPremise,
                region: "local".into(),
                version: None,
                production: false,
                instance_type: None,
                min_running_nodes: 1,
                max_running_nodes: 1,
                features: Vec::new(),
            };
            let (id, ..) = insert::<Clusters>(tx, state, organization_id, default).await?;
            Ok(id)
        }
    }
}

async fn create_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<EnvironmentRequest>,
) -> ApiResult<(StatusCode, Json<Environment>)> {
    let project = find_project(&state, &caller, project_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    // The first of the project's deployment rules that matches the name gives the environment
    // its schedule, and its cluster and mode when the request names no cluster. Matched before
    // taking the writer: no pattern a caller wrote runs while every other write waits.
    let rule = deployment_rules::matching(
        &mut *state.db.acquire().await?,
        project.id,
        request.name.trim(),
    )
    .await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let request = match (&rule, request.cluster_id) {
        (Some(rule), None) => EnvironmentRequest {
            cluster_id: Some(rule.rule.cluster_id),
            mode: rule.rule.mode,
            ..request
        },
        _ => request,
    };
    let cluster_id = cluster_for(&mut tx, &state, project.organization.id, &request).await?;
    let id = store::environments::insert(&mut tx, &project, &request, cluster_id).await?;
    if let Some(rule) = &rule {
        deployment_rules::apply(&mut tx, id, &rule.rule.schedule).await?;
    }
    let created = read_environment(&mut tx, &caller, id).await?;
    let target = audit::Target::environment(&mut tx, id).await?;
    let change = audit::Change::new(EventType::Create, target).after(&created);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn get_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<Environment>> {
    Ok(Json(
        find_environment(&state, &caller, environment_id).await?,
    ))
}

async fn update_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<EnvironmentRequest>,
) -> ApiResult<Json<Environment>> {
    let before = find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    if let Some(cluster_id) = request.cluster_id {
        ensure_exists(
            &mut *tx,
            Clusters::KIND,
            caller.organization_id,
            cluster_id,
            "cluster",
        )
        .await?;
    }
    // Left out, the cluster stays.
    store::environments::update(&mut tx, environment_id, &request).await?;
    let updated = read_environment(&mut tx, &caller, environment_id).await?;
    let target = audit::Target::environment(&mut tx, environment_id).await?;
    let change = audit::Change::new(EventType::Update, target)
        .before(&before)
        .after(&updated);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(updated))
}

/// Deletes the environment with its services.
async fn delete_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let before = find_environment(&state, &caller, environment_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let target = audit::Target::environment(&mut tx, environment_id).await?;
    crate::store::scope::delete_when_idle(&mut tx, Scope::Environment(environment_id)).await?;
    let change = audit::Change::new(EventType::Delete, target).before(&before);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn request_status(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<EnvironmentRequestQuery>,
) -> ApiResult<Json<EnvironmentRequestStatus>> {
    let request = query.deployment_request_id;
    let not_found = || ApiError::not_found("deployment request");
    let environment_id =
        engine::history::environment_of_request(&state.db, caller.organization_id, request)
            .await?
            .ok_or_else(not_found)?;
    find_environment(&state, &caller, environment_id).await?;
    let deployment = engine::history::environment_page(
        &state.db,
        &state.engine.repositories,
        environment_id,
        engine::history::Window::Request(request),
    )
    .await?
    .pop()
    .ok_or_else(not_found)?;
    Ok(Json(EnvironmentRequestStatus {
        deployment_request_id: request,
        environment_id,
        status: deployment.status,
    }))
}

async fn environment_deploys(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<DeploysQuery>,
) -> ApiResult<Json<EnvironmentDeployPage>> {
    find_environment(&state, &caller, environment_id).await?;
    let results = engine::history::environment_page(
        &state.db,
        &state.engine.repositories,
        environment_id,
        engine::history::Window::DeploysAfter(query.start_id),
    )
    .await?;
    Ok(Json(EnvironmentDeployPage {
        page: 1,
        page_size: platform_api::DEPLOYS_PAGE_SIZE,
        results: results.into_iter().map(EnvironmentDeploy::from).collect(),
    }))
}

async fn environment_history(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> ApiResult<Json<EnvironmentDeploymentPage>> {
    find_environment(&state, &caller, environment_id).await?;
    query.validate().map_err(ApiError::invalid)?;
    let filters = [
        ("status", query.status.is_some()),
        ("git_commit_id", query.git_commit_id.is_some()),
        ("triggered_by", query.triggered_by.is_some()),
    ];
    let refused: Vec<FieldError> = filters
        .iter()
        .filter(|(_, given)| *given)
        .map(|(field, _)| FieldError::new(*field, "filters a service's history only"))
        .collect();
    if !refused.is_empty() {
        return Err(ApiError::invalid(refused));
    }
    let results = engine::history::environment_page(
        &state.db,
        &state.engine.repositories,
        environment_id,
        engine::history::Window::Page {
            page: query.page,
            page_size: query.page_size,
        },
    )
    .await?;
    Ok(Json(EnvironmentDeploymentPage {
        page: query.page,
        page_size: query.page_size,
        results,
    }))
}

async fn environment_logs(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<EnvironmentLogsQuery>,
) -> ApiResult<Json<Vec<DeploymentLogLine>>> {
    find_environment(&state, &caller, environment_id).await?;
    let version = query.version.as_deref().map(str::trim);
    Ok(Json(
        engine::logs::environment_logs(&state.db, environment_id, version).await?,
    ))
}

async fn environment_log(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<EnvironmentLogEntry>>> {
    find_environment(&state, &caller, environment_id).await?;
    Ok(Json(List::new(
        engine::logs::environment_log(&state.db, environment_id).await?,
    )))
}

/// Every service status of the environment in one answer, so that the console polls once. A
/// still environment (no action running) is answered from memory until the database changes.
async fn environment_statuses(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    asked: Asked,
) -> ApiResult<Response> {
    find_environment(&state, &caller, environment_id).await?;
    raw_json::kept(&state.kept.statuses, environment_id, asked, async {
        let statuses =
            engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
        // A running action's durations grow with the clock, commit or not.
        let keep = !statuses.any_in_progress();
        let body = Bytes::from(serde_json::to_vec(&statuses).map_err(ApiError::internal)?);
        Ok(Read { value: body, keep })
    })
    .await
}

async fn restart_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<EnvironmentState>)> {
    let (statuses, _) = start_on_environment(&state, &caller, id, Action::Restart).await?;
    Ok((StatusCode::ACCEPTED, Json(statuses.environment)))
}

async fn stop_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<EnvironmentState>)> {
    let (statuses, _) = start_on_environment(&state, &caller, id, Action::Stop).await?;
    Ok((StatusCode::ACCEPTED, Json(statuses.environment)))
}

/// The document answers an environment's uninstall with an empty object; the page polls the
/// statuses.
async fn uninstall_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<serde_json::Map<String, serde_json::Value>>)> {
    start_on_environment(&state, &caller, id, Action::Uninstall).await?;
    Ok((StatusCode::ACCEPTED, Json(serde_json::Map::new())))
}

async fn redeploy_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<EnvironmentState>)> {
    let (statuses, _) = start_on_environment(&state, &caller, id, OnEachService::Redeploy).await?;
    Ok((StatusCode::ACCEPTED, Json(statuses.environment)))
}

/// Runs `action` on each service of the environment it applies to (a stop or a restart skips
/// the services that run nothing). 409 while an action runs in the environment, or when the
/// action applies to no service.
async fn deploy_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    let (statuses, started) =
        start_on_environment(&state, &caller, environment_id, Action::Deploy).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(one_status(&statuses, StatusAction::Deploy, started)),
    ))
}

/// Requests `what` for each service of the environment it applies to: the environment's
/// statuses after, and how many services it started on. 409 while an action runs in the
/// environment, or when the action applies to no service.
async fn start_on_environment(
    state: &AppState,
    caller: &Caller,
    environment_id: Uuid,
    what: impl Into<OnEachService>,
) -> ApiResult<(EnvironmentStatuses, i64)> {
    let what = what.into();
    find_environment(state, caller, environment_id).await?;
    crate::store::scope::ensure_idle(
        &mut *state.db.acquire().await?,
        Scope::Environment(environment_id),
    )
    .await?;
    let mut tx = state.engine.begin().await?;
    let queued = state
        .engine
        .queue_on_environment(&mut tx, environment_id, what, caller.into())
        .await?;
    let target = audit::Target::environment(&mut tx, environment_id).await?;
    audit::record(
        &mut tx,
        caller,
        audit::Change::new(what.event_type(), target),
    )
    .await?;
    tx.commit().await?;
    let started = queued.len() as i64;
    for deployment_id in queued {
        state.engine.start(deployment_id);
    }
    let statuses =
        engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    Ok((statuses, started))
}

/// Body of `POST /environment/{id}/cancelDeployment`: the document's `force_cancel` is left
/// alone (`platform_fields`), every cancel here being whole.
#[derive(serde::Deserialize, utoipa::ToSchema)]
struct CancelDeploymentRequest {}

async fn cancel_deployment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(CancelDeploymentRequest {}): ApiJson<CancelDeploymentRequest>,
) -> ApiResult<(StatusCode, Json<EnvironmentState>)> {
    find_environment(&state, &caller, environment_id).await?;
    state
        .engine
        .cancel_environment(environment_id, &caller)
        .await?;
    let statuses =
        engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    Ok((StatusCode::ACCEPTED, Json(statuses.environment)))
}

/// The environment as one `Status`: its state, its services' deployment status taken together,
/// and the number of actions (`action`) just requested.
pub(super) fn one_status(
    statuses: &EnvironmentStatuses,
    action: StatusAction,
    started: i64,
) -> Status {
    let every = |wanted: DeploymentStatus| {
        statuses
            .all()
            .all(|status| status.service_deployment_status == wanted)
    };
    let service_deployment_status = if every(DeploymentStatus::NeverDeployed) {
        DeploymentStatus::NeverDeployed
    } else if every(DeploymentStatus::UpToDate) {
        DeploymentStatus::UpToDate
    } else {
        DeploymentStatus::OutOfDate
    };
    Status {
        id: statuses.environment.id,
        state: statuses.environment.state,
        service_deployment_status,
        is_part_last_deployment: true,
        status_details: StatusDetails {
            action,
            status: ActionStatus::Queued,
            sub_action: SubAction::None,
        },
        deployment_request_id: None,
        deployment_requests_count: started,
        last_deployment_date: statuses.environment.last_deployment_date,
        steps: None,
        execution_id: None,
    }
}

/// The caller's environment with this id, or 404.
pub async fn find_environment(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<Environment> {
    read_environment(&mut *state.db.acquire().await?, caller, id).await
}

/// The caller's environment with this id as `conn` sees it, or 404.
pub(super) async fn read_environment(
    conn: &mut SqliteConnection,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<Environment> {
    store::environments::find(conn, caller.organization_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("environment"))
}
