//! The built console as the server serves it: `index.html` for deep links, `config.json` for the
//! address the browser used and the identity provider, framing allowed only to the console itself
//! and the origins allowed to embed it, and connections only to itself and the provider.

use crate::common;

use axum::body::Body;
use axum::http::header::CONTENT_SECURITY_POLICY;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use platform_server::{app, prepare};
use tempfile::TempDir;
use tower::ServiceExt;

#[tokio::test]
async fn console_pages_may_be_framed_only_by_allowed_origins() {
    let data = TempDir::new().unwrap();
    let dist = TempDir::new().unwrap();
    std::fs::write(
        dist.path().join("index.html"),
        "<!doctype html><title>console</title>",
    )
    .unwrap();
    let mut config = common::config(&data);
    config.embed_allowed_origins = vec![
        "https://portal.example.com".to_string(),
        "http://127.0.0.1:3000".to_string(),
    ];
    config.allowed_hosts = vec!["console.test:8080".to_string()];
    let (state, _) = prepare(&config).await.unwrap();
    let router = app(state, Some(dist.path().to_path_buf()));
    let get = |path: &str| {
        let request = Request::get(path)
            .header("Host", "console.test:8080")
            .body(Body::empty())
            .unwrap();
        router.clone().oneshot(request)
    };

    let provider = &common::oidc::shared().issuer;
    let policy = format!(
        "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'; connect-src 'self' {provider}; frame-ancestors 'self' https://portal.example.com http://127.0.0.1:3000"
    );
    let deep_link = get("/organization/x/project/y/overview?embed=1")
        .await
        .unwrap();
    assert_eq!(deep_link.status(), StatusCode::OK);
    assert_eq!(
        deep_link.headers()[CONTENT_SECURITY_POLICY],
        policy.as_str()
    );
    assert_eq!(deep_link.headers()["x-content-type-options"], "nosniff");
    let body = deep_link.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("<title>console</title>"));

    let config_json = get("/config.json").await.unwrap();
    assert_eq!(
        config_json.headers()[CONTENT_SECURITY_POLICY],
        policy.as_str()
    );
    let body = config_json.into_body().collect().await.unwrap().to_bytes();
    let config_json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        config_json,
        serde_json::json!({
            "api_base_url": "http://console.test:8080/api",
            "oidc": {"issuer": provider, "client_id": common::oidc::AUDIENCE,
                     "audience": common::oidc::AUDIENCE},
            "embed": {"allowed_origins": ["https://portal.example.com", "http://127.0.0.1:3000"]},
        })
    );
}

