//! `--api-upstream URL`: the console served on one origin with its API forwarded to the
//! production platform's, so that a browser calls the platform without the platform's CORS.
//! Nothing else of the reference server runs (no database, no engine, no sign-in token): each
//! request under `/api` goes to `URL` with its method, path, query, end-to-end headers and body,
//! its answer comes back with its status, end-to-end headers and body, both streamed as they
//! arrive. The `Authorization` header is passed as it is and never logged.
//!
//! A proxy a review passes: a path is checked before it is joined to the base (no `.` or `..`
//! segment, backslash or encoded slash, however encoded), so nothing outside the base is reached;
//! hop-by-hop headers and those `Connection` names are dropped both ways; `X-Forwarded-*` are
//! the forwarder's own, never the client's; a body is bounded as it streams; an upstream that
//! does not connect or answer in time is a 504. The upstream's address holds no credentials
//! (refused at start): the platform is called with each person's own token.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{CONNECTION, CONTENT_LENGTH, HOST, TRANSFER_ENCODING};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures::StreamExt;
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
    /// The platform's identity provider, published to the console (`config.json`) and allowed
    /// by its policy.
    pub identity_provider: Option<crate::oidc::IdentityProvider>,
    /// The URL clients reach the console at, and names its `Host` may be (`public`).
    pub public_url: Option<reqwest::Url>,
    pub allowed_hosts: Vec<String>,
    /// How long the upstream may take to connect, to begin its answer, and between two parts of
    /// it, before the client is answered 504.
    pub answer_within: Duration,
}

/// `ForwardConfig::answer_within` unless the server is started with another.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(60);

/// The largest request body forwarded: far above any of the platform's requests. Bodies are
/// streamed, counted as they go.
pub const REQUEST_BODY_LIMIT: usize = 32 * 1024 * 1024;

/// A started forwarding server.
pub struct Forwarding {
    pub address: SocketAddr,
    pub server: tokio::task::JoinHandle<std::io::Result<()>>,
}

#[derive(Clone)]
struct Upstream {
    client: reqwest::Client,
    base: Arc<reqwest::Url>,
    answer_within: Duration,
}

/// Headers of one connection, not of the request or answer (RFC 9110 §7.6.1), left to each side.
const HOP_BY_HOP: [HeaderName; 9] = [
    CONNECTION,
    HeaderName::from_static("keep-alive"),
    HeaderName::from_static("proxy-authenticate"),
    HeaderName::from_static("proxy-authorization"),
    HeaderName::from_static("proxy-connection"),
    axum::http::header::TE,
    axum::http::header::TRAILER,
    TRANSFER_ENCODING,
    axum::http::header::UPGRADE,
];

/// What a proxy says of the request it forwards: set by the forwarder, never taken from a client.
const FORWARDING: [HeaderName; 5] = [
    HeaderName::from_static("forwarded"),
    HeaderName::from_static("x-forwarded-for"),
    HeaderName::from_static("x-forwarded-host"),
    HeaderName::from_static("x-forwarded-proto"),
    HeaderName::from_static("x-real-ip"),
];

/// The headers of `headers` that go on to the other side: not hop-by-hop, not named by its
/// `Connection`, not the `Host` (the upstream's own is sent), nor the body's length (set again
/// for the body as it is sent).
fn end_to_end(headers: &HeaderMap) -> impl Iterator<Item = (&HeaderName, &HeaderValue)> {
    let named_by_connection: Vec<String> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|name| name.trim().to_ascii_lowercase())
        .collect();
    headers.iter().filter(move |(name, _)| {
        !HOP_BY_HOP.contains(name)
            && **name != HOST
            && **name != CONTENT_LENGTH
            && !named_by_connection
                .iter()
                .any(|named| named == name.as_str())
    })
}

/// `url`, refused when it holds credentials (they would go to every message naming it, and the
/// platform is called with each person's token) or is not an http(s) address.
pub fn checked_upstream(url: reqwest::Url) -> anyhow::Result<reqwest::Url> {
    anyhow::ensure!(
        matches!(url.scheme(), "http" | "https") && url.has_host(),
        "--api-upstream must be an http:// or https:// address with a host"
    );
    if !url.username().is_empty() || url.password().is_some() {
        let mut shown = url.clone();
        let _ = shown.set_username("");
        let _ = shown.set_password(None);
        anyhow::bail!(
            "--api-upstream must not hold credentials (user:password@): the platform's API is \
             called with each person's own token. Give {shown} instead."
        );
    }
    Ok(url)
}

