use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::EventType;
use platform_api::{List, PageQuery, Project, ProjectRequest, Reference, PROJECT_PAGE_SIZE_MAX};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult, UniqueViolation};
use crate::fresh::Read;
use crate::raw_json::{self, Asked};
use crate::routes::doc::{self, Doc};
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::scope::Scope;

use super::own_organization;

pub fn register(routes: &mut RouteTable) {
    let projects = "/organization/{organization_id}/project";
    routes
        .add(
            Method::GET,
            projects,
            Permission::Read,
            Doc::new("List the projects, by name; every one unless `pageSize` is given")
                .query("page", false, doc::integer(1, platform_api::PAGE_MAX))
                .query("pageSize", false, doc::integer(1, PROJECT_PAGE_SIZE_MAX))
                .answers_list_of::<Project>(StatusCode::OK),
            list_projects,
        )
        .add(
            Method::POST,
            projects,
            Permission::Write,
            Doc::new("Create a project")
                .body::<ProjectRequest>()
                .answers::<Project>(StatusCode::OK),
            create_project,
        )
        .add(
            Method::GET,
            "/project/{project_id}",
            Permission::Read,
            Doc::new("Read a project").answers::<Project>(StatusCode::OK),
            get_project,
        )
        .add(
            Method::PUT,
            "/project/{project_id}",
            Permission::Write,
            Doc::new("Update a project")
                .body::<ProjectRequest>()
                .answers::<Project>(StatusCode::OK),
            update_project,
        )
        .add(
            Method::DELETE,
            "/project/{project_id}",
            Permission::Admin,
            Doc::new("Delete a project, its environments and services")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete_project,
        );
}

#[derive(sqlx::FromRow)]
struct ProjectRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    name: String,
    description: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
    environments: i64,
}

const COLUMNS: &str = "id, organization_id, name, description, created_at, updated_at,
    (SELECT COUNT(*) FROM environments e WHERE e.project_id = projects.id) AS environments";

fn project(row: ProjectRow) -> Project {
    Project {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        name: row.name,
        description: row.description,
        organization: Reference {
            id: row.organization_id,
        },
        associated_environments_count: row.environments,
    }
}

async fn list_projects(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<PageQuery>,
    asked: Asked,
) -> ApiResult<Response> {
    own_organization(&caller, organization_id)?;
    query
        .validate(PROJECT_PAGE_SIZE_MAX)
        .map_err(ApiError::invalid)?;
    let (limit, offset) = query.limit_and_offset();
    let key = (organization_id, limit, offset);
    raw_json::kept(&state.kept.project_lists, key, asked, async {
        let rows: Vec<ProjectRow> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM projects WHERE organization_id = ? ORDER BY name, id LIMIT ? OFFSET ?"
        ))
        .bind(organization_id.hyphenated())
        .bind(limit)
        .bind(offset)
        .fetch_all(&state.db)
        .await?;
        let projects: Vec<Project> = rows.into_iter().map(project).collect();
        let body = serde_json::to_vec(&List::new(projects)).map_err(ApiError::internal)?;
        Ok(Read {
            value: body.into(),
            keep: true,
        })
    })
    .await
}

async fn create_project(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ProjectRequest>,
) -> ApiResult<(StatusCode, Json<Project>)> {
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let row: ProjectRow = sqlx::query_as(&format!(
        "INSERT INTO projects (id, organization_id, name, description, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING {COLUMNS}"
    ))
    .bind(Uuid::new_v4().hyphenated())
    .bind(organization_id.hyphenated())
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(Utc::now())
    .fetch_one(&mut *tx)
    .await
    .on_unique_violation("name", "project")?;
    let created = project(row);
    let target = Target::project(&mut tx, created.id).await?;
    audit::record(
        &mut tx,
        &caller,
        Change::new(EventType::Create, target).after(&created),
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::OK, Json(created)))
}

async fn get_project(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<Project>> {
    Ok(Json(find_project(&state, &caller, project_id).await?))
}

async fn update_project(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ProjectRequest>,
) -> ApiResult<Json<Project>> {
    let before = find_project(&state, &caller, project_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let row: ProjectRow = sqlx::query_as(&format!(
        "UPDATE projects SET name = ?, description = ?, updated_at = ? WHERE id = ? RETURNING {COLUMNS}"
    ))
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(Utc::now())
    .bind(project_id.hyphenated())
    .fetch_one(&mut *tx)
    .await
    .on_unique_violation("name", "project")?;
    let updated = project(row);
    let target = Target::project(&mut tx, project_id).await?;
    audit::record(
        &mut tx,
        &caller,
        Change::new(EventType::Update, target)
            .before(&before)
            .after(&updated),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(updated))
}

/// Deletes the project with its environments and services.
async fn delete_project(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let before = find_project(&state, &caller, project_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let target = Target::project(&mut tx, project_id).await?;
    crate::store::scope::delete_when_idle(&mut tx, Scope::Project(project_id)).await?;
    audit::record(
        &mut tx,
        &caller,
        Change::new(EventType::Delete, target).before(&before),
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The caller's project with this id, or 404.
pub async fn find_project(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Project> {
    let row: ProjectRow = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM projects WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(caller.organization_id.hyphenated())
    .fetch_optional(&state.db)
    .await?
    .ok_or_else(|| ApiError::not_found("project"))?;
    Ok(project(row))
}
