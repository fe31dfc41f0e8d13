//! Organization API tokens (spec 2.14): ADMIN only. A token is shown once, at creation,
//! and stored as a hash; deleting it makes it fail at once, and so does its expiry (spec 5.6).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::{EventType, SubTargetType};
use platform_api::{ApiToken, ApiTokenRequest, FieldError, List};
use sqlx::SqliteConnection;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::auth::{generate_token, hash_token};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::members::Admins;

pub fn register(routes: &mut RouteTable) {
    let tokens = "/organization/{organization_id}/apiToken";
    let token = "/organization/{organization_id}/apiToken/{api_token_id}";
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

#[derive(sqlx::FromRow)]
struct TokenRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
    name: String,
    description: Option<String>,
    role_name: String,
    #[sqlx(try_from = "Hyphenated")]
    role_id: Uuid,
    expires_at: Option<DateTime<Utc>>,
}

const SELECT: &str = "SELECT t.id, t.created_at, t.updated_at, t.name, t.description,
        r.name AS role_name, r.id AS role_id, t.expires_at
    FROM api_tokens t JOIN roles r ON r.id = t.role_id";

fn api_token(row: TokenRow) -> ApiToken {
    ApiToken {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        name: row.name,
        description: row.description,
        role_name: row.role_name,
        role_id: Some(row.role_id),
        expires_at: row.expires_at,
        token: None,
    }
}

async fn list_tokens(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ApiToken>>> {
    own_organization(&caller, organization_id)?;
    let rows: Vec<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.organization_id = ? ORDER BY t.created_at"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(&state.db)
    .await?;
    let tokens = rows.into_iter().map(api_token).collect();
    Ok(Json(List::new(tokens)))
}

/// The role the deprecated `scope: ADMIN` stands for.
async fn built_in_admin_role(db: &mut SqliteConnection, organization_id: Uuid) -> ApiResult<Uuid> {
    let id: Hyphenated = sqlx::query_scalar(
        "SELECT id FROM roles WHERE organization_id = ? AND built_in = 1 AND permission = 'ADMIN'",
    )
    .bind(organization_id.hyphenated())
    .fetch_one(db)
    .await?;
    Ok(id.into_uuid())
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
        None => built_in_admin_role(&mut tx, organization_id).await?,
    };
    let known: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM roles WHERE id = ? AND organization_id = ?)",
    )
    .bind(role_id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_one(&mut *tx)
    .await?;
    if !known {
        return Err(ApiError::invalid(vec![FieldError::new(
            "role_id",
            "is not a role of this organization (see GET /organization/{id}/customRole)",
        )]));
    }
    let id = Uuid::new_v4();
    let secret = generate_token();
    sqlx::query(
        "INSERT INTO api_tokens (id, organization_id, role_id, name, description, token_hash, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(role_id.hyphenated())
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(hash_token(&secret))
    .bind(Utc::now())
    .bind(request.expires_at)
    .execute(&mut *tx)
    .await?;
    let mut created = find_token(&mut tx, organization_id, id).await?;
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
        find_token(&mut *state.db.acquire().await?, organization_id, token_id).await?,
    ))
}

async fn delete_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, token_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = find_token(&mut tx, organization_id, token_id).await?;
    let admins = Admins::of(&mut tx, organization_id).await?;
    sqlx::query("DELETE FROM api_tokens WHERE id = ?")
        .bind(token_id.hyphenated())
        .execute(&mut *tx)
        .await?;
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

async fn find_token(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<ApiToken> {
    let row: TokenRow = sqlx::query_as(&format!(
        "{SELECT} WHERE t.id = ? AND t.organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| ApiError::not_found("API token"))?;
    Ok(api_token(row))
}
