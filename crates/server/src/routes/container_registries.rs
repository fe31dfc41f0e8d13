//! Container registries (spec 2.9): the kinds' rules from `platform-api`, secrets kept apart and
//! never returned; an update may leave a secret out to keep it.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::Utc;
use platform_api::{ContainerRegistry, ContainerRegistryRequest, List};
use uuid::Uuid;

use super::own_organization;
use crate::auth::{Caller, Permission};
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::{Doc, RouteTable};
use crate::store::{self, Entry, Kind, Secrets};
use crate::AppState;

const KIND: Kind = Kind {
    stored_as: "container_registry",
    what: "container registry",
};

pub fn register(routes: &mut RouteTable) {
    let registries = "/organization/{organization_id}/containerRegistry";
    let registry = "/organization/{organization_id}/containerRegistry/{container_registry_id}";
    routes
        .add(
            Method::GET,
            registries,
            Permission::Read,
            Doc::new("List the container registries")
                .answers_list_of::<ContainerRegistry>(StatusCode::OK),
            list_registries,
        )
        .add(
            Method::POST,
            registries,
            Permission::Write,
            Doc::new("Add a container registry")
                .body::<ContainerRegistryRequest>()
                .answers::<ContainerRegistry>(StatusCode::CREATED),
            create_registry,
        )
        .add(
            Method::GET,
            registry,
            Permission::Read,
            Doc::new("Read a container registry").answers::<ContainerRegistry>(StatusCode::OK),
            get_registry,
        )
        .add(
            Method::PUT,
            registry,
            Permission::Write,
            Doc::new("Update a container registry; a secret left out is kept")
                .body::<ContainerRegistryRequest>()
                .answers::<ContainerRegistry>(StatusCode::OK),
            update_registry,
        )
        .add(
            Method::DELETE,
            registry,
            Permission::Admin,
            Doc::new("Delete a container registry").answers_nothing(StatusCode::NO_CONTENT),
            delete_registry,
        );
}

async fn list_registries(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ContainerRegistry>>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(List::new(
        store::list(&state.db, KIND, organization_id).await?,
    )))
}

async fn create_registry(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ContainerRegistryRequest>,
) -> ApiResult<(StatusCode, Json<ContainerRegistry>)> {
    own_organization(&caller, organization_id)?;
    request.validate(&[]).map_err(ApiError::invalid)?;
    let now = Utc::now();
    let secrets = secrets_of(&request, Secrets::new());
    let registry = record(Uuid::new_v4(), now, None, request);
    let entry = Entry {
        id: registry.id,
        name: &registry.name,
        record: &registry,
        secrets: &secrets,
        at: now,
    };
    store::insert(&state.db, KIND, organization_id, entry).await?;
    Ok((StatusCode::CREATED, Json(registry)))
}

async fn get_registry(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ContainerRegistry>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(
        store::find(&state.db, KIND, organization_id, id)
            .await?
            .record,
    ))
}

async fn update_registry(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<ContainerRegistryRequest>,
) -> ApiResult<Json<ContainerRegistry>> {
    own_organization(&caller, organization_id)?;
    let stored = store::find::<ContainerRegistry>(&state.db, KIND, organization_id, id).await?;
    let kept: Vec<&str> = if stored.record.kind == request.kind {
        stored.secrets.keys().map(String::as_str).collect()
    } else {
        Vec::new()
    };
    request.validate(&kept).map_err(ApiError::invalid)?;
    let previous = if stored.record.kind == request.kind {
        stored.secrets.clone()
    } else {
        Secrets::new()
    };
    let now = Utc::now();
    let secrets = secrets_of(&request, previous);
    let registry = record(id, stored.record.created_at, Some(now), request);
    let entry = Entry {
        id,
        name: &registry.name,
        record: &registry,
        secrets: &secrets,
        at: now,
    };
    store::update(&state.db, KIND, entry).await?;
    Ok(Json(registry))
}

async fn delete_registry(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    store::find::<ContainerRegistry>(&state.db, KIND, organization_id, id).await?;
    store::delete(&state.db, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The secrets of the request over the ones kept from before.
fn secrets_of(request: &ContainerRegistryRequest, mut kept: Secrets) -> Secrets {
    for (name, value) in request.config.secrets() {
        kept.insert(name.to_string(), value.to_string());
    }
    kept
}

fn record(
    id: Uuid,
    created_at: chrono::DateTime<Utc>,
    updated_at: Option<chrono::DateTime<Utc>>,
    request: ContainerRegistryRequest,
) -> ContainerRegistry {
    ContainerRegistry {
        id,
        created_at,
        updated_at,
        url: request.resolved_url(),
        name: request.name.trim().to_string(),
        kind: request.kind,
        description: request.description,
        cluster: None,
        associated_services_count: 0,
        config: request.config.public(),
    }
}
