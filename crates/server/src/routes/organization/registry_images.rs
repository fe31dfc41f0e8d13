//! `GET /organization/{id}/containerRegistry/{id}/images`: the images of a registry with their
//! tags, for a form to pick from. There is no registry to ask here: the images this server
//! knows a registry holds are those the organization's containers run or ran from it.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{paths, ImageVersions, List};
use serde::Deserialize;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiQuery, ApiResult};
use crate::routes::doc::{self, Doc};
use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::resources::find_own;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::services::images_used;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::CONTAINER_REGISTRY_IMAGES,
        Permission::Read,
        Doc::new(
            "The images of a registry with their tags: on this server, those the \
             organization's containers run or ran from it; `imageName` one of them, \
             `searchImageName` those whose name holds it",
        )
        .query("imageName", false, doc::text())
        .query("searchImageName", false, doc::text())
        .answers_list_of::<ImageVersions>(StatusCode::OK),
        images,
    );
}

#[derive(Deserialize)]
struct ImagesQuery {
    #[serde(rename = "imageName")]
    image_name: Option<String>,
    #[serde(rename = "searchImageName")]
    search_image_name: Option<String>,
}

async fn images(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, registry_id)): ApiPath<(Uuid, Uuid)>,
    ApiQuery(query): ApiQuery<ImagesQuery>,
) -> ApiResult<Json<List<ImageVersions>>> {
    find_own::<ContainerRegistries>(&state, &caller, (organization_id, registry_id)).await?;
    let blank_is_none = |text: Option<String>| text.filter(|text| !text.trim().is_empty());
    let images = images_used(
        &state.db,
        organization_id,
        registry_id,
        blank_is_none(query.image_name).as_deref().map(str::trim),
        blank_is_none(query.search_image_name)
            .as_deref()
            .map(str::trim),
    )
    .await?;
    Ok(Json(List::new(
        images
            .into_iter()
            .map(|(image_name, versions)| ImageVersions {
                image_name,
                versions,
            })
            .collect(),
    )))
}
