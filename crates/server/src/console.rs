//! Serves the built console: static files, `index.html` for every deep link, and `config.json`
//! generated for the address the browser used. Only the console's own origin and the origins
//! allowed to embed it may show it in a frame. Files whose name (or directory) carries the
//! build's content hash are cached for good; `index.html` and `config.json` are checked at every
//! load, so a new build is picked up at once. Pre-compressed copies (`x.wasm.br`, `x.wasm.gz`) are sent when present.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, X_CONTENT_TYPE_OPTIONS};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use axum::{Json, Router};
use platform_api::console_config::{ConsoleConfig, EmbedConfig};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::oidc::IdentityProvider;
use crate::public::PublicAddress;

/// What `config.json` publishes besides the API's address, and the console's policy allows.
pub struct Published {
    /// Origins already checked (`platform_api::rules::origin`) that may embed the console.
    pub embed_allowed_origins: Vec<String>,
    pub identity_provider: Option<IdentityProvider>,
}

pub fn router<S: Clone + Send + Sync + 'static>(
    console_dir: Option<PathBuf>,
    published: Arc<Published>,
    public: Arc<PublicAddress>,
) -> Router<S> {
    let policy = content_security_policy(&published);
    let router = Router::new().route(
        "/config.json",
        get(move |headers: HeaderMap| config_json(headers, published.clone(), public.clone())),
    );
    let router = match console_dir {
        Some(dir) => {
            // The build's `.br` and `.gz` files (highest levels) are sent when the browser takes
            // them, so nothing is compressed per request.
            let index = ServeFile::new(dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip();
            let files = ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(index);
            router.fallback_service(files)
        }
        None => router,
    };
    router
        .layer(SetResponseHeaderLayer::overriding(
            CONTENT_SECURITY_POLICY,
            policy,
        ))
        // A file is what its Content-Type says, never sniffed into a script.
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(middleware::from_fn(cache_control))
}

/// `immutable` for a file named by its content (`main-84384f7b2b466b06.css`), `no-cache`
/// for everything else the console is served as.
async fn cache_control(request: Request, next: Next) -> Response {
    let policy = if is_hashed(request.uri().path()) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = next.run(request).await;
    if response.status().is_success() {
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(policy));
    }
    response
}

/// Whether the file is named by its content: trunk's hash at the end of its name (`-` then 16 hex
/// digits before the extension, `_bg` after it for a wasm), or the build's hash at the end of
/// its directory's (`/console-<hash>/chunk_3.wasm`: the wasm split by page, scripts/build-wasm.sh).
fn is_hashed(path: &str) -> bool {
    let ends_in_hash = |stem: &str| {
        stem.rsplit_once('-').is_some_and(|(_, hash)| {
            hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit())
        })
    };
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        [name] if name.contains('.') => {
            let stem = name.split('.').next().unwrap_or_default();
            ends_in_hash(stem.strip_suffix("_bg").unwrap_or(stem))
        }
        [directory, name] => ends_in_hash(directory) && name.contains('.'),
        _ => false,
    }
}

/// The console's Content-Security-Policy. Scripts only of its own origin (no inline script, no
/// script of another site an injected tag would name), and WebAssembly compiled from them
/// (`'wasm-unsafe-eval'`, which wasm needs and which allows no JavaScript `eval`); no plugin;
/// no `<base>` re-pointing its scripts. What it may reach, when people sign in through an
/// identity provider: its own origin (the API `config.json` fixes) and the provider's (its
/// discovery document, keys and token endpoint), no other; without one, the sign-in form's
/// token may be for any API address a person types, so any. Who may frame it: itself, and the
/// pages allowed to embed it; any other site that frames it (to trick a click, say) gets a
/// blank frame.
fn content_security_policy(published: &Published) -> HeaderValue {
    let frame_ancestors: Vec<&str> = std::iter::once("'self'")
        .chain(published.embed_allowed_origins.iter().map(String::as_str))
        .collect();
    let connect = published
        .identity_provider
        .as_ref()
        .and_then(IdentityProvider::origin)
        .map(|provider| format!(" connect-src 'self' {provider};"))
        .unwrap_or_default();
    HeaderValue::from_str(&format!(
        "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self';{connect} frame-ancestors {}",
        frame_ancestors.join(" ")
    ))
    .expect("checked origins are header-safe")
}

/// `ConsoleConfig`: one console build serves every deployment; this server points it at its own
/// API (or the one it forwards) and at the identity provider it was started with.
async fn config_json(
    headers: HeaderMap,
    published: Arc<Published>,
    public: Arc<PublicAddress>,
) -> Json<ConsoleConfig> {
    Json(ConsoleConfig {
        api_base_url: Some(format!("{}/api", public.origin(&headers))),
        oidc: published
            .identity_provider
            .as_ref()
            .and_then(IdentityProvider::published),
        embed: EmbedConfig {
            allowed_origins: published.embed_allowed_origins.clone(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::is_hashed;

    #[test]
    fn only_files_named_by_their_content_are_hashed() {
        assert!(is_hashed("/console-ccb78c1f92a0cedb_bg.wasm"));
        assert!(is_hashed("/console-ccb78c1f92a0cedb.js"));
        assert!(is_hashed("/main-da7e1f9fdf7cb8ed.css"));
        assert!(is_hashed("/console-1371a05c1cf0f749/console_bg.wasm"));
        assert!(is_hashed("/console-1371a05c1cf0f749/__wasm_split.js"));
        assert!(!is_hashed("/console-1371a05c1cf0f749"));
        assert!(!is_hashed(
            "/organization/eu-production-1371a05c1cf0f749/overview"
        ));
        assert!(!is_hashed("/index.html"));
        assert!(!is_hashed("/config.json"));
        assert!(!is_hashed("/organization/5f0c/project/overview"));
        assert!(!is_hashed("/eu-production-1"));
    }
}
