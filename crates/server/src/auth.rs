//! Who is calling: API tokens (`Authorization: Token ...`, stored only as a SHA-256 hash) or access
//! tokens (`Authorization: Bearer <JWT>`, HS256 with the server's key), and the role they carry.

use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Validation};
use rand::distr::{Alphanumeric, SampleString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::audit;
use crate::caller::{role_permission, Account, Caller, Client, TokenCaller};
use crate::error::ApiError;
use crate::fresh::Read;
use crate::state::AppState;
use crate::store::members;

/// A new API token: random, prefixed so that it is recognisable in a secret scanner.
pub fn generate_token() -> String {
    format!("pt_{}", Alphanumeric.sample_string(&mut rand::rng(), 40))
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The claims of an access token (JWT, HS256): who the user is, in which organization, with which
/// role, until when.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AccessClaims {
    /// The user.
    pub sub: String,
    pub organization_id: Uuid,
    /// One of the built-in role names: ADMIN, WRITE, DEPLOY, READ.
    pub role: String,
    /// Expiry, in seconds since the Unix epoch.
    pub exp: u64,
    /// Not valid before, in seconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbf: Option<u64>,
}

/// Signs an access token with the server's key, as an identity provider would.
pub fn issue_access_token(secret: &[u8], claims: &AccessClaims) -> String {
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(Algorithm::HS256),
        claims,
        &EncodingKey::from_secret(secret),
    )
    .expect("HS256 signing of serializable claims cannot fail")
}

/// Who sent the request: 401 when the Authorization header is missing, malformed, unknown,
/// expired or deleted.
pub async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<Caller, ApiError> {
    let header = headers
        .get(AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("The Authorization header is missing."))?
        .to_str()
        .map_err(|_| ApiError::unauthorized("The Authorization header is not readable."))?;
    let (scheme, credential) = header.split_once(' ').ok_or_else(|| {
        ApiError::unauthorized(
            "The Authorization header must be `Token <api token>` or `Bearer <access token>`.",
        )
    })?;
    match scheme {
        "Token" => token_caller(state, credential.trim(), headers).await,
        "Bearer" => bearer_caller(state, credential.trim()).await,
        _ => Err(ApiError::unauthorized(
            "The Authorization scheme must be `Token` or `Bearer`.",
        )),
    }
}

async fn token_caller(
    state: &AppState,
    token: &str,
    headers: &HeaderMap,
) -> Result<Caller, ApiError> {
    let hash = hash_token(token);
    let found = state
        .kept
        .callers
        .get_or_read(hash.clone(), async {
            let value = read_token_caller(state, &hash).await?;
            Ok::<_, ApiError>(Read { value, keep: true })
        })
        .await;
    let found = match found {
        Ok(found) => found,
        Err(error) => {
            // A deleted token's use is recorded, by its name.
            if let Some(revoked) = audit::revoked_token(&state.db, &hash).await? {
                let refused = "The API token was deleted.";
                audit::record_refusal(&state.writes, &revoked, refused, Client::of(headers))
                    .await?;
                return Err(ApiError::unauthorized(refused));
            }
            return Err(error);
        }
    };
    if found.expires_at.is_some_and(|at| at <= chrono::Utc::now()) {
        let refused = "The API token has expired.";
        let token = audit::RefusedToken {
            organization_id: found.caller.organization_id,
            id: found.id,
            name: found.name.clone(),
        };
        audit::record_refusal(&state.writes, &token, refused, Client::of(headers)).await?;
        return Err(ApiError::unauthorized(refused));
    }
    Ok(found.caller)
}

