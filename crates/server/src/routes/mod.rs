//! The API routes, one module per resource family, merged into one router mounted at `/api`.

mod alert_receivers;
pub(crate) mod applications;
mod clones;
pub(crate) mod clusters;
pub(crate) mod container_registries;
mod containers;
pub(crate) mod databases;
mod deployment_queue;
pub mod doc;
mod environment_services;
mod environments;
mod groups;
mod helm_repositories;
mod helm_services;
mod jobs;
mod on_premise_credentials;
mod organization_events;
pub(crate) mod organization_resources;
mod organizations;
mod projects;
pub(crate) mod raw_json;
mod roles;
mod selected_services;
pub(crate) mod service_resources;
mod table;
mod terraform_services;
mod tfvars;
mod tokens;
mod variables;
pub(crate) mod webhooks;

pub use doc::{openapi, Doc};
pub use table::{RouteRule, RouteTable};

use std::sync::Arc;

use axum::http::{header, Method};
use axum::routing::get;
use axum::{Json, Router};
use tower_http::cors::{Any, CorsLayer};

use uuid::Uuid;

use crate::caller::Caller;
use crate::error::ApiError;
use crate::state::AppState;

/// The routes of one service kind: its resource's, then its clone.
fn service_kind<R: service_resources::ServiceResource>(routes: &mut RouteTable) {
    service_resources::register::<R>(routes);
    clones::register_service::<R>(routes);
}

/// Every API route, each with the permission it requires.
pub fn table(state: &AppState) -> RouteTable {
    let mut routes = RouteTable::new(state.clone());
    organizations::register(&mut routes);
    organization_events::register(&mut routes);
    projects::register(&mut routes);
    environments::register(&mut routes);
    clones::register(&mut routes);
    service_kind::<applications::Applications>(&mut routes);
    service_kind::<containers::Containers>(&mut routes);
    service_kind::<databases::Databases>(&mut routes);
    service_kind::<terraform_services::TerraformServices>(&mut routes);
    service_kind::<jobs::Jobs>(&mut routes);
    service_kind::<helm_services::HelmServices>(&mut routes);
    environment_services::register(&mut routes);
    selected_services::register(&mut routes);
    deployment_queue::register(&mut routes);
    tokens::register(&mut routes);
    roles::register(&mut routes);
    alert_receivers::register(&mut routes);
    clusters::register(&mut routes);
    variables::register(&mut routes);
    tfvars::register(&mut routes);
    organization_resources::register::<container_registries::ContainerRegistries>(&mut routes);
    webhooks::register(&mut routes);
    organization_resources::register::<helm_repositories::HelmRepositories>(&mut routes);
    groups::register(&mut routes);
    organization_resources::register::<on_premise_credentials::OnPremiseCredentialsResource>(
        &mut routes,
    );
    routes
}

use crate::error::{BODY_LIMIT_BYTES, HEADERS_LIMIT_BYTES, URI_LIMIT_BYTES};

/// 414 and 431 in the error body, for requests under hyper's own limits (its answers past them
/// have no body).
async fn bounded_heads(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let uri = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    let headers: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if uri > URI_LIMIT_BYTES {
        return ApiError::uri_too_long().into_response();
    }
    if headers > HEADERS_LIMIT_BYTES {
        return ApiError::headers_too_large().into_response();
    }
    next.run(request).await
}

pub fn api(state: &AppState) -> Router<AppState> {
    let table = table(state);
    let document = Arc::new(openapi(table.rules()));
    table
        .into_router()
        .route(
            "/openapi.json",
            get(move || {
                let document = document.clone();
                async move { Json(document) }
            }),
        )
        .fallback(|| async { ApiError::no_route() })
        .method_not_allowed_fallback(|| async { ApiError::method_not_allowed() })
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT_BYTES))
        .layer(axum::middleware::from_fn(bounded_heads))
        .layer(cors())
}

/// 404 unless `organization_id` is the caller's own.
pub(crate) fn own_organization(caller: &Caller, organization_id: Uuid) -> Result<(), ApiError> {
    if caller.organization_id == organization_id {
        Ok(())
    } else {
        Err(ApiError::not_found("organization"))
    }
}

/// The console may be hosted on another origin (a CDN) than the API.
fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .expose_headers([
            header::RETRY_AFTER,
            header::HeaderName::from_static("x-ratelimit-limit"),
            header::HeaderName::from_static("x-ratelimit-remaining"),
            header::HeaderName::from_static("x-ratelimit-reset"),
        ])
}
