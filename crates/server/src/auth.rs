//! Who is calling: API tokens (`Authorization: Token ...`), stored only as a SHA-256 hash, and
//! the role they carry.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use rand::distr::{Alphanumeric, SampleString};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::error::ApiError;
use crate::AppState;

/// What a role lets a caller do; each level includes the ones before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    Read,
    Deploy,
    Write,
    Admin,
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

pub fn role_permission(role_name: &str) -> Option<Permission> {
    BUILT_IN_ROLES
        .iter()
        .find(|(name, _, _)| *name == role_name)
        .map(|(_, _, permission)| *permission)
}

/// A new API token: random, prefixed so that it is recognisable in a secret scanner.
pub fn generate_token() -> String {
    format!("pt_{}", Alphanumeric.sample_string(&mut rand::rng(), 40))
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The authenticated caller of a request.
#[derive(Clone, Debug)]
pub struct Caller {
    pub organization_id: Uuid,
    pub role_name: String,
    permission: Permission,
}

impl Caller {
    /// 403 unless the caller's role grants `needed`.
    pub fn require(&self, needed: Permission) -> Result<(), ApiError> {
        if self.permission >= needed {
            Ok(())
        } else {
            Err(ApiError::forbidden(format!(
                "Your token's role ({}) does not allow this call.",
                self.role_name
            )))
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let header = parts
            .headers
            .get(AUTHORIZATION)
            .ok_or_else(|| ApiError::unauthorized("The Authorization header is missing."))?
            .to_str()
            .map_err(|_| ApiError::unauthorized("The Authorization header is not readable."))?;
        let (scheme, credential) = header.split_once(' ').ok_or_else(|| {
            ApiError::unauthorized("The Authorization header must be `Token <api token>`.")
        })?;
        match scheme {
            "Token" => token_caller(state, credential.trim()).await,
            "Bearer" => Err(ApiError::unauthorized(
                "Access tokens are not accepted by this server; use an API token.",
            )),
            _ => Err(ApiError::unauthorized(
                "The Authorization scheme must be `Token`.",
            )),
        }
    }
}

async fn token_caller(state: &AppState, token: &str) -> Result<Caller, ApiError> {
    let row: Option<(String, String)> = sqlx::query_as(
        "SELECT t.organization_id, r.name FROM api_tokens t JOIN roles r ON r.id = t.role_id
         WHERE t.token_hash = ?",
    )
    .bind(hash_token(token))
    .fetch_optional(&state.db)
    .await?;
    let (organization_id, role_name) =
        row.ok_or_else(|| ApiError::unauthorized("The API token is unknown or was deleted."))?;
    let permission = role_permission(&role_name)
        .ok_or_else(|| ApiError::internal(format!("token carries an unknown role {role_name}")))?;
    Ok(Caller {
        organization_id: organization_id.parse().map_err(ApiError::internal)?,
        role_name,
        permission,
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
