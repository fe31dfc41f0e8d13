use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::{List, Organization};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::organizations;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::ORGANIZATIONS,
            Permission::Read,
            Doc::new("The caller's organizations: the one its token belongs to")
                .answers_list_of::<Organization>(StatusCode::OK),
            list_organizations,
        )
        .add(
            Method::GET,
            paths::ORGANIZATION,
            Permission::Read,
            Doc::new("Read an organization").answers::<Organization>(StatusCode::OK),
            get_organization,
        );
}

async fn list_organizations(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<List<Organization>>> {
    let organization = organizations::find(&state.db, caller.organization_id).await?;
    Ok(Json(List::new(vec![organization])))
}

async fn get_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<Organization>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(organizations::find(&state.db, organization_id).await?))
}