/// The console and its `config.json` (compressed as the browser accepts), and `/api/*`
/// forwarded to `upstream`.
/// The forwarding server's router, its links naming `listen` (the address bound).
pub fn app(config: &ForwardConfig, listen: SocketAddr) -> anyhow::Result<Router> {
    let client = reqwest::Client::builder()
        .connect_timeout(config.answer_within)
        .read_timeout(config.answer_within)
        // The platform's redirects are the browser's to follow, as they would be without us.
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let upstream = Upstream {
        client,
        base: Arc::new(checked_upstream(config.upstream.clone())?),
        answer_within: config.answer_within,
    };
    let console = console::router(
        config.console_dir.clone(),
        Arc::new(console::Published {
            embed_allowed_origins: config.embed_allowed_origins.clone(),
            identity_provider: config.identity_provider.clone(),
        }),
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
    let server = tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    Ok(Forwarding { address, server })
}

/// 400 unless every segment of `path` names a step down: no `.` or `..`, no backslash, no
/// encoded slash, no percent sign left once decoded (an encoding encoded again), no control
/// character. Checked before the path is joined to the base, which would resolve the dots.
fn below_base(path: &str) -> Result<(), ApiError> {
    let refused = path.split('/').any(|segment| {
        let decoded = percent_encoding::percent_decode_str(segment).decode_utf8_lossy();
        matches!(decoded.as_ref(), "." | "..")
            || decoded.contains(['\\', '/', '%'])
            || decoded.chars().any(char::is_control)
    });
    if refused {
        return Err(ApiError::bad_request(
            "The path may not hold . or .. segments, backslashes, encoded slashes, doubly \
             encoded characters or control characters.",
        ));
    }
    Ok(())
}

/// `base` with the request's path (below `/api`, checked by `below_base`) and query.
fn target(base: &reqwest::Url, request: &Request) -> Result<reqwest::Url, ApiError> {
    let path = request.uri().path();
    below_base(path)?;
    let mut url = base.clone();
    url.set_path(&format!(
        "{}/{}",
        base.path().trim_end_matches('/'),
        path.trim_start_matches('/')
    ));
    url.set_query(request.uri().query());
    Ok(url)
}

/// The request's body, streamed, failing once it is past `REQUEST_BODY_LIMIT` (then `over` is
/// set); `None` for a request without one.
fn bounded_body(request: Request, over: Arc<AtomicBool>) -> Option<reqwest::Body> {
    let headers = request.headers();
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared == Some(0) || (declared.is_none() && !headers.contains_key(TRANSFER_ENCODING)) {
        return None;
    }
    let mut sent = 0;
    let stream = request.into_body().into_data_stream().map(move |part| {
        let part = part.map_err(std::io::Error::other)?;
        sent += part.len();
        if sent > REQUEST_BODY_LIMIT {
            over.store(true, Ordering::Release);
            return Err(std::io::Error::other(
                "the body is over the forwarder's limit",
            ));
        }
        Ok(part)
    });
    Some(reqwest::Body::wrap_stream(stream))
}

async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let url = match target(&upstream.base, &request) {
        Ok(url) => url,
        Err(refused) => return refused.into_response(),
    };
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > REQUEST_BODY_LIMIT as u64) {
        return ApiError::too_large(REQUEST_BODY_LIMIT).into_response();
    }
    let mut outgoing = upstream.client.request(request.method().clone(), url);
    for (name, value) in end_to_end(request.headers()) {
        if !FORWARDING.contains(name) {
            outgoing = outgoing.header(name, value);
        }
    }
    if let Some(length) = declared {
        outgoing = outgoing.header(CONTENT_LENGTH, length);
    }
    if let Some(ConnectInfo(client)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
        outgoing = outgoing.header("x-forwarded-for", client.ip().to_string());
    }
    if let Some(host) = request.headers().get(HOST) {
        outgoing = outgoing.header("x-forwarded-host", host);
    }
    outgoing = outgoing.header("x-forwarded-proto", "http");
    let over = Arc::new(AtomicBool::new(false));
    if let Some(body) = bounded_body(request, over.clone()) {
        outgoing = outgoing.body(body);
    }
    let answer = match tokio::time::timeout(upstream.answer_within, outgoing.send()).await {
        Ok(Ok(answer)) => answer,
        _ if over.load(Ordering::Acquire) => {
            return ApiError::too_large(REQUEST_BODY_LIMIT).into_response();
        }
        Ok(Err(error)) if !error.is_timeout() => {
            tracing::warn!(upstream = %upstream.base, "the platform's API could not be reached: {}", error.without_url());
            return ApiError::upstream_unreachable(&upstream.base).into_response();
        }
        _ => {
            tracing::warn!(upstream = %upstream.base, "the platform's API did not answer within {:?}", upstream.answer_within);
            return ApiError::upstream_timeout(&upstream.base, upstream.answer_within)
                .into_response();
        }
    };
    let mut response = Response::builder()
        .status(StatusCode::from_u16(answer.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY));
    for (name, value) in end_to_end(answer.headers()) {
        response = response.header(name, value);
    }
    if let Some(length) = answer.content_length() {
        response = response.header(CONTENT_LENGTH, length);
    }
    response
        .body(Body::from_stream(answer.bytes_stream()))
        .unwrap_or_else(|_| ApiError::upstream_unreachable(&upstream.base).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str) -> Request {
        Request::builder().uri(uri).body(Body::empty()).unwrap()
    }

    #[test]
    fn a_path_below_api_goes_below_the_upstreams_own() {
        let base: reqwest::Url = "https://platform.example/api/v1".parse().unwrap();
        assert_eq!(
            target(&base, &request("/organization/1/project?page=2"))
                .unwrap()
                .as_str(),
            "https://platform.example/api/v1/organization/1/project?page=2"
        );
        let bare: reqwest::Url = "https://platform.example".parse().unwrap();
        assert_eq!(
            target(&bare, &request("/organization")).unwrap().as_str(),
            "https://platform.example/organization"
        );
    }

    #[test]
    fn a_path_that_would_climb_out_of_the_base_is_refused() {
        let base: reqwest::Url = "https://platform.example/api/v1".parse().unwrap();
        for climbing in [
            "/../../etc/passwd",
            "/organization/../../internal/metrics",
            "/%2e%2e/%2e%2e/internal/metrics",
            "/%2E%2E/healthz",
            "/.%2e/admin",
            "/%252e%252e/admin",
            "/..%5cadmin",
            "/..\\admin",
            "/organization%2f..%2f..%2fadmin",
            "/./organization",
            "/organization/%00",
        ] {
            let refused = target(&base, &request(climbing));
            assert!(refused.is_err(), "{climbing} was let through");
        }
        // Dots inside a segment are a name's, not a step up.
        assert!(target(&base, &request("/helm/chart.v1..2/values")).is_ok());
    }

    #[test]
    fn credentials_in_the_upstreams_address_are_refused_without_being_shown() {
        let url: reqwest::Url = "http://user:PASSWORD@platform.example/api".parse().unwrap();
        let refused = checked_upstream(url).unwrap_err().to_string();
        assert!(!refused.contains("PASSWORD"), "{refused}");
        assert!(!refused.contains("user:PASSWORD@"), "{refused}");
        assert!(refused.contains("http://platform.example/api"), "{refused}");
        assert!(checked_upstream("ftp://platform.example".parse().unwrap()).is_err());
    }

    #[test]
    fn hop_by_hop_headers_and_those_connection_names_stay_on_their_side() {
        let mut headers = HeaderMap::new();
        headers.insert(CONNECTION, "keep-alive, X-Secret-Hop".parse().unwrap());
        headers.insert("x-secret-hop", "1".parse().unwrap());
        headers.insert("keep-alive", "timeout=5".parse().unwrap());
        headers.insert("authorization", "Token t".parse().unwrap());
        headers.insert("accept", "application/json".parse().unwrap());
        let passed: Vec<&str> = end_to_end(&headers)
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(passed, ["authorization", "accept"]);
    }
}
