//! The handlers of the per-scope routes (`/{scope}/{id}/environmentVariable`, `/{scope}/{id}/secret`):
//! the scope and whether the route is about secrets are read from the route's own path.

use axum::extract::{FromRequestParts, MatchedPath, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use platform_api::{
    PageQuery, ScopedAliasRequest, ScopedOverrideRequest, VariableBulk, VariableBulkRequest,
    VariableImport, VariableImportRequest, VariableRequest, VariableScope,
};
use uuid::Uuid;

use crate::caller::Caller;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::routes::variables::parent::{own, own_at, parent};
use crate::routes::variables::read::{one_shown, shape, shown, visible};
use crate::routes::variables::{bulk as bulk_change, edit, import as import_all, SCOPES};
use crate::state::AppState;

/// Where a per-scope route is: the scope its path starts with (`/application/{application_id}/…`)
/// and whether it is about secrets (`…/secret…`) or plain variables (`…/environmentVariable…`).
pub(super) struct At {
    scope: VariableScope,
    secret: bool,
}

impl<S: Send + Sync> FromRequestParts<S> for At {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let template = parts
            .extensions
            .get::<MatchedPath>()
            .map(MatchedPath::as_str)
            .unwrap_or_default();
        let segments: Vec<&str> = template.split('/').collect();
        // The scope's segment is the one before the first parameter; what follows it, the
        // collection.
        let at = segments
            .iter()
            .position(|segment| segment.starts_with('{'))
            .and_then(|parameter| {
                let segment = segments.get(parameter.checked_sub(1)?)?;
                let (scope, _, _) = SCOPES.iter().find(|(_, known, _)| known == segment)?;
                let secret = *segments.get(parameter + 1)? == "secret";
                Some(At {
                    scope: *scope,
                    secret,
                })
            });
        at.ok_or_else(|| ApiError::internal(format!("{template} is not a variable route")))
    }
}

pub(super) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath(parent_id): ApiPath<Uuid>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<serde_json::Value>> {
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    let variables = visible(&state.db, &parent, Some(at.secret), page).await?;
    Ok(Json(shown(variables, at.secret)))
}

pub(super) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath(parent_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<VariableRequest>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    request.validate(false).map_err(ApiError::invalid)?;
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    let created = edit::create(&state, &caller, &parent, request, at.secret).await?;
    Ok((StatusCode::CREATED, Json(one_shown(created, at.secret))))
}

pub(super) async fn read(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath((parent_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<serde_json::Value>> {
    let stored = own_at(&state, &caller, at.scope, parent_id, id, at.secret).await?;
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    let variable = shape(&mut *state.db.acquire().await?, &parent, stored).await?;
    Ok(Json(one_shown(variable, at.secret)))
}

pub(super) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath((parent_id, id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<VariableRequest>,
) -> ApiResult<Json<serde_json::Value>> {
    let stored = own_at(&state, &caller, at.scope, parent_id, id, at.secret).await?;
    let updated = edit::update(&state, &caller, stored, request).await?;
    Ok(Json(one_shown(updated, at.secret)))
}

pub(super) async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath((parent_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    let stored = own_at(&state, &caller, at.scope, parent_id, id, at.secret).await?;
    edit::delete(&state, &caller, stored).await?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn import(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath(parent_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<VariableImportRequest>,
) -> ApiResult<(StatusCode, Json<VariableImport>)> {
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    let imported = import_all::all(&state, &caller, &parent, request).await?;
    Ok((StatusCode::CREATED, Json(imported)))
}

pub(super) async fn bulk(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath(parent_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<VariableBulkRequest>,
) -> ApiResult<Json<VariableBulk>> {
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    Ok(Json(
        bulk_change::apply(&state, &caller, &parent, request).await?,
    ))
}

/// A secret's alias or override is made on a secret's route, a plain variable's on a variable's:
/// the other is not found there.
async fn target_at(state: &AppState, caller: &Caller, at: &At, target_id: Uuid) -> ApiResult<()> {
    if own(state, caller, target_id).await?.is_secret != at.secret {
        return Err(ApiError::not_found(if at.secret {
            "secret"
        } else {
            "variable"
        }));
    }
    Ok(())
}

pub(super) async fn create_alias(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath((parent_id, target_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<ScopedAliasRequest>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    request.validate().map_err(ApiError::invalid)?;
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    target_at(&state, &caller, &at, target_id).await?;
    let created = edit::create_alias(
        &state,
        &caller,
        &parent,
        target_id,
        request.key,
        request.description,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(one_shown(created, at.secret))))
}

pub(super) async fn create_override(
    State(state): State<AppState>,
    caller: Caller,
    at: At,
    ApiPath((parent_id, target_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<ScopedOverrideRequest>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    request.validate().map_err(ApiError::invalid)?;
    let parent = parent(&state, &caller, at.scope, parent_id).await?;
    target_at(&state, &caller, &at, target_id).await?;
    let created = edit::create_override(
        &state,
        &caller,
        &parent,
        target_id,
        request.value,
        request.description,
        request.enable_interpolation_in_file,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(one_shown(created, at.secret))))
}
