//! The organization's fleet: every service with where it lives (`…/services`, filtered by
//! project, environment or cluster) and every environment (`…/environments`), each in one read.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{paths, Environment, List, ServiceLight, ServicesQuery};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiQuery, ApiResult};
use crate::routes::doc::{self, Doc};
use crate::routes::own_organization;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::{environments, fleet};

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::ORGANIZATION_SERVICES,
            Permission::Read,
            Doc::new(
                "The organization's services with their project, environment and cluster, by \
                 project, environment and name; each filter narrows the list",
            )
            .query("project_id", false, doc::uuid())
            .query("environment_id", false, doc::uuid())
            .query("cluster_id", false, doc::uuid())
            .answers_list_of::<ServiceLight>(StatusCode::OK),
            list_services,
        )
        .add(
            Method::GET,
            paths::ORGANIZATION_ENVIRONMENTS,
            Permission::Read,
            Doc::new("The organization's environments, by project and name")
                .answers_list_of::<Environment>(StatusCode::OK),
            list_environments,
        );
}

async fn list_services(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiQuery(query): ApiQuery<ServicesQuery>,
) -> ApiResult<Json<List<ServiceLight>>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(List::new(
        fleet::services(&state.db, organization_id, query).await?,
    )))
}

async fn list_environments(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Environment>>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(List::new(
        environments::of_organization(&state.db, organization_id).await?,
    )))
}
