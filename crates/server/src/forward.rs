//! `--api-upstream URL`: the console served on one origin with its API forwarded to the
//! production platform's, so that a browser calls the platform without the platform's CORS.
//! Nothing else of the reference server runs (no database, no engine, no sign-in token): each
//! request under `/api` goes to `URL` with its method, path, query, headers and body, its answer
//! comes back with its status, headers and body, streamed as it arrives. The `Authorization`
//! header is passed as it is and never logged.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::trace::TraceLayer;

use crate::console;
use crate::error::ApiError;
use crate::public::PublicAddress;

/// What a forwarding server needs.
pub struct ForwardConfig {
    pub listen: SocketAddr,
    /// The platform's API: `https://api.example.com` (a path is kept: `https://host/api/v1`).
    pub upstream: reqwest::Url,
    pub console_dir: Option<PathBuf>,
    pub embed_allowed_origins: Vec<String>,
    /// The URL clients reach the console at, and names its `Host` may be (`public`).
    pub public_url: Option<reqwest::Url>,
    pub allowed_hosts: Vec<String>,
}

/// A started forwarding server.
pub struct Forwarding {
    pub address: SocketAddr,
    pub server: tokio::task::JoinHandle<std::io::Result<()>>,
}

#[derive(Clone)]
struct Upstream {
    client: reqwest::Client,
    base: Arc<reqwest::Url>,
}

/// Headers of one connection, not of the request or answer (RFC 9110 §7.6.1), left to each side.
const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
];

fn end_to_end(
    headers: &HeaderMap,
) -> impl Iterator<Item = (&HeaderName, &axum::http::HeaderValue)> {
    headers
        .iter()
        .filter(|(name, _)| !HOP_BY_HOP.contains(&name.as_str()))
}

/// The largest request body forwarded: far above any of the platform's requests. A request body
/// is read whole before it goes (its length known to the upstream); answers are streamed.
const REQUEST_BODY_LIMIT: usize = 32 * 1024 * 1024;

/// The console and its `config.json` (compressed as the browser accepts), and `/api/*`
/// forwarded to `upstream` as it is.
/// The forwarding server's router, its links naming `listen` (the address bound).
pub fn app(config: &ForwardConfig, listen: SocketAddr) -> anyhow::Result<Router> {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        // The platform's redirects are the browser's to follow, as they would be without us.
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let upstream = Upstream {
        client,
        base: Arc::new(config.upstream.clone()),
    };
    let console = console::router(
        config.console_dir.clone(),
        Arc::new(config.embed_allowed_origins.clone()),
        Arc::new(PublicAddress::new(
            config.public_url.as_ref(),
            listen,
            config.allowed_hosts.clone(),
        )),
    )
    .layer(CompressionLayer::new());
    Ok(Router::new()
        .nest_service("/api", Router::new().fallback(forward).with_state(upstream))
        .merge(console)
        // Method and path only: no header (the token) is logged.
        .layer(TraceLayer::new_for_http()))
}

/// Binds and serves a forwarding server.
pub async fn start(config: ForwardConfig) -> anyhow::Result<Forwarding> {
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|error| anyhow::anyhow!("cannot listen on {}: {error}", config.listen))?;
    let address = listener.local_addr()?;
    let router = app(&config, address)?;
    let listener = crate::without_nagle(listener);
    let server = tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(Forwarding { address, server })
}

/// `base` with the request's path (below `/api`) and query.
fn target(base: &reqwest::Url, request: &Request) -> reqwest::Url {
    let mut url = base.clone();
    let path = format!(
        "{}/{}",
        base.path().trim_end_matches('/'),
        request.uri().path().trim_start_matches('/')
    );
    url.set_path(&path);
    url.set_query(request.uri().query());
    url
}

async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let url = target(&upstream.base, &request);
    let mut outgoing = upstream.client.request(request.method().clone(), url);
    for (name, value) in end_to_end(request.headers()) {
        // Set again for the body as it is sent.
        if name != axum::http::header::CONTENT_LENGTH {
            outgoing = outgoing.header(name, value);
        }
    }
    let body = match axum::body::to_bytes(request.into_body(), REQUEST_BODY_LIMIT).await {
        Ok(body) => body,
        Err(_) => return ApiError::too_large().into_response(),
    };
    let answer = match outgoing.body(body).send().await {
        Ok(answer) => answer,
        Err(error) => {
            tracing::warn!(upstream = %upstream.base, "the platform's API could not be reached: {}", error.without_url());
            return ApiError::upstream_unreachable(&upstream.base).into_response();
        }
    };
    let mut response = Response::builder()
        .status(StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY));
    for (name, value) in end_to_end(answer.headers()) {
        response = response.header(name, value);
    }
    response
        .body(Body::from_stream(answer.bytes_stream()))
        .unwrap_or_else(|_| ApiError::upstream_unreachable(&upstream.base).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_below_api_goes_below_the_upstreams_own() {
        let request = |uri: &str| Request::builder().uri(uri).body(Body::empty()).unwrap();
        let base: reqwest::Url = "https://platform.example/api/v1".parse().unwrap();
        assert_eq!(
            target(&base, &request("/organization/1/project?page=2")).as_str(),
            "https://platform.example/api/v1/organization/1/project?page=2"
        );
        let bare: reqwest::Url = "https://platform.example".parse().unwrap();
        assert_eq!(
            target(&bare, &request("/organization")).as_str(),
            "https://platform.example/organization"
        );
    }
}
