use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::{
    Application, ApplicationRequest, DeployRequest, GitRepository, List, Port, Reference,
    ServiceType, Status, Storage,
};
use sqlx::SqlitePool;
use uuid::Uuid;

use super::environments::find_environment;
use crate::auth::{Caller, Permission};
use crate::engine::{self, status, Scope};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult, UniqueViolation};
use crate::routes::{Doc, RouteTable};
use crate::AppState;

pub fn register(routes: &mut RouteTable) {
    let applications = "/environment/{environment_id}/application";
    routes
        .add(
            Method::GET,
            applications,
            Permission::Read,
            Doc::new("List the applications of an environment")
                .answers_list_of::<Application>(StatusCode::OK),
            list_applications,
        )
        .add(
            Method::POST,
            applications,
            Permission::Write,
            Doc::new("Create an application")
                .body::<ApplicationRequest>()
                .answers::<Application>(StatusCode::CREATED),
            create_application,
        )
        .add(
            Method::GET,
            "/application/{application_id}",
            Permission::Read,
            Doc::new("Read an application").answers::<Application>(StatusCode::OK),
            get_application,
        )
        .add(
            Method::PUT,
            "/application/{application_id}",
            Permission::Write,
            Doc::new("Update an application; a deployed one becomes OUT_OF_DATE")
                .body::<ApplicationRequest>()
                .answers::<Application>(StatusCode::OK),
            update_application,
        )
        .add(
            Method::DELETE,
            "/application/{application_id}",
            Permission::Admin,
            Doc::new("Delete an application").answers_nothing(StatusCode::NO_CONTENT),
            delete_application,
        )
        .add(
            Method::POST,
            "/application/{application_id}/deploy",
            Permission::Deploy,
            Doc::new("Deploy an application, at a commit if given")
                .body::<DeployRequest>()
                .answers::<Status>(StatusCode::ACCEPTED),
            deploy,
        )
        .add(
            Method::GET,
            "/application/{application_id}/status",
            Permission::Read,
            Doc::new("The status of an application").answers::<Status>(StatusCode::OK),
            get_status,
        );
}

