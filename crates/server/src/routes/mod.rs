//! The API routes, one module per resource family, merged into one router mounted at `/api`.

pub(crate) mod applications;
mod environments;
mod organizations;
mod projects;

use axum::http::{header, Method};
use axum::Router;
use tower_http::cors::{Any, CorsLayer};

use crate::error::ApiError;
use crate::AppState;

pub fn api() -> Router<AppState> {
    Router::new()
        .merge(organizations::router())
        .merge(projects::router())
        .merge(environments::router())
        .merge(applications::router())
        .fallback(|| async { ApiError::no_route() })
        .method_not_allowed_fallback(|| async { ApiError::method_not_allowed() })
        .layer(cors())
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
