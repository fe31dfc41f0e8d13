//! Where services are reached (`GET /{kind}/{id}/link`, `GET /environment/{id}/link`) and where
//! their ingress stands (`GET /{kind}/{id}/ingressDeploymentStatus`): an
//! address for each public port on this server and one for the root of the service's, whose
//! `/run/…` pages stand for what the platform's instances would answer (no cloud runs here: the
//! page says so, `crate::run_page`).

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::{
    default_port, external_port, Applications, Containers, HelmServices, IngressDeploymentStatus,
    Link, List, Port, ServiceType,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::engine::status;
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::environments::find_environment;
use crate::routes::services::records::{find, stored};
use crate::routes::services::resource::ServiceResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;

pub fn register(routes: &mut RouteTable) {
    service_links::<Applications>(routes);
    service_links::<Containers>(routes);
    service_links::<HelmServices>(routes);
    routes.add(
        Method::GET,
        paths::ENVIRONMENT_LINKS,
        Permission::Read,
        Doc::new("The addresses the services of an environment are reached at")
            .answers_list_of::<Link>(StatusCode::OK),
        environment_links,
    );
}

fn service_links<R: ServiceResource>(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            format!("{}/link", R::TYPE.item_template()),
            Permission::Read,
            Doc::new(format!(
                "The addresses a {} is reached at: the root of its address and one per public port",
                R::WHAT
            ))
            .answers_list_of::<Link>(StatusCode::OK),
            links_of_service::<R>,
        )
        .add(
            Method::GET,
            format!("{}/ingressDeploymentStatus", R::TYPE.item_template()),
            Permission::Read,
            Doc::new(format!(
                "Where the ingress to a {}'s public ports stands: deployed with it, so in its \
             state, on its environment's router; nothing for a service with no public port",
                R::WHAT
            ))
            .answers::<IngressDeploymentStatus>(StatusCode::OK),
            ingress_of_service::<R>,
        );
}

async fn ingress_of_service<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<IngressDeploymentStatus>> {
    let (record, environment_id) = find::<R>(&state, &caller, id).await?;
    if !R::ports(&record)
        .iter()
        .any(|port| port.publicly_accessible)
    {
        return Ok(Json(IngressDeploymentStatus::default()));
    }
    let status = status::of_service(&mut *state.db.acquire().await?, id).await?;
    Ok(Json(IngressDeploymentStatus {
        router_id: Some(Uuid::new_v5(&environment_id, b"router")),
        status: Some(status.state),
    }))
}

async fn links_of_service<R: ServiceResource>(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Link>>> {
    let (record, _) = find::<R>(&state, &caller, id).await?;
    let origin = state.public.origin(&headers);
    Ok(Json(List::new(links(
        &origin,
        id,
        R::TYPE,
        R::ports(&record),
    ))))
}

async fn environment_links(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Link>>> {
    find_environment(&state, &caller, environment_id).await?;
    let origin = state.public.origin(&headers);
    let mut all = Vec::new();
    all.extend(kind_links::<Applications>(&state, &origin, environment_id).await?);
    all.extend(kind_links::<Containers>(&state, &origin, environment_id).await?);
    all.extend(kind_links::<HelmServices>(&state, &origin, environment_id).await?);
    Ok(Json(List::new(all)))
}

/// The links of the environment's services of kind `R`, by service name.
async fn kind_links<R: ServiceResource>(
    state: &AppState,
    origin: &str,
    environment_id: Uuid,
) -> ApiResult<Vec<Link>> {
    let mut all = Vec::new();
    for named in stored::<R>(&state.db, environment_id).await? {
        let record: R::Record = serde_json::from_str(&named.record).map_err(ApiError::internal)?;
        all.extend(links(origin, named.id, R::TYPE, R::ports(&record)));
    }
    Ok(all)
}

/// The addresses of a service on this server (at `origin`): the root of its address, its default
/// port's, then one per public port.
pub fn links(origin: &str, service_id: Uuid, kind: ServiceType, ports: &[Port]) -> Vec<Link> {
    let link = |port: &Port, url: String, is_default: bool| Link {
        service_id,
        service_type: kind,
        url,
        internal_port: port.internal_port,
        external_port: external_port(port),
        is_qovery_domain: true,
        is_default,
    };
    let root =
        default_port(ports).map(|port| link(port, format!("{origin}/run/{service_id}/"), true));
    let each = ports
        .iter()
        .filter(|port| port.publicly_accessible)
        .map(|port| {
            let url = format!("{origin}/run/{service_id}/p{}/", port.internal_port);
            link(port, url, false)
        });
    root.into_iter().chain(each).collect()
}
