//! The API routes, one module per resource family, merged into one router mounted at `/api`.

mod account;
mod addressed;
mod advanced_settings;
mod alert_rules;
mod available_kinds;
mod checks;
mod cloud_catalog;
mod deployment_rules;
mod deployment_stages;
pub mod doc;
mod environment_export;
pub(crate) mod environments;
mod lifecycle_templates;
mod monitoring;
pub(crate) mod organization;
mod previews;
pub(crate) mod projects;
pub(crate) mod services;
mod statuses;
mod table;
mod variables;

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
use platform_api::paths;

/// Every API route, each with the permission it requires.
pub fn table(state: &AppState) -> RouteTable {
    let mut routes = RouteTable::new(state.clone());
    account::register(&mut routes);
    organization::register(&mut routes);
    projects::register(&mut routes);
    environments::register(&mut routes);
    environment_export::register(&mut routes);
    lifecycle_templates::register(&mut routes);
    statuses::register(&mut routes);
    checks::register(&mut routes);
    cloud_catalog::register(&mut routes);
    available_kinds::register(&mut routes);
    deployment_stages::register(&mut routes);
    deployment_rules::register(&mut routes);
    services::register(&mut routes);
    advanced_settings::register(&mut routes);
    previews::register(&mut routes);
    monitoring::register(&mut routes);
    alert_rules::register(&mut routes);
    variables::register(&mut routes);
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
        // The one route without a token: an invitation's link is the credential.
        .route(
            paths::INVITATION_ACCEPT.0,
            axum::routing::post(organization::members::accept_invitation),
        )
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
