//! Who is signed in (`GET /account`), as this server knows them: an API token by its name, a
//! member invited by link by their e-mail address, a person signed in through the identity
//! provider by their name and address.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::AccountInfo;

use crate::caller::{Account, Caller, Permission};
use crate::error::{ApiError, ApiResult};
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::people::{self, PersonRow};
use crate::store::{members, tokens};

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::ACCOUNT,
        Permission::SignedIn,
        Doc::new("Who is signed in: the API token, the member or the person")
            .answers::<AccountInfo>(StatusCode::OK),
        account,
    );
}

async fn account(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<AccountInfo>> {
    let mut conn = state.db.acquire().await?;
    let organization_id = caller.organization_id;
    Ok(Json(match caller.account {
        Account::Token(id) => {
            let token = tokens::find(&mut conn, organization_id, id).await?;
            AccountInfo {
                id: Some(token.id),
                created_at: Some(token.created_at),
                nickname: Some(token.name),
                ..AccountInfo::default()
            }
        }
        Account::Member(id) => {
            let member = members::member(&mut *conn, organization_id, id).await?;
            AccountInfo {
                id: Some(member.id),
                created_at: Some(member.created_at),
                nickname: member.email.split('@').next().map(str::to_string),
                communication_email: Some(member.email),
                ..AccountInfo::default()
            }
        }
        Account::Person { id, .. } => person_account(
            people::find(&mut *conn, id)
                .await?
                .ok_or_else(|| ApiError::not_found("account"))?,
        ),
    }))
}

/// A person as the document's account: their names from the provider's, their address where
/// the platform writes to them (the provider's until they choose one).
fn person_account(person: PersonRow) -> AccountInfo {
    let (first_name, last_name) = match person.name.as_deref().map(str::trim) {
        Some(name) => match name.split_once(' ') {
            Some((first, last)) => (Some(first.to_string()), Some(last.trim().to_string())),
            None => (Some(name.to_string()), None),
        },
        None => (None, None),
    };
    AccountInfo {
        id: Some(person.id),
        created_at: Some(person.created_at),
        nickname: person
            .email
            .as_deref()
            .and_then(|email| email.split('@').next())
            .map(str::to_string),
        first_name,
        last_name,
        profile_picture_url: None,
        communication_email: person.communication_email.or(person.email),
    }
}
