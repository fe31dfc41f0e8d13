use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::{List, Organization};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            "/organization",
            Permission::Read,
            Doc::new("The caller's organizations: the one its token belongs to")
                .answers_list_of::<Organization>(StatusCode::OK),
            list_organizations,
        )
        .add(
            Method::GET,
            "/organization/{organization_id}",
            Permission::Read,
            Doc::new("Read an organization").answers::<Organization>(StatusCode::OK),
            get_organization,
        );
}

#[derive(sqlx::FromRow)]
struct OrganizationRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

async fn list_organizations(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<List<Organization>>> {
    let organization = find(&state, caller.organization_id).await?;
    Ok(Json(List::new(vec![organization])))
}

async fn get_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<Organization>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(find(&state, organization_id).await?))
}

async fn find(state: &AppState, id: Uuid) -> ApiResult<Organization> {
    let row: OrganizationRow =
        sqlx::query_as("SELECT id, name, created_at, updated_at FROM organizations WHERE id = ?")
            .bind(id.hyphenated())
            .fetch_optional(&state.db)
            .await?
            .ok_or_else(|| ApiError::not_found("organization"))?;
    Ok(Organization {
        id: row.id,
        name: row.name,
        plan: "FREE".into(),
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}
