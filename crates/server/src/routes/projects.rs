use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use platform_api::{List, Project, ProjectRequest, Reference};
use uuid::Uuid;

use crate::auth::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult, UniqueViolation};
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/organization/{organization_id}/project",
            get(list_projects).post(create_project),
        )
        .route("/project/{project_id}", get(get_project))
}

type ProjectRow = (
    String,
    String,
    String,
    Option<String>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
);

const COLUMNS: &str = "id, organization_id, name, description, created_at, updated_at";

fn project(row: ProjectRow) -> ApiResult<Project> {
    let (id, organization_id, name, description, created_at, updated_at) = row;
    Ok(Project {
        id: db::id(&id)?,
        created_at,
        updated_at,
        name,
        description,
        organization: Reference {
            id: db::id(&organization_id)?,
        },
    })
}

/// 404 unless `organization_id` is the caller's own.
fn own_organization(caller: &Caller, organization_id: Uuid) -> ApiResult<()> {
    if caller.organization_id == organization_id {
        Ok(())
    } else {
        Err(ApiError::not_found("organization"))
    }
}

async fn list_projects(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Project>>> {
    caller.require(Permission::Read)?;
    own_organization(&caller, organization_id)?;
    let rows: Vec<ProjectRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM projects WHERE organization_id = ? ORDER BY name"
    ))
    .bind(organization_id.to_string())
    .fetch_all(&state.db)
    .await?;
    let projects = rows.into_iter().map(project).collect::<ApiResult<_>>()?;
    Ok(Json(List::new(projects)))
}

async fn create_project(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ProjectRequest>,
) -> ApiResult<(StatusCode, Json<Project>)> {
    caller.require(Permission::Write)?;
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let row: ProjectRow = sqlx::query_as(&format!(
        "INSERT INTO projects (id, organization_id, name, description, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING {COLUMNS}"
    ))
    .bind(Uuid::new_v4().to_string())
    .bind(organization_id.to_string())
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(Utc::now())
    .fetch_one(&state.db)
    .await
    .on_unique_violation("name", "project")?;
    Ok((StatusCode::CREATED, Json(project(row)?)))
}

async fn get_project(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<Project>> {
    caller.require(Permission::Read)?;
    Ok(Json(find_project(&state, &caller, project_id).await?))
}

/// The caller's project with this id, or 404.
pub async fn find_project(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Project> {
    let row: ProjectRow = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM projects WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.to_string())
    .bind(caller.organization_id.to_string())
    .fetch_optional(&state.db)
    .await?
    .ok_or_else(|| ApiError::not_found("project"))?;
    project(row)
}
