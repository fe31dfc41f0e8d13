//! What uses an organization-level record, with where it lives: the services a labels or
//! annotations group is set on (`…/associatedItems`), and those that take their image from a
//! container registry or their chart from a helm repository (`…/associatedServices`).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{AssociatedItem, AssociatedService, List};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiPath, ApiResult};
use crate::routes::organization::container_registries::ContainerRegistries;
use crate::routes::organization::groups::{AnnotationsGroups, LabelsGroups};
use crate::routes::organization::helm_repositories::HelmRepositories;
use crate::routes::organization::resources::{find_own, OrganizationResource};
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::associated::{services_naming, ServiceNaming};

pub fn register(routes: &mut RouteTable) {
    items_route::<LabelsGroups>(routes);
    items_route::<AnnotationsGroups>(routes);
    services_route::<ContainerRegistries>(routes);
    services_route::<HelmRepositories>(routes);
}

fn items_route<R: OrganizationResource>(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        format!("{}/associatedItems", R::ITEM),
        Permission::Read,
        Doc::new(format!(
            "The services a {} is set on, with their environment, project and cluster",
            R::KIND.what
        ))
        .answers_list_of::<AssociatedItem>(StatusCode::OK),
        associated_items::<R>,
    );
}

fn services_route<R: OrganizationResource>(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        format!("{}/associatedServices", R::ITEM),
        Permission::Read,
        Doc::new(format!(
            "The services that use a {}, with their environment and project",
            R::KIND.what
        ))
        .answers_list_of::<AssociatedService>(StatusCode::OK),
        associated_services::<R>,
    );
}

/// The services naming the record `id` of `R`; 404 when the organization has no such record.
async fn naming<R: OrganizationResource>(
    state: &AppState,
    caller: &Caller,
    (organization_id, id): (Uuid, Uuid),
) -> ApiResult<Vec<ServiceNaming>> {
    find_own::<R>(state, caller, (organization_id, id)).await?;
    services_naming(&state.db, organization_id, id).await
}

async fn associated_items<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(ids): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<AssociatedItem>>> {
    let services = naming::<R>(&state, &caller, ids).await?;
    Ok(Json(List::new(
        services.into_iter().map(ServiceNaming::item).collect(),
    )))
}

async fn associated_services<R: OrganizationResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(ids): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<AssociatedService>>> {
    let services = naming::<R>(&state, &caller, ids).await?;
    Ok(Json(List::new(
        services.into_iter().map(ServiceNaming::service).collect(),
    )))
}
