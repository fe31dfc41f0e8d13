//! Deployment stages (`/environment/{id}/deploymentStage`, `/deploymentStage/{id}`, its moves and
//! its services, `/service/{id}/deploymentStage`, `statusesWithStages`): an environment's services
//! deployed a stage at a time, in order; the engine starts a stage when the ones before have
//! finished and stops at a failure (`engine::stages`).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::paths;
use platform_api::{
    AttachServiceToStage, DeploymentStage, DeploymentStageRequest, EnvironmentStatusesWithStages,
    FieldError, List,
};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::engine;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::environments::find_environment;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::deployment_stages as store;

const STAGE: paths::Template = paths::DEPLOYMENT_STAGE;

pub fn register(routes: &mut RouteTable) {
    let environment_stages = paths::ENVIRONMENT_STAGES;
    routes
        .add(
            Method::GET,
            environment_stages,
            Permission::Read,
            Doc::new("An environment's deployment stages in order, each with its services")
                .answers_list_of::<DeploymentStage>(StatusCode::OK),
            list,
        )
        .add(
            Method::POST,
            environment_stages,
            Permission::Write,
            Doc::new("Add a deployment stage at the end of an environment's; its name unique there, whatever its case")
                .body::<DeploymentStageRequest>()
                .answers::<DeploymentStage>(StatusCode::OK),
            create,
        )
        .add(
            Method::GET,
            STAGE,
            Permission::Read,
            Doc::new("A deployment stage with its services").answers::<DeploymentStage>(StatusCode::OK),
            read,
        )
        .add(
            Method::PUT,
            STAGE,
            Permission::Write,
            Doc::new("Rename a deployment stage or change its description")
                .body::<DeploymentStageRequest>()
                .answers::<DeploymentStage>(StatusCode::OK),
            update,
        )
        .add(
            Method::DELETE,
            STAGE,
            Permission::Write,
            Doc::new(
                "Delete a deployment stage: its services go back to their kind's default stage \
                 (or the first); an environment keeps at least one stage (409)",
            )
            .answers_nothing(StatusCode::NO_CONTENT),
            delete,
        )
        .add(
            Method::PUT,
            format!("{STAGE}/moveBefore/{{stage_id}}"),
            Permission::Write,
            Doc::new("Move a deployment stage just before another of its environment")
                .answers_list_of::<DeploymentStage>(StatusCode::OK),
            move_before,
        )
        .add(
            Method::PUT,
            format!("{STAGE}/moveAfter/{{stage_id}}"),
            Permission::Write,
            Doc::new("Move a deployment stage just after another of its environment")
                .answers_list_of::<DeploymentStage>(StatusCode::OK),
            move_after,
        )
        .add(
            Method::PUT,
            format!("{STAGE}/service/{{service_id}}"),
            Permission::Write,
            Doc::new(
                "Move a service of the stage's environment to the stage (and back into the \
                 environment's deployments), or with `is_skipped: true` leave it where it is \
                 and skip it from the environment's deployments",
            )
            .body::<AttachServiceToStage>()
            .answers_list_of::<DeploymentStage>(StatusCode::OK),
            attach,
        )
        .add(
            Method::GET,
            "/service/{service_id}/deploymentStage",
            Permission::Read,
            Doc::new("The deployment stage a service is in").answers::<DeploymentStage>(StatusCode::OK),
            of_service,
        )
        .add(
            Method::GET,
            "/environment/{environment_id}/statusesWithStages",
            Permission::Read,
            Doc::new("An environment's statuses, stage by stage")
                .answers::<EnvironmentStatusesWithStages>(StatusCode::OK),
            statuses_with_stages,
        );
}

/// The environment's stages, read in `conn`.
async fn stages_of(
    conn: &mut sqlx::SqliteConnection,
    environment_id: Uuid,
) -> ApiResult<Vec<DeploymentStage>> {
    Ok(store::of_environment(conn, environment_id).await?)
}

/// The stage with this id among `stages`, or 404.
fn one(stages: Vec<DeploymentStage>, id: Uuid) -> ApiResult<DeploymentStage> {
    stages
        .into_iter()
        .find(|stage| stage.id == id)
        .ok_or_else(|| ApiError::not_found("deployment stage"))
}

