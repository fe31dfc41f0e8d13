//! Git tokens: the organization's credentials for its private repositories. The token is sealed
//! with the record's secrets and never answered; a service's repository names one by
//! `git_token_id` (checked here to be the organization's and of the repository's code host), and
//! a token that services use is not deleted.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use platform_api::audit::{SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{
    FieldError, GitProvider, GitRepositoryRequest, GitToken, GitTokenAssociatedService,
    GitTokenRequest, GitTokenServiceType, List, WireEnum, GIT_TOKEN_SECRET, SAMPLED_CODE_HOST,
};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::organization::resources::{self, OrganizationResource};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::seal::Secrets;
use crate::state::AppState;
use crate::store::associated::services_naming;
use crate::store::organization_resources::UsedBy;
use crate::store::organization_resources::{self as store, Kind};

pub struct GitTokens;

impl OrganizationResource for GitTokens {
    const KIND: Kind = store::GIT_TOKENS;
    const AUDITED_AS: (TargetType, Option<SubTargetType>) =
        (TargetType::Organization, Some(SubTargetType::GitToken));
    const COLLECTION: Template = paths::GIT_TOKENS;
    const ITEM: Template = paths::GIT_TOKEN;

    type Request = GitTokenRequest;
    type Record = GitToken;

    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate(kept)
    }

    fn build(
        id: Uuid,
        _organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        _previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let secrets = request
            .token
            .map(|token| token.trim().to_string())
            .filter(|token| !token.is_empty())
            .map(|token| (GIT_TOKEN_SECRET.to_string(), token))
            .into_iter()
            .collect();
        let token = GitToken {
            id,
            created_at,
            updated_at,
            name: request.name.trim().to_string(),
            description: request.description,
            kind: request.kind,
            git_api_url: request
                .git_api_url
                .map(|url| url.trim().to_string())
                .filter(|url| !url.is_empty())
                .unwrap_or_else(|| request.kind.public_api_url().to_string()),
            workspace: request
                .workspace
                .map(|workspace| workspace.trim().to_string())
                .filter(|workspace| !workspace.is_empty()),
            expired_at: None,
            associated_services_count: 0,
        };
        (token, secrets)
    }

    /// A token is for one code host: another host's token replaces it.
    fn keeps_secrets(previous: &Self::Record, request: &Self::Request) -> bool {
        previous.kind == request.kind
    }

    const USED_BY: UsedBy = UsedBy::Services;

    fn reflect_usage(record: &mut Self::Record, users: i64) {
        record.associated_services_count = users;
    }

    fn name(record: &Self::Record) -> String {
        record.name.clone()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }
}

pub fn register(routes: &mut RouteTable) {
    resources::register::<GitTokens>(routes);
    routes.add(
        Method::GET,
        paths::GIT_TOKEN_SERVICES,
        Permission::Read,
        Doc::new("The services whose repository is read with a git token")
            .answers_list_of::<GitTokenAssociatedService>(StatusCode::OK),
        associated_services,
    );
}

async fn associated_services(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, token_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<GitTokenAssociatedService>>> {
    own_organization(&caller, organization_id)?;
    store::find::<GitToken>(&state.db, GitTokens::KIND, organization_id, token_id).await?;
    let rows = services_naming(&state.db, organization_id, token_id).await?;
    let services = rows
        .into_iter()
        .filter_map(|row| {
            Some(GitTokenAssociatedService {
                service_type: GitTokenServiceType::of(row.kind, row.cron)?,
                project_id: row.project_id,
                project_name: row.project_name,
                environment_id: row.environment_id,
                environment_name: row.environment_name,
                service_id: row.id,
                service_name: row.name,
            })
        })
        .collect();
    Ok(Json(List::new(services)))
}

/// 400 unless the git token a repository names (at `field`, `git_repository` or a nested one) is
/// one of the organization's, for the repository's code host.
pub async fn check_choice(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    (field, repository): (&str, &GitRepositoryRequest),
) -> ApiResult<()> {
    let Some(token_id) = repository.git_token_id else {
        return Ok(());
    };
    let host = repository.provider.unwrap_or(SAMPLED_CODE_HOST);
    let field = match field {
        "" => "git_token_id".to_string(),
        field => format!("{field}.git_token_id"),
    };
    check_token(conn, organization_id, &field, token_id, host).await
}

/// 400 naming `field` unless `token_id` is one of the organization's git tokens, for `host`.
pub async fn check_token(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    field: &str,
    token_id: Uuid,
    host: GitProvider,
) -> ApiResult<()> {
    let token =
        match store::find::<GitToken>(&mut *conn, GitTokens::KIND, organization_id, token_id).await
        {
            Ok(token) => token.record,
            Err(error) if error.status() == StatusCode::NOT_FOUND => {
                return Err(ApiError::invalid(vec![FieldError::new(
                    field,
                    "is not a git token of this organization",
                )]))
            }
            Err(error) => return Err(error),
        };
    if token.kind != host {
        return Err(ApiError::invalid(vec![FieldError::new(
            field,
            format!(
                "is a token for {}, and the repository is on {}",
                token.kind.label(),
                host.label()
            ),
        )]));
    }
    Ok(())
}
