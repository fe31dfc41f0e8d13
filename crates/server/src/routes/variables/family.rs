//! The handlers of the `/variable` routes: a variable found by its own id, or a parent named in
//! the query or the body.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use platform_api::{
    AliasRequest, EnvironmentVariable, FieldError, List, OverrideRequest, PageQuery, ServiceType,
    VariableCreation, VariableImport, VariableImportRequest, VariableRequest, VariableScope,
};
use serde::Deserialize;
use uuid::Uuid;

use crate::caller::Caller;
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery, ApiResult};
use crate::routes::variables::parent::{named, own, parent};
use crate::routes::variables::read::{shape, visible};
use crate::routes::variables::{edit, import as import_all};
use crate::state::AppState;

#[derive(Deserialize)]
pub(super) struct ParentQuery {
    parent_id: Uuid,
    scope: VariableScope,
    /// Only the secrets, or only the plain variables.
    #[serde(default)]
    is_secret: Option<bool>,
}

/// Query of `POST /variable/import`: the service imported through.
#[derive(Deserialize)]
pub(super) struct ImportQuery {
    service_id: Uuid,
    service_type: ServiceType,
}

pub(super) async fn import(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<ImportQuery>,
    ApiJson(request): ApiJson<VariableImportRequest>,
) -> ApiResult<(StatusCode, Json<VariableImport>)> {
    let scope = VariableScope::of_service(query.service_type).ok_or_else(|| {
        ApiError::invalid(vec![FieldError::new(
            "service_type",
            "holds no variables (a database's are built in)",
        )])
    })?;
    let parent = parent(&state, &caller, scope, query.service_id).await?;
    let imported = import_all::all(&state, &caller, &parent, request).await?;
    Ok((StatusCode::CREATED, Json(imported)))
}

pub(super) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<ParentQuery>,
    ApiQuery(page): ApiQuery<PageQuery>,
) -> ApiResult<Json<List<EnvironmentVariable>>> {
    let parent = parent(&state, &caller, query.scope, query.parent_id).await?;
    Ok(Json(
        visible(&state.db, &parent, query.is_secret, page).await?,
    ))
}

pub(super) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<VariableCreation>,
) -> ApiResult<(StatusCode, Json<EnvironmentVariable>)> {
    request
        .variable
        .validate(false)
        .map_err(ApiError::invalid)?;
    let parent = parent(
        &state,
        &caller,
        request.variable_scope,
        request.variable_parent_id,
    )
    .await
    .map_err(|error| named(error, "variable_parent_id"))?;
    let created = edit::create(
        &state,
        &caller,
        &parent,
        request.variable,
        request.is_secret,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

pub(super) async fn read(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<EnvironmentVariable>> {
    let stored = own(&state, &caller, id).await?;
    let parent = parent(&state, &caller, stored.scope, stored.parent_id).await?;
    Ok(Json(
        shape(&mut *state.db.acquire().await?, &parent, stored).await?,
    ))
}

pub(super) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<VariableRequest>,
) -> ApiResult<Json<EnvironmentVariable>> {
    let stored = own(&state, &caller, id).await?;
    Ok(Json(edit::update(&state, &caller, stored, request).await?))
}

pub(super) async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let stored = own(&state, &caller, id).await?;
    edit::delete(&state, &caller, stored).await?;
    Ok(StatusCode::NO_CONTENT)
}

pub(super) async fn alias(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(target_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<AliasRequest>,
) -> ApiResult<(StatusCode, Json<EnvironmentVariable>)> {
    request.validate().map_err(ApiError::invalid)?;
    let parent = parent(
        &state,
        &caller,
        request.alias_scope,
        request.alias_parent_id,
    )
    .await
    .map_err(|error| named(error, "alias_parent_id"))?;
    let created = edit::create_alias(
        &state,
        &caller,
        &parent,
        target_id,
        request.key,
        request.description,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}

pub(super) async fn create_override(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(target_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<OverrideRequest>,
) -> ApiResult<(StatusCode, Json<EnvironmentVariable>)> {
    let checked = request.validate();
    let (Ok(()), Some(value), Some(scope), Some(parent_id)) = (
        &checked,
        request.value,
        request.override_scope,
        request.override_parent_id,
    ) else {
        return Err(ApiError::invalid(checked.err().unwrap_or_default()));
    };
    let parent = parent(&state, &caller, scope, parent_id)
        .await
        .map_err(|error| named(error, "override_parent_id"))?;
    let created = edit::create_override(
        &state,
        &caller,
        &parent,
        target_id,
        value,
        request.description,
        request.enable_interpolation_in_file.unwrap_or(false),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(created)))
}
