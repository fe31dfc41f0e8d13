//! Organization API tokens (spec 2.14): ADMIN only. A token is shown once, at creation,
//! and stored as a hash; deleting it makes it fail at once, and so does its expiry (spec 5.6).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::paths;
use platform_api::{ApiToken, ApiTokenRequest, FieldError, List, RolePermission};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::auth::{generate_token, hash_token};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::members::{self, Admins};
use crate::store::tokens;

pub fn register(routes: &mut RouteTable) {
    let tokens = paths::API_TOKENS;
    let token = paths::API_TOKEN;
    routes
        .add(
            Method::GET,
            tokens,
            Permission::Admin,
            Doc::new("List the API tokens (never their secret)")
                .answers_list_of::<ApiToken>(StatusCode::OK),
            list_tokens,
        )
        .add(
            Method::POST,
            tokens,
            Permission::Admin,
            Doc::new("Create an API token; the answer carries the token, shown this once")
                .body::<ApiTokenRequest>()
                .answers::<ApiToken>(StatusCode::CREATED),
            create_token,
        )
        .add(
            Method::GET,
            token,
            Permission::Admin,
            Doc::new("Read an API token (never its secret)").answers::<ApiToken>(StatusCode::OK),
            get_token,
        )
        .add(
            Method::DELETE,
            token,
            Permission::Admin,
            Doc::new("Delete an API token; it stops working at once")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete_token,
        );
}

async fn list_tokens(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ApiToken>>> {
    own_organization(&caller, organization_id)?;
    let tokens = tokens::tokens(&state.db, organization_id).await?;
    Ok(Json(List::new(tokens)))
}

async fn create_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ApiTokenRequest>,
) -> ApiResult<(StatusCode, Json<ApiToken>)> {
    own_organization(&caller, organization_id)?;
    request.validate(Utc::now()).map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let role_id = match request.role_id {
        Some(role_id) => role_id,
        // The role the deprecated `scope: ADMIN` stands for.
        None => {
            members::built_in_role(&mut tx, organization_id, RolePermission::Admin)
                .await?
                .id
        }
    };
    let known = members::role(&mut tx, organization_id, role_id)
        .await?
        .is_some();
    if !known {
        return Err(ApiError::invalid(vec![FieldError::new(
            "role_id",
            "is not a role of this organization (see GET /organization/{id}/customRole)",
        )]));
    }
    let secret = generate_token();
    let id = tokens::insert(
        &mut tx,
        organization_id,
        role_id,
        &request,
        &hash_token(&secret),
    )
    .await?;
    let mut created = tokens::find(&mut tx, organization_id, id).await?;
    let change = token_change(&mut tx, EventType::Create, organization_id)
        .await?
        .after(&created)
        .secrets(["token"]);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    // Shown once, here, and never recorded.
    created.token = Some(secret);
    Ok((StatusCode::CREATED, Json(created)))
}

async fn get_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, token_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ApiToken>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(
        tokens::find(&mut *state.db.acquire().await?, organization_id, token_id).await?,
    ))
}

async fn delete_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, token_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = tokens::find(&mut tx, organization_id, token_id).await?;
    let admins = Admins::of(&mut tx, organization_id).await?;
    tokens::delete(&mut tx, token_id).await?;
    admins.kept(&mut tx, organization_id).await?;
    let change = token_change(&mut tx, EventType::Delete, organization_id)
        .await?
        .before(&before);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A change to the organization's API tokens, for the audit log.
async fn token_change(
    conn: &mut SqliteConnection,
    event_type: EventType,
    organization_id: Uuid,
) -> ApiResult<Change> {
    let target = Target::organization(conn, organization_id).await?;
    Ok(Change::new(event_type, target).of(SubTargetType::ApiToken))
}
