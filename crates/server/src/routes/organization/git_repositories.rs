//! What the console's repository fields offer: the code-host accounts connected
//! (`…/account/gitAuthProvider`), their repositories and branches (`…/account/{host}/repository`
//! and `/branch`, with or without a git token) and the folders of a repository
//! (`listDirectoriesFromGitRepository`).
//!
//! This server reaches no code host: it connects no account and tries no token against one. The
//! repositories it lists are the ones it reads, those directly under the folders it was given
//! (`git::Repositories::listed`), answered as the account of whoever asks on the sampled code
//! host (`SAMPLED_CODE_HOST`, the host its local repositories read as), and to a git token of any
//! host. Another host without a token has no account connected: a 400 naming `gitTokenId`.
//!
//! Listing any repository is what creating a service allows (WRITE); a caller who may only read
//! sees the repositories its organization's services already use, as it sees the services.

use std::collections::HashSet;

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths::{self, Template};
use platform_api::{
    git_host_paths, FieldError, GitAuthProvider, GitProvider, GitRepositoryBranch,
    GitRepositoryRequest, HostedRepository, List, RepositoryQuery, WireEnum, SAMPLED_CODE_HOST,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::git::{self, Location, Repository};
use crate::routes::doc::{text, uuid};
use crate::routes::organization::git_tokens;
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::GIT_ACCOUNTS,
        Permission::Read,
        Doc::new("The code-host accounts repositories are listed with")
            .answers_list_of::<GitAuthProvider>(StatusCode::OK),
        |caller: Caller, ApiPath(organization_id): ApiPath<Uuid>| async move {
            own_organization(&caller, organization_id)?;
            Ok::<_, ApiError>(accounts(&caller))
        },
    );
    routes.add(
        Method::GET,
        paths::ACCOUNT_GIT_ACCOUNTS,
        Permission::Read,
        Doc::new(
            "The code-host accounts repositories are listed with (of the token's organization)",
        )
        .answers_list_of::<GitAuthProvider>(StatusCode::OK),
        |caller: Caller| async move { accounts(&caller) },
    );
    for host in GitProvider::ALL.iter().copied() {
        let Some(host_paths) = git_host_paths(host) else {
            continue;
        };
        register_host(
            routes,
            host,
            host_paths.repositories,
            host_paths.branches,
            true,
        );
        register_host(
            routes,
            host,
            host_paths.account_repositories,
            host_paths.account_branches,
            false,
        );
    }
    routes.add(
        Method::POST,
        paths::REPOSITORY_DIRECTORIES,
        Permission::Read,
        Doc::new("The folders directly below a path of a git repository")
            .body::<GitRepositoryRequest>()
            .answers_list_of::<String>(StatusCode::OK),
        list_directories,
    );
}

/// The repository and branch lists of `host`, under the organization (`in_organization`) or of
/// the token's organization.
fn register_host(
    routes: &mut RouteTable,
    host: GitProvider,
    repositories: Template,
    branches: Template,
    in_organization: bool,
) {
    let label = host.label();
    let repositories_doc = Doc::new(format!(
        "The {label} repositories the account or a git token reads"
    ))
    .query("gitTokenId", false, uuid())
    .answers_list_of::<HostedRepository>(StatusCode::OK);
    let branches_doc = Doc::new(format!("The branches of a {label} repository"))
        .query("name", true, text())
        .query("gitTokenId", false, uuid())
        .answers_list_of::<GitRepositoryBranch>(StatusCode::OK);
    if in_organization {
        routes.add(
            Method::GET,
            repositories.0,
            Permission::Read,
            repositories_doc,
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath(organization_id): ApiPath<Uuid>,
                  ApiQuery(query): ApiQuery<RepositoryQuery>| async move {
                own_organization(&caller, organization_id)?;
                list_repositories(&state, &caller, organization_id, host, query).await
            },
        );
        routes.add(
            Method::GET,
            branches.0,
            Permission::Read,
            branches_doc,
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiPath(organization_id): ApiPath<Uuid>,
                  ApiQuery(query): ApiQuery<RepositoryQuery>| async move {
                own_organization(&caller, organization_id)?;
                list_branches(&state, &caller, organization_id, host, query).await
            },
        );
    } else {
        routes.add(
            Method::GET,
            repositories.0,
            Permission::Read,
            repositories_doc,
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiQuery(query): ApiQuery<RepositoryQuery>| async move {
                let organization_id = caller.organization_id;
                list_repositories(&state, &caller, organization_id, host, query).await
            },
        );
        routes.add(
            Method::GET,
            branches.0,
            Permission::Read,
            branches_doc,
            move |State(state): State<AppState>,
                  caller: Caller,
                  ApiQuery(query): ApiQuery<RepositoryQuery>| async move {
                let organization_id = caller.organization_id;
                list_branches(&state, &caller, organization_id, host, query).await
            },
        );
    }
}

/// The one account: the caller's, on the code host the local repositories read as.
fn accounts(caller: &Caller) -> Json<List<GitAuthProvider>> {
    Json(List::new(vec![GitAuthProvider {
        id: None,
        name: SAMPLED_CODE_HOST.as_str().to_string(),
        owner: caller.name.clone(),
        use_bot: Some(false),
    }]))
}

