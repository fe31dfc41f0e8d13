//! `GET /organization/{id}/containerRegistry/{id}/container/status`: the statuses of the
//! containers that take their image from a registry, so that a registry whose images fail to
//! deploy shows it.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{paths, List, Status};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::engine::status;
use crate::error::{ApiPath, ApiResult};
use crate::routes::doc::Doc;
use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::resources::find_own;
use crate::routes::RouteTable;
use crate::state::AppState;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::CONTAINER_REGISTRY_STATUSES,
        Permission::Read,
        Doc::new("The statuses of the containers that take their image from a registry, by name")
            .answers_list_of::<Status>(StatusCode::OK),
        statuses,
    );
}

async fn statuses(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, registry_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<Status>>> {
    find_own::<ContainerRegistries>(&state, &caller, (organization_id, registry_id)).await?;
    let mut conn = state.db.acquire().await?;
    Ok(Json(List::new(
        status::of_registry_containers(&mut conn, registry_id).await?,
    )))
}
