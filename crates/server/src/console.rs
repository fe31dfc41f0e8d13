//! Serves the built console: static files, `index.html` for every deep link, and `config.json`
//! generated for the address the browser used. Only the console's own origin and the origins
//! allowed to embed it may show it in a frame.

use std::path::PathBuf;

use axum::extract::State;
use axum::http::header::{CONTENT_SECURITY_POLICY, HOST};
use axum::http::{HeaderMap, HeaderValue};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::AppState;

/// `embed_allowed_origins` are origins already checked (`platform_api::rules::origin`).
pub fn router(console_dir: Option<PathBuf>, embed_allowed_origins: &[String]) -> Router<AppState> {
    let router = Router::new().route("/config.json", get(config_json));
    let router = match console_dir {
        Some(dir) => {
            let index = ServeFile::new(dir.join("index.html"));
            router.fallback_service(ServeDir::new(dir).fallback(index))
        }
        None => router,
    };
    router.layer(SetResponseHeaderLayer::overriding(
        CONTENT_SECURITY_POLICY,
        frame_ancestors(embed_allowed_origins),
    ))
}

/// Who may frame the console: itself, and the pages allowed to embed it. Any other site that
/// frames it (to trick a click, say) gets a blank frame from the browser.
fn frame_ancestors(embed_allowed_origins: &[String]) -> HeaderValue {
    let sources: Vec<&str> = std::iter::once("'self'")
        .chain(embed_allowed_origins.iter().map(String::as_str))
        .collect();
    HeaderValue::from_str(&format!("frame-ancestors {}", sources.join(" ")))
        .expect("checked origins are header-safe")
}

/// `{"api_base_url": ..., "embed": {"allowed_origins": [...]}}`: one console build serves every
/// deployment; this server points it at its own API.
async fn config_json(State(state): State<AppState>, headers: HeaderMap) -> Json<Value> {
    let host = headers
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("127.0.0.1:8080");
    Json(json!({
        "api_base_url": format!("http://{host}/api"),
        "embed": { "allowed_origins": *state.embed_allowed_origins },
    }))
}