async fn list_repositories(
    state: &AppState,
    caller: &Caller,
    organization_id: Uuid,
    host: GitProvider,
    query: RepositoryQuery,
) -> ApiResult<Json<List<HostedRepository>>> {
    let listed = readable_repositories(state, caller, organization_id, host, &query).await?;
    let repositories = git::read(move || {
        Ok(listed
            .into_iter()
            .map(|(name, repository)| HostedRepository {
                id: name.clone(),
                name,
                url: format!("file://{}", repository.folder().display()),
                default_branch: git::branches(&repository).ok().and_then(|(_, head)| head),
                is_private: Some(false),
            })
            .collect())
    })
    .await?;
    Ok(Json(List::new(repositories)))
}

async fn list_branches(
    state: &AppState,
    caller: &Caller,
    organization_id: Uuid,
    host: GitProvider,
    query: RepositoryQuery,
) -> ApiResult<Json<List<GitRepositoryBranch>>> {
    let Some(name) = query.name.clone().filter(|name| !name.trim().is_empty()) else {
        return Err(ApiError::invalid(vec![FieldError::new(
            "name",
            "is required: the repository's name, as its list gives it",
        )]));
    };
    let listed = readable_repositories(state, caller, organization_id, host, &query).await?;
    let Some((_, repository)) = listed.into_iter().find(|(listed, _)| *listed == name) else {
        return Err(ApiError::invalid(vec![FieldError::new(
            "name",
            "is not a repository of this list",
        )]));
    };
    let (branches, _) = git::read(move || git::branches(&repository)).await?;
    let branches = branches
        .into_iter()
        .map(|name| GitRepositoryBranch { name })
        .collect();
    Ok(Json(List::new(branches)))
}

/// The repositories `host`'s account or the query's git token lists to this caller.
async fn readable_repositories(
    state: &AppState,
    caller: &Caller,
    organization_id: Uuid,
    host: GitProvider,
    query: &RepositoryQuery,
) -> ApiResult<Vec<(String, Repository)>> {
    match query.git_token_id {
        Some(token) => {
            let mut conn = state.db.acquire().await?;
            git_tokens::check_token(&mut conn, organization_id, "gitTokenId", token, host).await?;
        }
        None if host != SAMPLED_CODE_HOST => {
            return Err(ApiError::invalid(vec![FieldError::new(
                "gitTokenId",
                format!(
                    "is required: no {} account is connected to this server, so its repositories are read with a git token",
                    host.label()
                ),
            )]))
        }
        None => {}
    }
    let only = used_repositories(state, caller, organization_id).await?;
    let repositories = state.engine.repositories.clone();
    tokio::task::spawn_blocking(move || {
        repositories
            .listed()
            .into_iter()
            .filter(|(_, repository)| only.as_ref().is_none_or(|used| used.contains(repository)))
            .collect()
    })
    .await
    .map_err(ApiError::internal)
}

/// `None` for a caller who may create services (every repository is readable to it); otherwise
/// the local repositories its organization's services are built from.
pub(crate) async fn used_repositories(
    state: &AppState,
    caller: &Caller,
    organization_id: Uuid,
) -> ApiResult<Option<HashSet<Repository>>> {
    if caller.require(Permission::Write).is_ok() {
        return Ok(None);
    }
    let urls = crate::store::services::repository_urls(&state.db, organization_id).await?;
    let repositories = state.engine.repositories.clone();
    tokio::task::spawn_blocking(move || {
        let located = urls
            .iter()
            .filter_map(|url| match repositories.locate(url) {
                Ok(Location::Local(repository)) => Some(repository),
                _ => None,
            });
        Some(located.collect())
    })
    .await
    .map_err(ApiError::internal)
}

/// The local repository a folder or variable read names, checked: the request's rules, its git
/// token, and that this caller may read it.
pub(crate) async fn readable_repository(
    state: &AppState,
    caller: &Caller,
    organization_id: Uuid,
    field: &str,
    repository: &GitRepositoryRequest,
) -> ApiResult<Repository> {
    let prefix = if field.is_empty() {
        String::new()
    } else {
        format!("{field}.")
    };
    repository
        .rules(&prefix)
        .into_result()
        .map_err(ApiError::invalid)?;
    let mut conn = state.db.acquire().await?;
    git_tokens::check_choice(&mut conn, organization_id, (field, repository)).await?;
    drop(conn);
    let read = state.engine.repositories.local(&repository.url)?;
    if let Some(used) = used_repositories(state, caller, organization_id).await? {
        if !used.contains(&read) {
            return Err(ApiError::forbidden(format!(
                "Your token's role ({}) reads only the repositories this organization's services use.",
                caller.role_name
            )));
        }
    }
    Ok(read)
}

async fn list_directories(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(repository): ApiJson<GitRepositoryRequest>,
) -> ApiResult<Json<List<String>>> {
    own_organization(&caller, organization_id)?;
    let read = readable_repository(&state, &caller, organization_id, "", &repository).await?;
    let directories = git::read(move || {
        git::directories(
            &read,
            repository.branch.as_deref(),
            repository.root_path.as_deref(),
        )
    })
    .await?;
    Ok(Json(List::new(directories)))
}
