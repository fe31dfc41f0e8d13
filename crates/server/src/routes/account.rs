//! Who is signed in (`GET /account`), as this server knows them: an API token by its name, a
//! member by their e-mail address (the address they were invited at), an access token's user
//! by its subject. Nothing here is edited: the document's one editable field, a communication
//! e-mail, would name where a server that sends no mail of its own sends it.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::AccountInfo;

use crate::caller::{Account, Caller, Permission};
use crate::error::ApiResult;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::{members, tokens};

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::ACCOUNT,
        Permission::Read,
        Doc::new("Who is signed in: the API token, the member or the access token's user")
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
        Account::User(subject) => AccountInfo {
            nickname: Some(subject),
            ..AccountInfo::default()
        },
    }))
}
