use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use axum::Json;
use platform_api::audit::EventType;
use platform_api::paths;
use platform_api::{List, PageQuery, Project, ProjectRequest, PROJECT_PAGE_SIZE_MAX};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::fresh::Read;
use crate::raw_json::{self, Asked};
use crate::routes::doc::{self, Doc};
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::projects;
use crate::store::scope::Scope;

use super::own_organization;

pub fn register(routes: &mut RouteTable) {
    let projects = paths::PROJECTS;
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
            paths::PROJECT,
            Permission::Read,
            Doc::new("Read a project").answers::<Project>(StatusCode::OK),
            get_project,
        )
        .add(
            Method::PUT,
            paths::PROJECT,
            Permission::Write,
            Doc::new("Update a project")
                .body::<ProjectRequest>()
                .answers::<Project>(StatusCode::OK),
            update_project,
        )
        .add(
            Method::DELETE,
            paths::PROJECT,
            Permission::Admin,
            Doc::new("Delete a project, its environments and services")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete_project,
        );
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
        let projects = projects::page(&state.db, organization_id, limit, offset).await?;
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
    let created = projects::insert(&mut tx, organization_id, &request).await?;
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
    let updated = projects::update(&mut tx, project_id, &request).await?;
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
    projects::find(&state.db, caller.organization_id, id).await
}
