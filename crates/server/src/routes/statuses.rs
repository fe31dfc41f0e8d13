//! The document's narrower status reads: an environment's own state, its services' statuses of
//! one kind, and the state of every environment of a project in one request (each a view of what
//! `engine::status` reads for `/environment/{id}/statuses`); and the counts of what a project's
//! environments and an organization's projects hold, for their lists, and a project's
//! environments at a glance (both together).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::{
    ClusterOverview, EnvironmentOverview, EnvironmentState, EnvironmentStats, List, ProjectStats,
    ServiceType, ServicesManagedBy, ServicesOverview, Status,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::engine;
use crate::error::{ApiPath, ApiResult};
use crate::routes::doc::Doc;
use crate::routes::environments::find_environment;
use crate::routes::own_organization;
use crate::routes::projects::find_project;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::{self, stats};

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
            paths::ENVIRONMENTS_STATUS,
            Permission::Read,
            Doc::new("The state of every environment of a project, in one request")
                .answers_list_of::<EnvironmentState>(StatusCode::OK),
            project_environment_statuses,
        )
        .add(
            Method::GET,
            "/project/{project_id}/environment/stats",
            Permission::Read,
            Doc::new("How many services each environment of a project holds, in one request")
                .answers_list_of::<EnvironmentStats>(StatusCode::OK),
            environment_stats,
        )
        .add(
            Method::GET,
            "/project/{project_id}/environment/overview",
            Permission::Read,
            Doc::new(
                "Every environment of a project at a glance: its cluster, how many services it \
                 holds and where they stand, in one request",
            )
            .answers_list_of::<EnvironmentOverview>(StatusCode::OK),
            environment_overview,
        )
        .add(
            Method::GET,
            paths::PROJECT_STATS,
            Permission::Read,
            Doc::new(
                "How many environments and services each project of the organization holds, in \
                 one request",
            )
            .answers_list_of::<ProjectStats>(StatusCode::OK),
            project_stats,
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

async fn environment_stats(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<EnvironmentStats>>> {
    find_project(&state, &caller, project_id).await?;
    Ok(Json(List::new(
        stats::of_environments(&state.db, project_id).await?,
    )))
}

async fn environment_overview(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(project_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<EnvironmentOverview>>> {
    find_project(&state, &caller, project_id).await?;
    let environments = store::environments::of_project(&state.db, project_id).await?;
    let counts = stats::of_environments(&state.db, project_id).await?;
    let mut states =
        engine::status::of_project(&mut *state.db.acquire().await?, project_id).await?;
    let overviews = environments
        .into_iter()
        .map(|environment| {
            let service_count = counts
                .iter()
                .find(|count| count.id == environment.id)
                .map_or(0, |count| count.service_total_number);
            let state = states
                .iter()
                .position(|state| state.id == environment.id)
                .map(|at| states.swap_remove(at));
            EnvironmentOverview {
                id: environment.id,
                created_at: environment.created_at,
                updated_at: environment.updated_at.unwrap_or(environment.created_at),
                name: environment.name,
                mode: environment.mode,
                cluster: ClusterOverview {
                    id: environment.cluster_id,
                    name: environment.cluster_name.unwrap_or_default(),
                    cloud_provider: environment.cloud_provider.provider.unwrap_or_default(),
                    is_demo: false,
                },
                services_overview: ServicesOverview {
                    service_count,
                    managed_by: ServicesManagedBy::Platform,
                },
                deployment_status: state,
            }
        })
        .collect();
    Ok(Json(List::new(overviews)))
}

async fn project_stats(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ProjectStats>>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(List::new(
        stats::of_projects(&state.db, organization_id).await?,
    )))
}
