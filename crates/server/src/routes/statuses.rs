//! The document's narrower status reads: an environment's own state, its services' statuses of
//! one kind, and the state of every environment of a project in one request. Each is a view of
//! what `engine::status` reads for `/environment/{id}/statuses`.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{EnvironmentState, List, ServiceType, Status};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::engine;
use crate::error::{ApiPath, ApiResult};
use crate::routes::doc::Doc;
use crate::routes::environments::find_environment;
use crate::routes::projects::find_project;
use crate::routes::RouteTable;
use crate::state::AppState;

/// The kinds whose statuses the document reads one kind at a time.
const KINDS: [ServiceType; 5] = [
    ServiceType::Application,
    ServiceType::Container,
    ServiceType::Database,
    ServiceType::Job,
    ServiceType::Helm,
];

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            "/environment/{environment_id}/status",
            Permission::Read,
            Doc::new("An environment's state: where its busiest service stands")
                .answers::<EnvironmentState>(StatusCode::OK),
            environment_status,
        )
        .add(
            Method::GET,
            "/project/{project_id}/environment/status",
            Permission::Read,
            Doc::new("The state of every environment of a project, in one request")
                .answers_list_of::<EnvironmentState>(StatusCode::OK),
            project_environment_statuses,
        );
    for kind in KINDS {
        let segment = kind.path_segment();
        routes.add(
            Method::GET,
            format!("/environment/{{environment_id}}/{segment}/status"),
            Permission::Read,
            Doc::new(format!(
                "The statuses of an environment's {segment} services"
            ))
            .answers_list_of::<Status>(StatusCode::OK),
            move |state: State<AppState>, caller: Caller, path: ApiPath<Uuid>| {
                statuses_of_kind(state, caller, path, kind)
            },
        );
    }
}

async fn environment_status(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<EnvironmentState>> {
    find_environment(&state, &caller, environment_id).await?;
    let statuses =
        engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    Ok(Json(statuses.environment))
}

async fn statuses_of_kind(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
    kind: ServiceType,
) -> ApiResult<Json<List<Status>>> {
    find_environment(&state, &caller, environment_id).await?;
    let statuses =
        engine::status::of_environment(&mut *state.db.acquire().await?, environment_id).await?;
    let results = match kind {
        ServiceType::Application => statuses.applications,
        ServiceType::Container => statuses.containers,
        ServiceType::Database => statuses.databases,
        ServiceType::Job => statuses.jobs,
        ServiceType::Helm => statuses.helms,
        _ => statuses.terraforms,
    };
    Ok(Json(List::new(results)))
}

async fn project_environment_statuses(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<EnvironmentState>>> {
    find_project(&state, &caller, project_id).await?;
    let states = engine::status::of_project(&mut *state.db.acquire().await?, project_id).await?;
    Ok(Json(List::new(states)))
}