/// The environment of the caller's stage with this id (which the caller's role reads), or 404.
async fn environment_of(state: &AppState, caller: &Caller, stage_id: Uuid) -> ApiResult<Uuid> {
    let environment = store::environment_of(&state.db, caller.organization_id, stage_id).await?;
    find_environment(state, caller, environment).await?;
    Ok(environment)
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<DeploymentStage>>> {
    find_environment(&state, &caller, environment_id).await?;
    let stages = stages_of(&mut *state.db.acquire().await?, environment_id).await?;
    Ok(Json(List::new(stages)))
}

async fn read(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<DeploymentStage>> {
    let environment_id = environment_of(&state, &caller, id).await?;
    let stages = stages_of(&mut *state.db.acquire().await?, environment_id).await?;
    Ok(Json(one(stages, id)?))
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<DeploymentStageRequest>,
) -> ApiResult<Json<DeploymentStage>> {
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let created = store::insert(&mut tx, environment_id, &request).await?;
    changed(
        &mut tx,
        &caller,
        environment_id,
        EventType::Create,
        (None, Some(&created)),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(created))
}

async fn update(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<DeploymentStageRequest>,
) -> ApiResult<Json<DeploymentStage>> {
    let environment_id = environment_of(&state, &caller, id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = one(stages_of(&mut tx, environment_id).await?, id)?;
    store::update(
        &mut tx,
        id,
        (request.name.trim(), request.description.as_deref()),
    )
    .await?;
    let after = DeploymentStage {
        name: request.name.trim().to_string(),
        description: request.description,
        updated_at: Some(chrono::Utc::now()),
        ..before.clone()
    };
    changed(
        &mut tx,
        &caller,
        environment_id,
        EventType::Update,
        (Some(&before), Some(&after)),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(after))
}

async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let environment_id = environment_of(&state, &caller, id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = one(stages_of(&mut tx, environment_id).await?, id)?;
    store::delete(&mut tx, environment_id, id).await?;
    changed(
        &mut tx,
        &caller,
        environment_id,
        EventType::Delete,
        (Some(&before), None),
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn move_before(
    state: State<AppState>,
    caller: Caller,
    ApiPath((id, other)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<DeploymentStage>>> {
    move_next_to(state, caller, (id, other), false).await
}

async fn move_after(
    state: State<AppState>,
    caller: Caller,
    ApiPath((id, other)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<DeploymentStage>>> {
    move_next_to(state, caller, (id, other), true).await
}

async fn move_next_to(
    State(state): State<AppState>,
    caller: Caller,
    (id, other): (Uuid, Uuid),
    after: bool,
) -> ApiResult<Json<List<DeploymentStage>>> {
    let environment_id = environment_of(&state, &caller, id).await?;
    if id == other {
        return Err(ApiError::invalid(vec![FieldError::new(
            "stage_id",
            "must be another stage than the one moved",
        )]));
    }
    let mut tx = db::begin_write(&state.writes).await?;
    let before = stages_of(&mut tx, environment_id).await?;
    store::move_next_to(&mut tx, environment_id, (id, other), after).await?;
    let stages = stages_of(&mut tx, environment_id).await?;
    let change = (Some(&before), Some(&stages));
    changed(&mut tx, &caller, environment_id, EventType::Update, change).await?;
    tx.commit().await?;
    Ok(Json(List::new(stages)))
}

async fn attach(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, service_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<AttachServiceToStage>,
) -> ApiResult<Json<List<DeploymentStage>>> {
    let environment_id = environment_of(&state, &caller, id).await?;
    if service_environment(&state, &caller, service_id).await? != environment_id {
        return Err(ApiError::not_found("service"));
    }
    let mut tx = db::begin_write(&state.writes).await?;
    let before = stages_of(&mut tx, environment_id).await?;
    store::attach(
        &mut tx,
        (id, service_id),
        request.is_skipped.unwrap_or(false),
    )
    .await?;
    let stages = stages_of(&mut tx, environment_id).await?;
    let change = (Some(&before), Some(&stages));
    changed(&mut tx, &caller, environment_id, EventType::Update, change).await?;
    tx.commit().await?;
    Ok(Json(List::new(stages)))
}

/// The environment of the caller's service with this id (which the caller's role reads), or 404.
async fn service_environment(
    state: &AppState,
    caller: &Caller,
    service_id: Uuid,
) -> ApiResult<Uuid> {
    let environment =
        crate::store::services::environment_of(&state.db, caller.organization_id, service_id)
            .await?
            .ok_or_else(|| ApiError::not_found("service"))?;
    find_environment(state, caller, environment)
        .await
        .map_err(|_| ApiError::not_found("service"))?;
    Ok(environment)
}

async fn of_service(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<DeploymentStage>> {
    let environment_id = service_environment(&state, &caller, service_id).await?;
    let mut conn = state.db.acquire().await?;
    let stage = store::of_service(&mut *conn, service_id).await?;
    Ok(Json(one(
        stages_of(&mut conn, environment_id).await?,
        stage,
    )?))
}

async fn statuses_with_stages(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<EnvironmentStatusesWithStages>> {
    find_environment(&state, &caller, environment_id).await?;
    let mut conn = state.db.acquire().await?;
    let statuses = engine::status::of_environment(&mut conn, environment_id).await?;
    let stages = stages_of(&mut conn, environment_id).await?;
    Ok(Json(EnvironmentStatusesWithStages::of(statuses, &stages)))
}

/// The audit entry of a change to an environment's stages.
async fn changed<T: serde::Serialize>(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    caller: &Caller,
    environment_id: Uuid,
    event_type: EventType,
    states: (Option<&T>, Option<&T>),
) -> ApiResult<()> {
    let target = Target::environment(tx, environment_id).await?;
    let change = Change::new(event_type, target)
        .of(SubTargetType::DeploymentStage)
        .between(states);
    audit::record(tx, caller, change).await
}
