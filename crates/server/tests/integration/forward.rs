//! `--api-upstream`: requests under `/api` reach the upstream with their method, path, query,
//! headers (the token among them) and body, and come back with its status, headers and body,
//! streamed; the console's own files and `config.json` are served beside them.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use platform_server::forward::{start, ForwardConfig};

/// An upstream that answers 418 with what it was sent, its body in two parts some time apart.
async fn echo(request: Request) -> Response {
    let headers: HeaderMap = request.headers().clone();
    let method = request.method().to_string();
    let uri = request.uri().to_string();
    let sent = axum::body::to_bytes(request.into_body(), 1 << 20)
        .await
        .unwrap();
    let said = serde_json::json!({
        "method": method,
        "uri": uri,
        "authorization": headers.get("authorization").map(|v| v.to_str().unwrap()),
        "hop": headers.get("connection").map(|v| v.to_str().unwrap()),
        "body": String::from_utf8_lossy(&sent),
    })
    .to_string();
    let parts = futures::stream::unfold(0, move |part| {
        let said = said.clone();
        async move {
            match part {
                0 => Some((Ok::<_, std::io::Error>(said), 1)),
                1 => {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    Some((Ok("\n-- the end".to_string()), 2))
                }
                _ => None,
            }
        }
    });
    (
        StatusCode::IM_A_TEAPOT,
        [
            ("x-ratelimit-remaining", "7"),
            ("content-type", "application/json"),
        ],
        Body::from_stream(parts),
    )
        .into_response()
}

async fn upstream() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = axum::Router::new().fallback(echo);
    tokio::spawn(async move { axum::serve(listener, app).await });
    address
}

#[tokio::test]
async fn the_api_is_forwarded_as_it_is_and_the_console_served_beside_it() {
    let upstream = upstream().await;
    let forwarding = start(ForwardConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: format!("http://{upstream}/v1").parse().unwrap(),
        console_dir: None,
        embed_allowed_origins: vec![],
        public_url: None,
        allowed_hosts: vec![],
    })
    .await
    .unwrap();
    let address = forwarding.address;
    // Read whole in the blocking task: the servers answer on this test's one thread.
    let (status, remaining, text) = tokio::task::spawn_blocking(move || {
        let answer = ureq::post(&format!(
            "http://{address}/api/organization/1/project?page=2"
        ))
        .set("Authorization", "Token secret-of-the-platform")
        .set("Connection", "keep-alive")
        .send_string("{\"name\":\"shop\"}");
        let Err(ureq::Error::Status(status, answer)) = answer else {
            panic!("not the upstream's status: {answer:?}");
        };
        let remaining = answer.header("x-ratelimit-remaining").map(str::to_string);
        (status, remaining, answer.into_string().unwrap())
    })
    .await
    .unwrap();
    assert_eq!(status, 418);
    assert_eq!(remaining.as_deref(), Some("7"));
    let (said, end) = text.split_once('\n').unwrap();
    assert_eq!(end, "-- the end");
    let said: serde_json::Value = serde_json::from_str(said).unwrap();
    assert_eq!(said["method"], "POST");
    assert_eq!(said["uri"], "/v1/organization/1/project?page=2");
    assert_eq!(said["authorization"], "Token secret-of-the-platform");
    assert_eq!(
        said["hop"],
        serde_json::Value::Null,
        "a hop-by-hop header went on"
    );
    assert_eq!(said["body"], "{\"name\":\"shop\"}");

    // The console's configuration points it at the forwarded API, on the same origin.
    let config: serde_json::Value = tokio::task::spawn_blocking(move || {
        ureq::get(&format!("http://{address}/config.json"))
            .call()
            .unwrap()
            .into_json()
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(config["api_base_url"], format!("http://{address}/api"));
}

#[tokio::test]
async fn an_upstream_that_does_not_answer_is_a_bad_gateway() {
    // A port nothing listens on: bound, then let go.
    let gone = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let forwarding = start(ForwardConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: format!("http://{gone}").parse().unwrap(),
        console_dir: None,
        embed_allowed_origins: vec![],
        public_url: None,
        allowed_hosts: vec![],
    })
    .await
    .unwrap();
    let address = forwarding.address;
    let (status, body) = tokio::task::spawn_blocking(move || {
        let answer = ureq::get(&format!("http://{address}/api/organization"))
            .set("Authorization", "Token never-written-anywhere")
            .call();
        let Err(ureq::Error::Status(status, answer)) = answer else {
            panic!("not an error status");
        };
        (status, answer.into_json::<serde_json::Value>().unwrap())
    })
    .await
    .unwrap();
    assert_eq!(status, 502);
    assert_eq!(body["error"], "UPSTREAM_UNREACHABLE");
    assert!(!body.to_string().contains("never-written-anywhere"));
}