async fn read_token_caller(state: &AppState, hash: &str) -> Result<TokenCaller, ApiError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        token_id: String,
        organization_id: String,
        token_name: String,
        role_name: String,
        permission: String,
        expires_at: Option<chrono::DateTime<chrono::Utc>>,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT t.id AS token_id, t.organization_id, t.name AS token_name, r.name AS role_name,
                r.permission, t.expires_at
         FROM api_tokens t JOIN roles r ON r.id = t.role_id WHERE t.token_hash = ?",
    )
    .bind(hash)
    .fetch_optional(&state.db)
    .await?;
    let Some(row) = row else {
        return member_caller(state, hash).await;
    };
    let permission = role_permission(&row.permission).ok_or_else(|| {
        ApiError::internal(format!(
            "role {} grants an unknown permission",
            row.role_name
        ))
    })?;
    Ok(TokenCaller {
        caller: Caller {
            organization_id: row.organization_id.parse().map_err(ApiError::internal)?,
            name: format!("API token {}", row.token_name),
            role_name: row.role_name,
            client: Client::default(),
            permission,
            account: Account::Token(row.token_id.parse().map_err(ApiError::internal)?),
        },
        id: row.token_id.parse().map_err(ApiError::internal)?,
        name: row.token_name,
        expires_at: row.expires_at,
    })
}

/// How long a member's last activity may be behind: it is written at most this often.
const ACTIVITY_PRECISION: chrono::TimeDelta = chrono::TimeDelta::minutes(1);

/// The member a session token (from an accepted invitation) signs in: held to their role as it
/// is now, named by their e-mail address.
async fn member_caller(state: &AppState, hash: &str) -> Result<TokenCaller, ApiError> {
    let member = members::session_member(&state.db, hash)
        .await?
        .ok_or_else(|| ApiError::unauthorized("The API token is unknown or was deleted."))?;
    let now = chrono::Utc::now();
    if member
        .last_activity_at
        .is_none_or(|at| now - at > ACTIVITY_PRECISION)
    {
        // What the member asked for is answered even if this note cannot be written now.
        if let Err(error) = members::touch(&state.writes, member.member_id).await {
            tracing::warn!(%error, "could not note a member's activity");
        }
    }
    let permission = role_permission(member.permission.as_str()).ok_or_else(|| {
        ApiError::internal(format!(
            "role {} grants an unknown permission",
            member.role_name
        ))
    })?;
    Ok(TokenCaller {
        caller: Caller {
            organization_id: member.organization_id,
            name: member.email.clone(),
            role_name: member.role_name,
            client: Client::default(),
            permission,
            account: Account::Member(member.member_id),
        },
        id: member.member_id,
        name: member.email,
        expires_at: None,
    })
}

async fn bearer_caller(state: &AppState, token: &str) -> Result<Caller, ApiError> {
    let secret = state.jwt_secret.as_deref().ok_or_else(|| {
        ApiError::unauthorized(
            "This server accepts no access tokens (it was started without --jwt-secret); use an API token.",
        )
    })?;
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    validation.validate_nbf = true;
    let claims =
        jsonwebtoken::decode::<AccessClaims>(token, &DecodingKey::from_secret(secret), &validation)
            .map_err(|error| match error.kind() {
                ErrorKind::ExpiredSignature => {
                    ApiError::unauthorized("The access token has expired.")
                }
                ErrorKind::ImmatureSignature => {
                    ApiError::unauthorized("The access token is not valid yet.")
                }
                _ => ApiError::unauthorized("The access token is not valid."),
            })?
            .claims;
    let permission = role_permission(&claims.role).ok_or_else(|| {
        ApiError::unauthorized("The access token names no role this server knows.")
    })?;
    let known: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM organizations WHERE id = ?)")
            .bind(claims.organization_id.hyphenated())
            .fetch_one(&state.db)
            .await?;
    if !known {
        return Err(ApiError::unauthorized(
            "The access token names an organization this server does not have.",
        ));
    }
    Ok(Caller {
        organization_id: claims.organization_id,
        name: claims.sub.clone(),
        role_name: claims.role,
        client: Client::default(),
        permission,
        account: Account::User(claims.sub),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashes_stable() {
        let first = generate_token();
        assert_ne!(first, generate_token());
        assert!(first.starts_with("pt_") && first.len() == 43);
        assert_eq!(hash_token(&first), hash_token(&first));
        assert_ne!(hash_token(&first), first);
    }
}
