//! Preview environments (`crate::previews`): an environment's previews and what it previews
//! (ours, `GET /environment/{id}/previews`), and previews of a new tag of a container's image,
//! asked for on demand (`POST /organization/{id}/container/preview`, the document's).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::{
    EnvironmentPreviews, ImageAutoDeployRequest, ImagePaths, PreviewTrigger, ServiceType, Status,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::engine;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::previews::{self, Opened, Opening};
use crate::routes::environments::find_environment;
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::previews as store;
use crate::store::services;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::ENVIRONMENT_PREVIEWS,
            Permission::Read,
            Doc::new(
                "Ours: the preview environments made of an environment (for a branch of a \
                 service's repository, or a new tag of a container's image), and what the \
                 environment previews when it is one",
            )
            .answers::<EnvironmentPreviews>(StatusCode::OK),
            environment_previews,
        )
        .add(
            Method::POST,
            "/organization/{organization_id}/container/preview",
            Permission::Deploy,
            Doc::new(
                "Preview a new tag of an image: each environment that allows previews (its rule's \
                 auto_preview or on_demand_preview) with a container with auto_preview running \
                 the image at another tag is cloned as a preview running this tag, and deployed \
                 (404 when none is)",
            )
            .body::<ImageAutoDeployRequest>()
            .answers::<Status>(StatusCode::ACCEPTED),
            preview_container_tag,
        );
}

async fn environment_previews(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<EnvironmentPreviews>> {
    find_environment(&state, &caller, environment_id).await?;
    let mut snapshot = state.db.begin().await?;
    Ok(Json(EnvironmentPreviews {
        preview_of: store::preview(&mut *snapshot, environment_id).await?,
        previews: store::of_environment(&mut *snapshot, environment_id).await?,
    }))
}

async fn preview_container_tag(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ImageAutoDeployRequest>,
) -> ApiResult<(StatusCode, Json<Status>)> {
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let tag = request.tag.trim();
    let mut tx = state.engine.begin().await?;
    let candidates =
        store::containers_to_preview(&mut tx, organization_id, request.image_name.trim(), tag)
            .await?;
    let mut opened: Vec<Opened> = Vec::new();
    for container in candidates {
        // One preview per environment, for its first container running the image.
        if opened
            .iter()
            .any(|made| made.preview.source_environment_id == container.environment_id)
        {
            continue;
        }
        let opening = Opening {
            organization_id,
            source: container.environment_id,
            service_id: container.id,
            kind: ServiceType::Container,
            trigger: PreviewTrigger::ImageTag,
            reference: tag,
        };
        opened.push(previews::open(&state.engine, &mut tx, opening, (&caller).into()).await?);
    }
    tx.commit().await?;
    if opened.is_empty() {
        return Err(ApiError::none_match(format!(
            "No container with auto-preview, in an environment that allows previews, runs {} at \
             another tag.",
            request.image_name.trim()
        )));
    }
    for made in &opened {
        made.start(&state.engine);
    }
    // The first preview's container, as its deployment left it.
    let container = services::first_running_image(
        &state.db,
        opened[0].preview.environment_id,
        ServiceType::Container,
        ImagePaths::CONTAINER,
        request.image_name.trim(),
    )
    .await?;
    let status = engine::status::of_service(&mut *state.db.acquire().await?, container).await?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}