#[tokio::test]
async fn without_allowed_origins_only_the_console_frames_itself() {
    let data = TempDir::new().unwrap();
    let dist = TempDir::new().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
    // Without an identity provider the sign-in form may name any API: no connect-src.
    let mut config = common::config(&data);
    config.identity_provider = None;
    let (state, _) = prepare(&config).await.unwrap();
    let response = app(state, Some(dist.path().to_path_buf()))
        .oneshot(Request::get("/").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(
        response.headers()[CONTENT_SECURITY_POLICY],
        "script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'"
    );
}

/// Hashed files are cached for good and `index.html` checked each load; both, and the API's
/// answers, come compressed to a client that accepts it.
#[tokio::test]
async fn console_files_are_cached_by_their_hash_and_sent_compressed() {
    let data = TempDir::new().unwrap();
    let dist = TempDir::new().unwrap();
    let index = format!("<!doctype html><title>console</title>{}", " ".repeat(4096));
    std::fs::write(dist.path().join("index.html"), &index).unwrap();
    let wasm = vec![7u8; 64 * 1024];
    std::fs::write(dist.path().join("console-ccb78c1f92a0cedb_bg.wasm"), &wasm).unwrap();
    let config = common::config(&data);
    let (state, _) = prepare(&config).await.unwrap();
    let router = app(state, Some(dist.path().to_path_buf()));
    let get = |path: &str, encoding: &str| {
        let request = Request::get(path)
            .header("Accept-Encoding", encoding)
            .body(Body::empty())
            .unwrap();
        router.clone().oneshot(request)
    };

    let hashed = get("/console-ccb78c1f92a0cedb_bg.wasm", "br")
        .await
        .unwrap();
    assert_eq!(hashed.status(), StatusCode::OK);
    assert_eq!(
        hashed.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(hashed.headers()["content-encoding"], "br");
    let sent = hashed.into_body().collect().await.unwrap().to_bytes();
    assert!(sent.len() < wasm.len() / 10, "{} bytes sent", sent.len());

    for path in ["/", "/organization/x/overview", "/config.json"] {
        let page = get(path, "gzip").await.unwrap();
        assert_eq!(page.headers()["cache-control"], "no-cache", "{path}");
    }
    let page = get("/", "gzip").await.unwrap();
    assert_eq!(page.headers()["content-encoding"], "gzip");

    // Without Accept-Encoding, nothing is compressed.
    let plain = get("/console-ccb78c1f92a0cedb_bg.wasm", "identity")
        .await
        .unwrap();
    assert!(!plain.headers().contains_key("content-encoding"));
    let body = plain.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body.len(), wasm.len());
}

/// The build's pre-compressed copies are sent as they are, with the encoding the browser takes.
#[tokio::test]
async fn pre_compressed_copies_are_sent_when_present() {
    let data = TempDir::new().unwrap();
    let dist = TempDir::new().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
    let name = "console-ccb78c1f92a0cedb.js";
    std::fs::write(dist.path().join(name), "let console = 1;").unwrap();
    std::fs::write(dist.path().join(format!("{name}.br")), "brotli copy").unwrap();
    std::fs::write(dist.path().join(format!("{name}.gz")), "gzip copy").unwrap();
    let (state, _) = prepare(&common::config(&data)).await.unwrap();
    let router = app(state, Some(dist.path().to_path_buf()));
    for (accepted, encoding, body) in [
        ("br, gzip", Some("br"), "brotli copy"),
        ("gzip", Some("gzip"), "gzip copy"),
        ("identity", None, "let console = 1;"),
    ] {
        let request = Request::get(format!("/{name}"))
            .header("Accept-Encoding", accepted)
            .body(Body::empty())
            .unwrap();
        let answer = router.clone().oneshot(request).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        assert_eq!(
            answer
                .headers()
                .get("content-encoding")
                .map(|value| value.to_str().unwrap()),
            encoding,
            "{accepted}"
        );
        assert_eq!(
            answer.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        let sent = answer.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(sent, body.as_bytes(), "{accepted}");
    }
}

/// `GET path` of `router` with the request's `Host` and `X-Forwarded-Proto` a client chose.
async fn asked_by_a_client(router: &axum::Router, path: &str) -> serde_json::Value {
    let request = Request::get(path)
        .header("Host", "evil.example")
        .header("X-Forwarded-Proto", "https")
        .body(Body::empty())
        .unwrap();
    let answer = router.clone().oneshot(request).await.unwrap();
    let body = answer.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test]
async fn links_name_the_public_address_never_a_host_of_the_clients_choosing() {
    let data = TempDir::new().unwrap();
    let config = common::config(&data);
    let (state, _) = prepare(&config).await.unwrap();
    let router = app(state, None);
    let named = asked_by_a_client(&router, "/config.json").await;
    assert_eq!(named["api_base_url"], "http://127.0.0.1:0/api", "{named}");

    let data = TempDir::new().unwrap();
    let mut config = common::config(&data);
    config.public_url = Some("https://console.example.com/".parse().unwrap());
    let server = common::TestServer::with_config(data, config).await;
    let request = Request::get("/config.json")
        .header("Host", "evil.example")
        .body(Body::empty())
        .unwrap();
    let named = server.send(request).await.body;
    assert_eq!(named["api_base_url"], "https://console.example.com/api");

    // The audit log's links too.
    server.project("linked-1").await;
    server.project("linked-2").await;
    let request = Request::get(format!(
        "/api/organization/{}/events?pageSize=1",
        server.organization_id
    ))
    .header("Host", "evil.example")
    .header("Authorization", server.auth())
    .body(Body::empty())
    .unwrap();
    let page = server.send(request).await;
    let next = page.body["links"]["next"].as_str().unwrap();
    assert!(
        next.starts_with("https://console.example.com/api/organization/"),
        "{next}"
    );
}
