//! Who is calling: API tokens (`Authorization: Token ...`, stored only as a SHA-256 hash) and the
//! sessions of members invited by link, each bound to its organization with its role; or people
//! signed in through the identity provider (`Authorization: Bearer <access token>`, checked by
//! `oidc`), whose role is their membership in the organization a request is about.

use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;
use rand::distr::{Alphanumeric, SampleString};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::audit;
use crate::caller::{role_permission, Account, Caller, Client, Permission, TokenCaller};
use crate::db;
use crate::error::ApiError;
use crate::fresh::Read;
use crate::state::AppState;
use crate::store::members;
use crate::store::people::{self, PersonRow};

/// A new API token: random, prefixed so that it is recognisable in a secret scanner.
pub fn generate_token() -> String {
    format!("pt_{}", Alphanumeric.sample_string(&mut rand::rng(), 40))
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Who a request's token names: a caller of one organization (an API token, a member's
/// session), or a person signed in through the identity provider, whose organization is the one
/// the request is about (`person_caller`).
pub enum Signed {
    Caller(Caller),
    Person(PersonRow),
}

/// Who sent the request: 401 when the Authorization header is missing, malformed, unknown,
/// expired or deleted.
pub async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<Signed, ApiError> {
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
        "Token" => Ok(Signed::Caller(
            token_caller(state, credential.trim(), headers).await?,
        )),
        "Bearer" => Ok(Signed::Person(person(state, credential.trim()).await?)),
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

/// The person an access token names, checked by the identity provider's keys: as stored, made
/// at their first sign-in, their address and name kept as their token says them.
async fn person(state: &AppState, token: &str) -> Result<PersonRow, ApiError> {
    let provider = state.oidc.as_deref().ok_or_else(|| {
        ApiError::unauthorized(
            "This server takes no access tokens: it was started without --oidc-issuer. Use an API token.",
        )
    })?;
    let signed = provider
        .verify(token)
        .await
        .map_err(ApiError::unauthorized)?;
    let stored = people::by_subject(&state.db, &signed.subject).await?;
    match stored {
        Some(stored) if stored.email == signed.email && stored.name == signed.name => Ok(stored),
        _ => {
            let mut tx = db::begin_write(&state.writes).await?;
            let stored = people::signed_in(&mut tx, &signed).await?;
            tx.commit().await?;
            Ok(stored)
        }
    }
}

/// The caller a person is in `organization` (the one the request is about; none when it names
/// none, then their oldest membership's): a member there has their role; someone who is not may
/// make only the calls every signed-in person may (`SignedIn`), and the organization is 404 to
/// them otherwise.
pub async fn person_caller(
    state: &AppState,
    person: PersonRow,
    organization: Option<Uuid>,
    needed: Permission,
) -> Result<Caller, ApiError> {
    let membership = match organization {
        Some(organization) => people::membership(&state.db, person.id, organization).await?,
        None => people::memberships(&state.db, person.id)
            .await?
            .into_iter()
            .next(),
    };
    let name = person
        .email
        .clone()
        .or_else(|| person.name.clone())
        .unwrap_or_else(|| person.subject.clone());
    match membership {
        Some(membership) => Ok(Caller {
            organization_id: membership.organization_id,
            name,
            role_name: membership.role_name,
            client: Client::default(),
            permission: role_permission(membership.permission.as_str()).ok_or_else(|| {
                ApiError::internal("a member's role grants an unknown permission")
            })?,
            account: Account::Person {
                id: person.id,
                member_id: Some(membership.member_id),
            },
        }),
        None if needed == Permission::SignedIn => Ok(Caller {
            organization_id: organization.unwrap_or(Uuid::nil()),
            name,
            role_name: "none (not a member)".to_string(),
            client: Client::default(),
            permission: Permission::SignedIn,
            account: Account::Person {
                id: person.id,
                member_id: None,
            },
        }),
        None => Err(ApiError::not_found("organization")),
    }
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
