use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::Organization;

use crate::auth::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiResult};
use crate::routes::{Doc, RouteTable};
use crate::AppState;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        "/organization",
        Permission::Read,
        Doc::new("The caller's organization").answers::<Organization>(StatusCode::OK),
        get_organization,
    );
}

/// The caller's organization.
async fn get_organization(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Organization>> {
    let (id, name, created_at, updated_at): (String, String, DateTime<Utc>, Option<DateTime<Utc>>) =
        sqlx::query_as("SELECT id, name, created_at, updated_at FROM organizations WHERE id = ?")
            .bind(caller.organization_id.to_string())
            .fetch_optional(&state.db)
            .await?
            .ok_or_else(|| ApiError::not_found("organization"))?;
    Ok(Json(Organization {
        id: db::id(&id)?,
        name,
        created_at,
        updated_at,
    }))
}
