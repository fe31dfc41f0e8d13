//! Deployment rules: an environment's (`/environment/{id}/deploymentRule`: its schedule, acted on
//! by `crate::schedules`) and a project's (`/project/{id}/deploymentRule`, in priority order,
//! applied to the environments created afterwards whose names match, by `apply_to_new`).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::paths;
use platform_api::{
    EnvironmentDeploymentRule, EnvironmentDeploymentRuleRequest, List, ProjectDeploymentRule,
    ProjectDeploymentRuleRequest, ProjectDeploymentRulesOrder,
};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::environments::find_environment;
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::resources::{ensure_exists, OrganizationResource};
use crate::routes::projects::find_project;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::deployment_rules as store;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::PROJECT_DEPLOYMENT_RULES,
            Permission::Read,
            Doc::new("A project's deployment rules, in priority order")
                .answers_list_of::<ProjectDeploymentRule>(StatusCode::OK),
            list,
        )
        .add(
            Method::POST,
            paths::PROJECT_DEPLOYMENT_RULES,
            Permission::Write,
            Doc::new(
                "Add a deployment rule to a project, last in its order: an environment created \
                 afterwards whose name matches the wildcard gets its schedule (and its cluster \
                 and mode, when the creation names no cluster)",
            )
            .body::<ProjectDeploymentRuleRequest>()
            .answers::<ProjectDeploymentRule>(StatusCode::CREATED),
            create,
        )
        .add(
            Method::GET,
            paths::PROJECT_DEPLOYMENT_RULE,
            Permission::Read,
            Doc::new("A project's deployment rule")
                .answers::<ProjectDeploymentRule>(StatusCode::OK),
            read,
        )
        .add(
            Method::PUT,
            paths::PROJECT_DEPLOYMENT_RULE,
            Permission::Write,
            Doc::new("Change a project's deployment rule")
                .body::<ProjectDeploymentRuleRequest>()
                .answers::<ProjectDeploymentRule>(StatusCode::OK),
            update,
        )
        .add(
            Method::DELETE,
            paths::PROJECT_DEPLOYMENT_RULE,
            Permission::Write,
            Doc::new("Delete a project's deployment rule").answers_nothing(StatusCode::NO_CONTENT),
            delete,
        )
        .add(
            Method::PUT,
            paths::PROJECT_DEPLOYMENT_RULES_ORDER,
            Permission::Write,
            Doc::new("Put a project's deployment rules in this order, which names each once")
                .body::<ProjectDeploymentRulesOrder>()
                .answers_nothing(StatusCode::OK),
            reorder,
        )
        .add(
            Method::GET,
            paths::ENVIRONMENT_DEPLOYMENT_RULE,
            Permission::Read,
            Doc::new("An environment's deployment rule: its schedule and its previews")
                .answers::<EnvironmentDeploymentRule>(StatusCode::OK),
            environment_rule,
        )
        .add(
            Method::PUT,
            paths::ENVIRONMENT_DEPLOYMENT_RULE_ITEM,
            Permission::Write,
            Doc::new(
                "Change an environment's deployment rule: with auto_stop, the environment is \
                 started and stopped on its weekdays at its times, in its time zone, from now on",
            )
            .body::<EnvironmentDeploymentRuleRequest>()
            .answers::<EnvironmentDeploymentRule>(StatusCode::OK),
            update_environment_rule,
        );
}

