//! Who is calling: API tokens (`Authorization: Token ...`, stored only as a SHA-256 hash) or access
//! tokens (`Authorization: Bearer <JWT>`, HS256 with the server's key), and the role they carry.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Validation};
use rand::distr::{Alphanumeric, SampleString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::audit::{self, Client};
use crate::error::ApiError;
use crate::fresh::Read;
use crate::state::AppState;

/// What a role lets a caller do; each level includes the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    Read,
    Deploy,
    Write,
    Admin,
}

impl Permission {
    pub const ALL: [Permission; 4] = [
        Permission::Read,
        Permission::Deploy,
        Permission::Write,
        Permission::Admin,
    ];

    /// The permission as the wire names it.
    pub fn wire(self) -> platform_api::RolePermission {
        use platform_api::RolePermission;
        match self {
            Permission::Read => RolePermission::Read,
            Permission::Deploy => RolePermission::Deploy,
            Permission::Write => RolePermission::Write,
            Permission::Admin => RolePermission::Admin,
        }
    }
}

/// The four roles every organization starts with: name, description, permission.
pub const BUILT_IN_ROLES: [(&str, &str, Permission); 4] = [
    (
        "ADMIN",
        "Everything, including tokens, webhooks and roles",
        Permission::Admin,
    ),
    (
        "WRITE",
        "Create and update resources, and run actions",
        Permission::Write,
    ),
    (
        "DEPLOY",
        "Read resources and trigger deployments and actions",
        Permission::Deploy,
    ),
    ("READ", "Read resources only", Permission::Read),
];

/// The permission of a level as roles store it (ADMIN, WRITE, DEPLOY, READ).
pub fn role_permission(level: &str) -> Option<Permission> {
    BUILT_IN_ROLES
        .iter()
        .find(|(name, _, _)| *name == level)
        .map(|(_, _, permission)| *permission)
}

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

/// The authenticated caller of a request, put there by the route table's auth layer.
#[derive(Clone, Debug)]
pub struct Caller {
    pub organization_id: Uuid,
    /// Who is calling, for records that name an owner: the API token's name, or the access
    /// token's user.
    pub name: String,
    pub role_name: String,
    /// Where the request came from, for the audit log.
    pub client: Client,
    permission: Permission,
    /// Whose quota the request counts against: the API token, or the access token's user.
    rate_key: String,
}

impl Caller {
    /// 403 unless the caller's role grants `needed`.
    pub fn require(&self, needed: Permission) -> Result<(), ApiError> {
        if self.may(needed) {
            Ok(())
        } else {
            Err(ApiError::forbidden(format!(
                "Your token's role ({}) does not allow this call.",
                self.role_name
            )))
        }
    }

    /// The caller's permission level, as the wire names it.
    pub fn permission(&self) -> platform_api::RolePermission {
        self.permission.wire()
    }

    /// Whether the caller's role grants `needed`.
    pub fn may(&self, needed: Permission) -> bool {
        self.permission >= needed
    }

    /// What the caller's role grants.
    pub fn level(&self) -> Permission {
        self.permission
    }

    pub fn rate_key(&self) -> &str {
        &self.rate_key
    }

    /// The caller as this request's headers describe its client.
    pub fn with_client(mut self, headers: &HeaderMap) -> Self {
        self.client = Client::of(headers);
        self
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .ok_or_else(|| ApiError::internal("a route was registered outside the route table"))
    }
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

/// An API token's caller and when the token expires, as `Fresh` keeps them.
#[derive(Clone)]
pub struct TokenCaller {
    caller: Caller,
    /// The token's id and name.
    id: uuid::Uuid,
    name: String,
    expires_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl crate::fresh::Weigh for TokenCaller {
    fn weight(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.name.len()
            + self.caller.name.len()
            + self.caller.role_name.len()
            + self.caller.rate_key().len()
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
    let row: Row = sqlx::query_as(
        "SELECT t.id AS token_id, t.organization_id, t.name AS token_name, r.name AS role_name,
                r.permission, t.expires_at
         FROM api_tokens t JOIN roles r ON r.id = t.role_id WHERE t.token_hash = ?",
    )
    .bind(hash)
    .fetch_optional(&state.db)
    .await?
    .ok_or_else(|| ApiError::unauthorized("The API token is unknown or was deleted."))?;
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
            rate_key: format!("token:{}", row.token_id),
        },
        id: row.token_id.parse().map_err(ApiError::internal)?,
        name: row.token_name,
        expires_at: row.expires_at,
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
    let (known,): (bool,) =
        sqlx::query_as("SELECT EXISTS (SELECT 1 FROM organizations WHERE id = ?)")
            .bind(claims.organization_id.to_string())
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
        rate_key: format!("user:{}", claims.sub),
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

    #[test]
    fn permissions_include_the_lower_ones() {
        assert!(Permission::Admin > Permission::Write);
        assert!(Permission::Write > Permission::Deploy);
        assert!(Permission::Deploy > Permission::Read);
        assert_eq!(role_permission("DEPLOY"), Some(Permission::Deploy));
        assert_eq!(role_permission("OWNER"), None);
    }
}