async fn list_applications(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Application>>> {
    find_environment(&state, &caller, environment_id).await?;
    let rows: Vec<(String, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT spec, updated_at FROM services WHERE environment_id = ? AND kind = ? ORDER BY name",
    )
    .bind(environment_id.to_string())
    .bind(ServiceType::Application.as_str())
    .fetch_all(&state.db)
    .await?;
    let applications = rows
        .into_iter()
        .map(|(spec, updated_at)| application(&spec, updated_at))
        .collect::<ApiResult<_>>()?;
    Ok(Json(List::new(applications)))
}

async fn create_application(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ApplicationRequest>,
) -> ApiResult<(StatusCode, Json<Application>)> {
    let environment = find_environment(&state, &caller, environment_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let application = insert_application(
        &state.db,
        environment.organization.id,
        environment.id,
        request,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(application)))
}

async fn get_application(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(application_id): ApiPath<Uuid>,
) -> ApiResult<Json<Application>> {
    Ok(Json(
        find_application(&state, &caller, application_id).await?,
    ))
}

/// Replaces the application's configuration; a deployed application becomes OUT_OF_DATE.
async fn update_application(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(application_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ApplicationRequest>,
) -> ApiResult<Json<Application>> {
    let current = find_application(&state, &caller, application_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let mut updated = from_request(application_id, current.environment.id, request);
    updated.created_at = current.created_at;
    updated.updated_at = Some(Utc::now());
    let git = &current.git_repository;
    updated.git_repository.deployed_commit_id = git.deployed_commit_id.clone();
    updated.git_repository.deployed_commit_date = git.deployed_commit_date;
    let spec = serde_json::to_string(&updated).map_err(ApiError::internal)?;
    sqlx::query("UPDATE services SET name = ?, spec = ?, updated_at = ? WHERE id = ?")
        .bind(&updated.name)
        .bind(spec)
        .bind(updated.updated_at)
        .bind(application_id.to_string())
        .execute(&state.db)
        .await
        .on_unique_violation("name", "service")?;
    engine::mark_out_of_date(&state.db, application_id).await?;
    Ok(Json(updated))
}

async fn delete_application(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(application_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    find_application(&state, &caller, application_id).await?;
    engine::ensure_idle(&state.db, Scope::Service(application_id)).await?;
    sqlx::query("DELETE FROM services WHERE id = ?")
        .bind(application_id.to_string())
        .execute(&state.db)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn deploy(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(application_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<DeployRequest>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    find_application(&state, &caller, application_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let status = state
        .engine
        .deploy(application_id, request.git_commit_id)
        .await?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}

async fn get_status(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(application_id): ApiPath<Uuid>,
) -> ApiResult<Json<Status>> {
    find_application(&state, &caller, application_id).await?;
    Ok(Json(status::of_service(&state.db, application_id).await?))
}

/// The caller's application with this id, or 404.
async fn find_application(state: &AppState, caller: &Caller, id: Uuid) -> ApiResult<Application> {
    let (spec, updated_at): (String, Option<DateTime<Utc>>) = sqlx::query_as(
        "SELECT spec, updated_at FROM services WHERE id = ? AND organization_id = ? AND kind = ?",
    )
    .bind(id.to_string())
    .bind(caller.organization_id.to_string())
    .bind(ServiceType::Application.as_str())
    .fetch_optional(&state.db)
    .await?
    .ok_or_else(|| ApiError::not_found("application"))?;
    application(&spec, updated_at)
}

fn application(spec: &str, updated_at: Option<DateTime<Utc>>) -> ApiResult<Application> {
    let mut application: Application = serde_json::from_str(spec).map_err(ApiError::internal)?;
    application.updated_at = updated_at;
    Ok(application)
}

/// Stores a new application, with its status at READY and NEVER_DEPLOYED. The request must have
/// been validated.
pub async fn insert_application(
    db: &SqlitePool,
    organization_id: Uuid,
    environment_id: Uuid,
    request: ApplicationRequest,
) -> ApiResult<Application> {
    let application = from_request(Uuid::new_v4(), environment_id, request);
    let spec = serde_json::to_string(&application).map_err(ApiError::internal)?;
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO services (id, organization_id, environment_id, kind, name, spec, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(application.id.to_string())
    .bind(organization_id.to_string())
    .bind(environment_id.to_string())
    .bind(ServiceType::Application.as_str())
    .bind(&application.name)
    .bind(spec)
    .bind(application.created_at)
    .execute(&mut *tx)
    .await
    .on_unique_violation("name", "service")?;
    engine::insert_initial_status(&mut tx, application.id).await?;
    tx.commit().await?;
    Ok(application)
}

fn from_request(id: Uuid, environment_id: Uuid, request: ApplicationRequest) -> Application {
    let git = request.git_repository;
    let url = git.url.trim().to_string();
    let (owner, name) = repository_owner_and_name(&url);
    let has_default = request
        .ports
        .iter()
        .any(|port| port.is_default == Some(true));
    let ports = request
        .ports
        .into_iter()
        .enumerate()
        .map(|(index, port)| Port {
            id: Uuid::new_v4(),
            internal_port: port.internal_port,
            external_port: port.external_port,
            publicly_accessible: port.publicly_accessible,
            protocol: port.protocol,
            name: port
                .name
                .or_else(|| Some(format!("p{}", port.internal_port))),
            is_default: port.is_default.unwrap_or(!has_default && index == 0),
            public_path: Some("/".to_string()),
            public_path_rewrite: None,
        })
        .collect();
    let storage = request
        .storage
        .into_iter()
        .map(|storage| Storage {
            id: Uuid::new_v4(),
            storage_type: storage.storage_type,
            size: storage.size,
            mount_point: storage.mount_point,
        })
        .collect();
    Application {
        id,
        created_at: Utc::now(),
        updated_at: None,
        environment: Reference { id: environment_id },
        name: request.name.trim().to_string(),
        description: request.description,
        icon_uri: None,
        service_type: ServiceType::Application,
        build_mode: request.build_mode,
        dockerfile_path: request
            .dockerfile_path
            .or_else(|| Some("Dockerfile".to_string())),
        docker_target_build_stage: request.docker_target_build_stage,
        git_repository: GitRepository {
            provider: git.provider.or_else(|| Some(provider_of(&url).to_string())),
            owner,
            name,
            has_access: Some(true),
            branch: git.branch.or_else(|| Some("main".to_string())),
            root_path: git.root_path.or_else(|| Some("/".to_string())),
            url,
            ..GitRepository::default()
        },
        cpu: request.cpu,
        memory: request.memory,
        gpu: request.gpu,
        maximum_cpu: request.cpu,
        maximum_memory: request.memory,
        maximun_gpu: request.gpu,
        min_running_instances: request.min_running_instances,
        max_running_instances: request.max_running_instances,
        auto_preview: request.auto_preview,
        auto_deploy: request.auto_deploy,
        arguments: request.arguments,
        entrypoint: request.entrypoint,
        storage,
        ports,
        healthchecks: request.healthchecks,
        annotations_groups: Vec::new(),
        labels_groups: Vec::new(),
        autoscaling: None,
    }
}

/// `https://host/owner/name.git` gives `(owner, name)`.
fn repository_owner_and_name(url: &str) -> (Option<String>, Option<String>) {
    let path = url.trim_end_matches('/').trim_end_matches(".git");
    let mut segments = path.rsplit(['/', ':']);
    let name = segments
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let owner = segments
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    (owner, name)
}

/// The provider enum of the wire hides vendor names; local repositories are the reference
/// server's own kind.
fn provider_of(url: &str) -> &'static str {
    if url.starts_with("file://") || url.starts_with('/') {
        "LOCAL"
    } else {
        "PROVIDER_G"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_and_name_come_from_the_url() {
        assert_eq!(
            repository_owner_and_name("https://git.example.com/acme/web.git"),
            (Some("acme".into()), Some("web".into()))
        );
        assert_eq!(
            repository_owner_and_name("git@example.com:acme/api"),
            (Some("acme".into()), Some("api".into()))
        );
    }
}