async fn environment_rule(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<EnvironmentDeploymentRule>> {
    find_environment(&state, &caller, environment_id).await?;
    Ok(Json(
        store::of_environment(&state.db, environment_id).await?,
    ))
}

async fn update_environment_rule(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((environment_id, rule_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<EnvironmentDeploymentRuleRequest>,
) -> ApiResult<Json<EnvironmentDeploymentRule>> {
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = store::of_environment(&mut *tx, environment_id).await?;
    if before.id != rule_id {
        return Err(ApiError::not_found("deployment rule"));
    }
    store::save_environment_rule(&mut tx, environment_id, &request).await?;
    let after = EnvironmentDeploymentRule {
        rule: request,
        updated_at: Some(Utc::now()),
        ..before.clone()
    };
    let target = Target::environment(&mut tx, environment_id).await?;
    let change = Change::new(EventType::Update, target)
        .of(SubTargetType::DeploymentRule)
        .before(&before)
        .after(&after);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(after))
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ProjectDeploymentRule>>> {
    find_project(&state, &caller, project_id).await?;
    Ok(Json(List::new(
        store::of_project(&state.db, project_id).await?,
    )))
}

async fn read(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((project_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ProjectDeploymentRule>> {
    find_project(&state, &caller, project_id).await?;
    Ok(Json(
        store::find(&mut *state.db.acquire().await?, project_id, id).await?,
    ))
}

/// Checks a project rule's request: its rules, and its cluster the organization's.
async fn checked(
    conn: &mut SqliteConnection,
    caller: &Caller,
    request: &ProjectDeploymentRuleRequest,
) -> ApiResult<()> {
    request.validate().map_err(ApiError::invalid)?;
    ensure_exists(
        conn,
        Clusters::KIND,
        caller.organization_id,
        request.cluster_id,
        "cluster_id",
    )
    .await
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ProjectDeploymentRuleRequest>,
) -> ApiResult<(StatusCode, Json<ProjectDeploymentRule>)> {
    find_project(&state, &caller, project_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    checked(&mut tx, &caller, &request).await?;
    let existing = store::of_project(&mut *tx, project_id).await?;
    let created = ProjectDeploymentRule {
        id: Uuid::new_v4(),
        created_at: Utc::now(),
        updated_at: None,
        rule: request,
        priority_index: existing.len() as i64,
    };
    store::save(&mut tx, project_id, &created).await?;
    changed(
        &mut tx,
        &caller,
        project_id,
        EventType::Create,
        (None, Some(&created)),
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn update(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((project_id, id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<ProjectDeploymentRuleRequest>,
) -> ApiResult<Json<ProjectDeploymentRule>> {
    find_project(&state, &caller, project_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    checked(&mut tx, &caller, &request).await?;
    let before = store::find(&mut tx, project_id, id).await?;
    let after = ProjectDeploymentRule {
        rule: request,
        updated_at: Some(Utc::now()),
        ..before.clone()
    };
    store::save(&mut tx, project_id, &after).await?;
    changed(
        &mut tx,
        &caller,
        project_id,
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
    ApiPath((project_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    find_project(&state, &caller, project_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = store::find(&mut tx, project_id, id).await?;
    store::delete(&mut tx, project_id, id).await?;
    changed(
        &mut tx,
        &caller,
        project_id,
        EventType::Delete,
        (Some(&before), None),
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn reorder(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
    ApiJson(order): ApiJson<ProjectDeploymentRulesOrder>,
) -> ApiResult<StatusCode> {
    find_project(&state, &caller, project_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = store::of_project(&mut *tx, project_id).await?;
    store::reorder(
        &mut tx,
        project_id,
        &order.project_deployment_rule_ids_in_order,
    )
    .await?;
    let after = store::of_project(&mut *tx, project_id).await?;
    changed(
        &mut tx,
        &caller,
        project_id,
        EventType::Update,
        (Some(&before), Some(&after)),
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::OK)
}

/// The audit entry of a change to a project's rules.
async fn changed<T: serde::Serialize>(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    caller: &Caller,
    project_id: Uuid,
    event_type: EventType,
    states: (Option<&T>, Option<&T>),
) -> ApiResult<()> {
    let target = Target::project(tx, project_id).await?;
    let change = Change::new(event_type, target)
        .of(SubTargetType::DeploymentRule)
        .between(states);
    audit::record(tx, caller, change).await
}
