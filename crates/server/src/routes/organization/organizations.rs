use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::{EventType, TargetType};
use platform_api::paths;
use platform_api::{List, Organization, OrganizationEditRequest};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
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
        )
        .add(
            Method::PUT,
            paths::ORGANIZATION,
            Permission::Admin,
            Doc::new("Rename an organization and set its description; its plan stays")
                .body::<OrganizationEditRequest>()
                .answers::<Organization>(StatusCode::OK),
            edit_organization,
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

async fn edit_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<OrganizationEditRequest>,
) -> ApiResult<Json<Organization>> {
    own_organization(&caller, organization_id)?;
    request
        .validate(organizations::PLAN)
        .map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = organizations::find(&mut *tx, organization_id).await?;
    let after = Organization {
        name: request.name.trim().to_string(),
        description: request
            .description
            .as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_string),
        updated_at: Some(chrono::Utc::now()),
        ..before.clone()
    };
    organizations::edit(&mut tx, &after).await?;
    let target = Target::new(
        TargetType::Organization,
        organization_id,
        after.name.clone(),
    );
    let change = Change::new(EventType::Update, target)
        .before(&before)
        .after(&after);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(after))
}
