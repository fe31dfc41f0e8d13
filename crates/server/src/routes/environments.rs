use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::{Environment, EnvironmentRequest, EnvironmentStatuses, List, Reference};
use uuid::Uuid;

use super::clusters::Clusters;
use super::organization_resources::{ensure_exists, OrganizationResource};
use super::projects::find_project;
use crate::auth::{Caller, Permission};
use crate::db;
use crate::engine::action::Action;
use crate::engine::{self, Scope};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult, UniqueViolation};
use crate::routes::{Doc, RouteTable};
use crate::AppState;

pub fn register(routes: &mut RouteTable) {
    let actions = [
        (
            "deploy",
            Action::Deploy,
            "Deploy every service of an environment",
        ),
        (
            "restart",
            Action::Restart,
            "Restart the running services of an environment",
        ),
        (
            "stop",
            Action::Stop,
            "Stop the running services of an environment",
        ),
    ];
    for (suffix, action, summary) in actions {
        routes.add(
            Method::POST,
            format!("/environment/{{environment_id}}/{suffix}"),
            Permission::Deploy,
            Doc::new(summary).answers::<EnvironmentStatuses>(StatusCode::ACCEPTED),
            move |state: State<AppState>, caller: Caller, path: ApiPath<Uuid>| {
                act_on_environment(state, caller, path, action)
            },
        );
    }
    let environments = "/project/{project_id}/environment";
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
            "/environment/{environment_id}",
            Permission::Read,
            Doc::new("Read an environment").answers::<Environment>(StatusCode::OK),
            get_environment,
        )
        .add(
            Method::PUT,
            "/environment/{environment_id}",
            Permission::Write,
            Doc::new("Update an environment")
                .body::<EnvironmentRequest>()
                .answers::<Environment>(StatusCode::OK),
            update_environment,
        )
        .add(
            Method::DELETE,
            "/environment/{environment_id}",
            Permission::Admin,
            Doc::new("Delete an environment and its services")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete_environment,
        )
        .add(
            Method::GET,
            "/environment/{environment_id}/statuses",
            Permission::Read,
            Doc::new("Every service status of an environment, in one call")
                .answers::<EnvironmentStatuses>(StatusCode::OK),
            environment_statuses,
        );
}

type EnvironmentRow = (
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
);

const COLUMNS: &str =
    "id, organization_id, project_id, name, mode, cluster_id, created_at, updated_at";

fn environment(row: EnvironmentRow) -> ApiResult<Environment> {
    let (id, organization_id, project_id, name, mode, cluster_id, created_at, updated_at) = row;
    Ok(Environment {
        id: db::id(&id)?,
        created_at,
        updated_at,
        name,
        mode: db::wire(&mode)?,
        project: Reference {
            id: db::id(&project_id)?,
        },
        organization: Reference {
            id: db::id(&organization_id)?,
        },
        cluster_id: cluster_id.as_deref().map(db::id).transpose()?,
    })
}

async fn list_environments(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Environment>>> {
    find_project(&state, &caller, project_id).await?;
    let rows: Vec<EnvironmentRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM environments WHERE project_id = ? ORDER BY name"
    ))
    .bind(project_id.to_string())
    .fetch_all(&state.db)
    .await?;
    let environments = rows
        .into_iter()
        .map(environment)
        .collect::<ApiResult<_>>()?;
    Ok(Json(List::new(environments)))
}

async fn create_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<EnvironmentRequest>,
) -> ApiResult<(StatusCode, Json<Environment>)> {
    let project = find_project(&state, &caller, project_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    if let Some(cluster_id) = request.cluster_id {
        ensure_exists(
            &state.db,
            Clusters::KIND,
            project.organization.id,
            cluster_id,
            "cluster_id",
        )
        .await?;
    }
    let row: EnvironmentRow = sqlx::query_as(&format!(
        "INSERT INTO environments (id, organization_id, project_id, name, mode, cluster_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {COLUMNS}"
    ))
    .bind(Uuid::new_v4().to_string())
    .bind(project.organization.id.to_string())
    .bind(project.id.to_string())
    .bind(request.name.trim())
    .bind(request.mode.as_str())
    .bind(request.cluster_id.map(|id| id.to_string()))
    .bind(Utc::now())
    .fetch_one(&state.db)
    .await
    .on_unique_violation("name", "environment")?;
    Ok((StatusCode::CREATED, Json(environment(row)?)))
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
    find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    if let Some(cluster_id) = request.cluster_id {
        ensure_exists(
            &state.db,
            Clusters::KIND,
            caller.organization_id,
            cluster_id,
            "cluster_id",
        )
        .await?;
    }
    let row: EnvironmentRow = sqlx::query_as(&format!(
        "UPDATE environments SET name = ?, mode = ?, cluster_id = ?, updated_at = ?
         WHERE id = ? RETURNING {COLUMNS}"
    ))
    .bind(request.name.trim())
    .bind(request.mode.as_str())
    .bind(request.cluster_id.map(|id| id.to_string()))
    .bind(Utc::now())
    .bind(environment_id.to_string())
    .fetch_one(&state.db)
    .await
    .on_unique_violation("name", "environment")?;
    Ok(Json(environment(row)?))
}

/// Deletes the environment with its services.
async fn delete_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    find_environment(&state, &caller, environment_id).await?;
    engine::delete_when_idle(&state.db, Scope::Environment(environment_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Every service status of the environment in one answer, so that the console polls once.
async fn environment_statuses(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<EnvironmentStatuses>> {
    find_environment(&state, &caller, environment_id).await?;
    Ok(Json(
        engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?,
    ))
}

/// Runs `action` on each service of the environment it applies to (a stop or a restart skips
/// the services that run nothing). 409 while an action runs in the environment, or when the
/// action applies to no service.
async fn act_on_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    action: Action,
) -> ApiResult<(StatusCode, Json<EnvironmentStatuses>)> {
    find_environment(&state, &caller, environment_id).await?;
    engine::ensure_idle(&state.db, Scope::Environment(environment_id)).await?;
    let services: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM services WHERE environment_id = ? ORDER BY name")
            .bind(environment_id.to_string())
            .fetch_all(&state.db)
            .await?;
    let mut started = 0;
    for (service_id,) in services {
        let outcome = state
            .engine
            .request(action, db::id(&service_id)?, None, false, &caller.name)
            .await;
        match outcome {
            Ok(_) => started += 1,
            // The environment was idle: a conflict means the action does not apply here.
            Err(error) if error.status() == StatusCode::CONFLICT => {}
            Err(error) => return Err(error),
        }
    }
    if started == 0 {
        return Err(ApiError::conflict(format!(
            "No service of this environment to {}.",
            action.verb()
        )));
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(
            engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?,
        ),
    ))
}

/// The caller's environment with this id, or 404.
pub async fn find_environment(
    state: &AppState,
    caller: &Caller,
    id: Uuid,
) -> ApiResult<Environment> {
    let row: EnvironmentRow = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM environments WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.to_string())
    .bind(caller.organization_id.to_string())
    .fetch_optional(&state.db)
    .await?
    .ok_or_else(|| ApiError::not_found("environment"))?;
    environment(row)
}
