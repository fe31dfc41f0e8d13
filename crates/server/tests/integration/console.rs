//! The built console as the server serves it: `index.html` for deep links, `config.json` for the
//! address the browser used, and framing allowed only to the console itself and the origins
//! allowed to embed it.

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
    let (state, _) = prepare(&config).await.unwrap();
    let router = app(state, Some(dist.path().to_path_buf()));
    let get = |path: &str| {
        let request = Request::get(path)
            .header("Host", "console.test:8080")
            .body(Body::empty())
            .unwrap();
        router.clone().oneshot(request)
    };

    let deep_link = get("/organization/x/project/y/overview?embed=1")
        .await
        .unwrap();
    assert_eq!(deep_link.status(), StatusCode::OK);
    assert_eq!(
        deep_link.headers()[CONTENT_SECURITY_POLICY],
        "frame-ancestors 'self' https://portal.example.com http://127.0.0.1:3000"
    );
    let body = deep_link.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("<title>console</title>"));

    let config_json = get("/config.json").await.unwrap();
    assert_eq!(
        config_json.headers()[CONTENT_SECURITY_POLICY],
        "frame-ancestors 'self' https://portal.example.com http://127.0.0.1:3000"
    );
    let body = config_json.into_body().collect().await.unwrap().to_bytes();
    let config_json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        config_json,
        serde_json::json!({
            "api_base_url": "http://console.test:8080/api",
            "embed": {"allowed_origins": ["https://portal.example.com", "http://127.0.0.1:3000"]},
        })
    );
}

#[tokio::test]
async fn without_allowed_origins_only_the_console_frames_itself() {
    let data = TempDir::new().unwrap();
    let dist = TempDir::new().unwrap();
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").unwrap();
    let (state, _) = prepare(&common::config(&data)).await.unwrap();
    let response = app(state, Some(dist.path().to_path_buf()))
        .oneshot(Request::get("/").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(
        response.headers()[CONTENT_SECURITY_POLICY],
        "frame-ancestors 'self'"
    );
}
