//! Serves the built console: static files, `index.html` for every deep link, and `config.json`
//! generated for the address the browser used.

use std::path::PathBuf;

use axum::extract::State;
use axum::http::header::HOST;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;

pub fn router(console_dir: Option<PathBuf>) -> Router<AppState> {
    let router = Router::new().route("/config.json", get(config_json));
    match console_dir {
        Some(dir) => {
            let index = ServeFile::new(dir.join("index.html"));
            router.fallback_service(ServeDir::new(dir).fallback(index))
        }
        None => router,
    }
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
