//! An organization's API tokens, as stored: each by the hash of its secret, never the secret.

use chrono::{DateTime, Utc};
use platform_api::{ApiToken, ApiTokenRequest};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

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

impl From<TokenRow> for ApiToken {
    fn from(row: TokenRow) -> Self {
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
}

/// The organization's tokens, oldest first.
pub async fn tokens<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
) -> ApiResult<Vec<ApiToken>> {
    let rows: Vec<TokenRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE t.organization_id = ? ORDER BY t.created_at"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(ApiToken::from).collect())
}

/// One of the organization's tokens, or 404.
pub async fn find(
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
    Ok(row.into())
}

/// A new token carrying `role_id`, stored by `secret_hash`; its id.
pub async fn insert(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    role_id: Uuid,
    request: &ApiTokenRequest,
    secret_hash: &str,
) -> ApiResult<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO api_tokens (id, organization_id, role_id, name, description, token_hash, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(role_id.hyphenated())
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(secret_hash)
    .bind(Utc::now())
    .bind(request.expires_at)
    .execute(conn)
    .await?;
    Ok(id)
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    sqlx::query("DELETE FROM api_tokens WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}
