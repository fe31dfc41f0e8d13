//! Preview environments (`crate::previews`): an environment's previews and what it previews
//! (ours, `GET /environment/{id}/previews`), and previews of a new tag of a container's image,
//! asked for on demand (`POST /organization/{id}/container/preview`, the document's).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{
    EnvironmentPreviews, ImageAutoDeployRequest, ImagePaths, PreviewTrigger, ServiceType, Status,
};
use uuid::fmt::Hyphenated;
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

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            "/environment/{environment_id}/previews",
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

/// A container that a new tag of its image previews.
#[derive(sqlx::FromRow)]
struct Previewed {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    environment_id: Uuid,
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
    let image = ImagePaths::CONTAINER;
    let candidates: Vec<Previewed> = sqlx::query_as(&format!(
        "SELECT s.id, s.environment_id FROM services s
         JOIN environment_deployment_rules r ON r.environment_id = s.environment_id
         WHERE s.organization_id = ? AND s.kind = 'CONTAINER'
           AND json_extract(s.spec, '$.auto_preview') = 1
           AND (r.auto_preview = 1 OR r.on_demand_preview = 1)
           AND json_extract(s.spec, '{}') = ?
           AND coalesce(json_extract(s.spec, '{}'), '') <> ?
           AND s.environment_id NOT IN (SELECT environment_id FROM preview_environments)
           AND s.environment_id NOT IN (SELECT source_environment_id FROM preview_environments
                                        WHERE trigger = 'IMAGE_TAG' AND reference = ?)
         ORDER BY s.environment_id, s.name",
        image.name, image.tag
    ))
    .bind(organization_id.hyphenated())
    .bind(request.image_name.trim())
    .bind(tag)
    .bind(tag)
    .fetch_all(&mut *tx)
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
    let container: Hyphenated = sqlx::query_scalar(&format!(
        "SELECT id FROM services WHERE environment_id = ? AND kind = 'CONTAINER'
         AND json_extract(spec, '{}') = ? ORDER BY name LIMIT 1",
        image.name
    ))
    .bind(opened[0].preview.environment_id.hyphenated())
    .bind(request.image_name.trim())
    .fetch_one(&state.db)
    .await?;
    let status =
        engine::status::of_service(&mut *state.db.acquire().await?, container.into_uuid()).await?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}
