//! `GET /service/{id}/gitWebhookStatus` and `POST /service/{id}/gitWebhook/sync`: whether pushes
//! to a service's branch reach the platform. There is no code host here to hold a webhook: the
//! auto-deploy watch of the branch stands for it, active where this server reads the repository
//! and the service deploys on push, and a sync reads the branch at once.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{GitWebhookState, GitWebhookStatus, SAMPLED_CODE_HOST};
use uuid::Uuid;

use crate::auto_deploy;
use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::services::git_source;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            "/service/{service_id}/gitWebhookStatus",
            Permission::Read,
            Doc::new(
                "Whether pushes to a service's branch reach the platform: on this server, ACTIVE \
                 when the service deploys on push from a repository it reads, NOT_CONFIGURED when \
                 it does not deploy on push, UNABLE_TO_VERIFY when the repository is out of reach; \
                 400 for a service not built from git",
            )
            .answers::<GitWebhookStatus>(StatusCode::OK),
            webhook_status,
        )
        .add(
            Method::POST,
            "/service/{service_id}/gitWebhook/sync",
            Permission::Write,
            Doc::new(
                "Read a service's branch now, as the auto-deploy watch does each round (a new \
                 commit is deployed at the next read), and answer its webhook's status",
            )
            .answers::<GitWebhookStatus>(StatusCode::OK),
            sync,
        );
}

async fn webhook_status(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<GitWebhookStatus>> {
    Ok(Json(status_of(&state, &caller, service_id).await?))
}

async fn sync(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<GitWebhookStatus>> {
    let status = status_of(&state, &caller, service_id).await?;
    if status.status == GitWebhookState::Active {
        auto_deploy::read_now(&state.engine, &state.db, service_id).await?;
    }
    Ok(Json(status))
}

async fn status_of(
    state: &AppState,
    caller: &Caller,
    service_id: Uuid,
) -> ApiResult<GitWebhookStatus> {
    let (auto_deploy, repository) = git_source(&state.db, caller.organization_id, service_id)
        .await?
        .ok_or_else(|| ApiError::not_found("service"))?;
    let repository = repository.ok_or_else(|| {
        ApiError::unanswerable(
            "NO_GIT_REPOSITORY",
            "This service is not built from a git repository.",
        )
    })?;
    let status = if !auto_deploy {
        GitWebhookState::NotConfigured
    } else if state.engine.repositories.local(&repository.url).is_ok() {
        GitWebhookState::Active
    } else {
        GitWebhookState::UnableToVerify
    };
    Ok(GitWebhookStatus {
        status,
        provider: repository.provider.unwrap_or(SAMPLED_CODE_HOST),
        missing_events: None,
    })
}
