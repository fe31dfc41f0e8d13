//! Copies: an environment with its services, variables and secrets (into its project or another,
//! on its cluster or another), or one service into an environment, in one transaction
//! (`store::clones`); nothing is deployed until someone asks.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::EventType;
use platform_api::paths;
use platform_api::{CloneEnvironmentRequest, CloneServiceRequest, Cloned, Environment};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::environments::{find_environment, read_environment};
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::resources::{ensure_exists, OrganizationResource};
use crate::routes::projects::find_project;
use crate::routes::services::records::{find, find_in};
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::clones::{self, EnvironmentCopy};

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        paths::ENVIRONMENT_CLONE,
        Permission::Write,
        Doc::new(
            "Copy an environment with its services, variables and secrets; nothing is deployed. \
             The answer's `left_out_variables` (ours, absent when empty) names the aliases and \
             overrides whose variable the copy does not see",
        )
        .body::<CloneEnvironmentRequest>()
        .answers::<Environment>(StatusCode::ACCEPTED),
        clone_environment,
    );
}

/// The clone route of a service kind, registered with the kind's other routes.
pub fn register_service<R: ServiceResource>(routes: &mut RouteTable) {
    routes.add(
        Method::POST,
        format!("{}/clone", R::TYPE.item_template()),
        Permission::Write,
        Doc::new(format!(
            "Copy a {} with its variables and secrets into an environment; nothing is deployed. \
             The answer's `left_out_variables` (ours, absent when empty) names the aliases and \
             overrides whose variable the copy does not see",
            R::WHAT
        ))
        .body::<CloneServiceRequest>()
        .answers::<R::Record>(StatusCode::ACCEPTED),
        clone_service::<R>,
    );
}

async fn clone_environment(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(source_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<CloneEnvironmentRequest>,
) -> ApiResult<(StatusCode, Json<Cloned<Environment>>)> {
    let source = find_environment(&state, &caller, source_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let project_id = match request.project_id {
        Some(id) => {
            find_project(&state, &caller, id)
                .await
                .map_err(|error| {
                    error.naming("project_id", "is not a project of this organization")
                })?
                .id
        }
        None => source.project.id,
    };
    let cluster_id = match request.cluster_id {
        Some(id) => {
            ensure_exists(
                &state.db,
                Clusters::KIND,
                caller.organization_id,
                id,
                "cluster_id",
            )
            .await?;
            id
        }
        None => source.cluster_id,
    };
    let mut tx = db::begin_write(&state.writes).await?;
    let copy = EnvironmentCopy {
        organization_id: caller.organization_id,
        project_id,
        name: request.name.trim(),
        mode: request.mode.unwrap_or(source.mode),
        cluster_id,
    };
    let (id, _, left_out_variables) = clones::copy_environment(&mut tx, source_id, copy).await?;
    let cloned = Cloned {
        copy: read_environment(&mut tx, &caller, id).await?,
        left_out_variables,
    };
    let target = Target::environment(&mut tx, id).await?;
    let change = Change::new(EventType::Clone, target).after(&cloned);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(cloned)))
}

async fn clone_service<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(source_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<CloneServiceRequest>,
) -> ApiResult<(StatusCode, Json<Cloned<R::Record>>)> {
    find::<R>(&state, &caller, source_id).await?;
    request.validate().map_err(ApiError::invalid)?;
    let target = find_environment(&state, &caller, request.environment_id)
        .await
        .map_err(|error| {
            error.naming(
                "environment_id",
                "is not an environment of this organization",
            )
        })?;
    let mut tx = db::begin_write(&state.writes).await?;
    let copy = clones::copy_service(
        &mut tx,
        &source_id.to_string(),
        R::TYPE,
        target.id,
        request.name.trim(),
    )
    .await?;
    let left_out_variables = clones::copy_variables(
        &mut tx,
        &[(source_id.to_string(), copy.to_string())],
        &[target.id.to_string(), target.project.id.to_string()],
    )
    .await?;
    let (record, _) = find_in::<R>(&mut tx, &caller, copy).await?;
    let cloned = Cloned {
        copy: record,
        left_out_variables,
    };
    let target = Target::service(&mut tx, copy).await?;
    let change = Change::new(EventType::Clone, target).after(&cloned);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(cloned)))
}
