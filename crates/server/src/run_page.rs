//! `/run/{service_id}/` and `/run/{service_id}/p{port}/`: what a service's public address answers
//! on the reference server (`routes::services::links` writes these addresses). No cloud runs
//! here: the page stands for the instances the platform would run, says so, and answers 503
//! while the service runs nothing. Like a real public address, it needs no token: it shows the
//! service's name, kind and state, never its settings.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Html;
use axum::routing::get;
use axum::Router;
use platform_api::{Port, WireEnum};
use serde::Deserialize;
use uuid::Uuid;

use crate::engine::status;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/run/{service_id}/", get(root))
        .route("/run/{service_id}/{port}/", get(port))
}

/// What a page needs of a record: its ports (none for the kinds without).
#[derive(Deserialize)]
struct Shown {
    #[serde(default)]
    ports: Vec<Port>,
}

async fn root(
    State(state): State<AppState>,
    Path(service_id): Path<Uuid>,
) -> ApiResult<(StatusCode, Html<String>)> {
    page(&state, service_id, None).await
}

async fn port(
    State(state): State<AppState>,
    Path((service_id, port)): Path<(Uuid, String)>,
) -> ApiResult<(StatusCode, Html<String>)> {
    match port
        .strip_prefix('p')
        .and_then(|number| number.parse().ok())
    {
        Some(number) => page(&state, service_id, Some(number)).await,
        None => Ok(not_found()),
    }
}

async fn page(
    state: &AppState,
    service_id: Uuid,
    asked_port: Option<i64>,
) -> ApiResult<(StatusCode, Html<String>)> {
    let mut conn = state.db.acquire().await?;
    let Some(service) = store::services::any_kind(&mut conn, service_id).await? else {
        return Ok(not_found());
    };
    let shown: Shown = serde_json::from_str(&service.spec).map_err(ApiError::internal)?;
    let public = |port: &&Port| port.publicly_accessible;
    let port = match asked_port {
        Some(number) => shown
            .ports
            .iter()
            .filter(public)
            .find(|port| port.internal_port == number),
        None => platform_api::default_port(&shown.ports),
    };
    let Some(port) = port else {
        return Ok(not_found());
    };
    let status = status::of_service(&mut conn, service_id).await?;
    let name = html_escape::encode_text(&service.name);
    let kind = service.kind.label();
    let simulated = "The reference server simulates the platform's cloud: no instance runs here, \
                     and this page stands for the service's answer.";
    if !status.runs() {
        let body = format!(
            "<h1>{name} is not running</h1><p>{kind} · {}.</p><p>{simulated}</p>",
            status.state.label()
        );
        return Ok((StatusCode::SERVICE_UNAVAILABLE, html(&name, &body)));
    }
    let body = format!(
        "<h1>{name}</h1><p>{kind} · answering on port {} ({}) · {}.</p><p>{simulated}</p>",
        port.internal_port,
        html_escape::encode_text(&port.protocol),
        status.state.label()
    );
    Ok((StatusCode::OK, html(&name, &body)))
}

fn not_found() -> (StatusCode, Html<String>) {
    let body = "<h1>Nothing answers here</h1><p>No service is reached at this address.</p>";
    (StatusCode::NOT_FOUND, html("Not found", body))
}

fn html(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title></head><body><main>{body}</main></body></html>"
    ))
}
