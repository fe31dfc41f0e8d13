//! `--api-upstream`: requests under `/api` reach the upstream with their method, path, query,
//! end-to-end headers (the token among them) and body, and come back with its status, headers
//! and body, streamed; the console's own files and `config.json` are served beside them. The
//! upstream here records what reaches it: nothing outside its base, no hop-by-hop header, no
//! client's `X-Forwarded-*`, no body past the limit, and a 504 when it does not answer.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use platform_server::forward::{start, ForwardConfig, Forwarding, ANSWER_WITHIN};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What reached the upstream: each request's path and query, then its body's length.
type Received = Arc<Mutex<Vec<String>>>;

/// An upstream that records each request's address and answers 418 with what it was sent, its
/// body in two parts some time apart; `/slow/…` never answers.
async fn upstream() -> (SocketAddr, Received) {
    let received: Received = Arc::default();
    let recorded = received.clone();
    let echo = move |request: Request| {
        let recorded = recorded.clone();
        async move { echo(request, &recorded).await }
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = axum::Router::new().fallback(echo);
    tokio::spawn(async move { axum::serve(listener, app).await });
    (address, received)
}

async fn echo(request: Request, received: &Mutex<Vec<String>>) -> Response {
    let uri = request.uri().to_string();
    received.lock().unwrap().push(uri.clone());
    if uri.contains("/slow/") {
        tokio::time::sleep(Duration::from_secs(3600)).await;
    }
    let headers: HeaderMap = request.headers().clone();
    let method = request.method().to_string();
    // Counted, not kept: a body past the forwarder's limit must not reach here whole.
    let mut length = 0;
    let mut sent = Vec::new();
    let mut stream = request.into_body().into_data_stream();
    while let Some(Ok(part)) = futures::StreamExt::next(&mut stream).await {
        length += part.len();
        if sent.len() < 4096 {
            sent.extend_from_slice(&part);
        }
    }
    received.lock().unwrap().push(format!("{length} bytes"));
    let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_string());
    let said = serde_json::json!({
        "method": method,
        "uri": uri,
        "authorization": header("authorization"),
        "connection": header("connection"),
        "x-secret-hop": header("x-secret-hop"),
        "x-forwarded-for": header("x-forwarded-for"),
        "x-forwarded-host": header("x-forwarded-host"),
        "forwarded": header("forwarded"),
        "length": length,
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
            ("connection", "x-upstream-hop"),
            ("x-upstream-hop", "kept on its side"),
        ],
        Body::from_stream(parts),
    )
        .into_response()
}

async fn forwarding_to(upstream: &str, answer_within: Duration) -> Forwarding {
    start(ForwardConfig {
        identity_provider: None,
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: upstream.parse().unwrap(),
        console_dir: None,
        embed_allowed_origins: vec![],
        public_url: None,
        allowed_hosts: vec![],
        answer_within,
    })
    .await
    .unwrap()
}

/// `request` written as it is to `address` (no client library normalizes its path): the answer's
/// status line, headers and body.
async fn raw(address: SocketAddr, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn the_api_is_forwarded_as_it_is_and_the_console_served_beside_it() {
    let (upstream, _) = upstream().await;
    let forwarding = forwarding_to(&format!("http://{upstream}/v1"), ANSWER_WITHIN).await;
    let address = forwarding.address;
    // Read whole in the blocking task: the servers answer on this test's one thread.
    let (status, remaining, hop, text) = tokio::task::spawn_blocking(move || {
        let answer = ureq::post(&format!(
            "http://{address}/api/organization/1/project?page=2"
        ))
        .set("Authorization", "Token secret-of-the-platform")
        .set("Connection", "keep-alive, X-Secret-Hop")
        .set("X-Secret-Hop", "for the forwarder only")
        .set("X-Forwarded-For", "6.6.6.6")
        .set("X-Forwarded-Host", "evil.example")
        .set("Forwarded", "for=6.6.6.6")
        .send_string("{\"name\":\"shop\"}");
        let Err(ureq::Error::Status(status, answer)) = answer else {
            panic!("not the upstream's status: {answer:?}");
        };
        let remaining = answer.header("x-ratelimit-remaining").map(str::to_string);
        let hop = answer.header("x-upstream-hop").map(str::to_string);
        (status, remaining, hop, answer.into_string().unwrap())
    })
    .await
    .unwrap();
    assert_eq!(status, 418);
    assert_eq!(remaining.as_deref(), Some("7"));
    assert_eq!(
        hop, None,
        "a header the upstream's Connection named came through"
    );
    let (said, end) = text.split_once('\n').unwrap();
    assert_eq!(end, "-- the end");
    let said: serde_json::Value = serde_json::from_str(said).unwrap();
    assert_eq!(said["method"], "POST");
    assert_eq!(said["uri"], "/v1/organization/1/project?page=2");
    assert_eq!(said["authorization"], "Token secret-of-the-platform");
    assert_eq!(said["connection"], serde_json::Value::Null);
    assert_eq!(
        said["x-secret-hop"],
        serde_json::Value::Null,
        "a header the client's Connection named went on"
    );
    // The forwarder says who asked, not the client.
    assert_eq!(said["x-forwarded-for"], "127.0.0.1");
    assert_eq!(said["x-forwarded-host"], format!("{address}"));
    assert_eq!(said["forwarded"], serde_json::Value::Null);
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
async fn nothing_outside_the_upstreams_base_is_reached() {
    let (upstream, received) = upstream().await;
    let forwarding = forwarding_to(&format!("http://{upstream}/api/v1"), ANSWER_WITHIN).await;
    for path in [
        "/api/../../etc/passwd",
        "/api/%2e%2e/%2e%2e/internal/metrics",
        "/api/%2E%2E/healthz",
        "/api/%252e%252e/admin",
        "/api/..%5cadmin",
        "/api/organization%2f..%2f..%2fadmin",
        "/api/organization/./x",
    ] {
        let answer = raw(
            forwarding.address,
            &format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{path}: {answer}");
        assert!(answer.contains("BAD_REQUEST"), "{path}: {answer}");
    }
    let reached = received.lock().unwrap().clone();
    assert!(reached.is_empty(), "reached the upstream: {reached:?}");
    // A path below the base still goes.
    let answer = raw(
        forwarding.address,
        "GET /api/organization/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 418"), "{answer}");
    assert_eq!(
        *received.lock().unwrap(),
        ["/api/v1/organization/1", "0 bytes"]
    );
}

#[tokio::test]
async fn an_upstream_with_credentials_is_refused_without_showing_them() {
    let refused = start(ForwardConfig {
        identity_provider: None,
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: "http://user:PASSWORD@127.0.0.1:9/api".parse().unwrap(),
        console_dir: None,
        embed_allowed_origins: vec![],
        public_url: None,
        allowed_hosts: vec![],
        answer_within: ANSWER_WITHIN,
    })
    .await;
    let Err(error) = refused else {
        panic!("an upstream with credentials was taken");
    };
    let said = format!("{error:#}");
    assert!(!said.contains("PASSWORD"), "{said}");
    assert!(said.contains("http://127.0.0.1:9/api"), "{said}");
}

#[tokio::test]
async fn a_body_past_the_limit_is_refused_as_it_streams() {
    let (upstream, received) = upstream().await;
    let forwarding = forwarding_to(&format!("http://{upstream}"), ANSWER_WITHIN).await;
    let address = forwarding.address;
    let limit = platform_server::forward::REQUEST_BODY_LIMIT;
    // Said too long at once: refused before a byte is read.
    let declared = raw(
        address,
        &format!(
            "POST /api/x HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            limit + 1
        ),
    )
    .await;
    assert!(declared.starts_with("HTTP/1.1 413"), "{declared}");
    assert!(declared.contains("larger than 32 MiB"), "{declared}");
    // Sent in chunks with no length: stopped once past the limit, answered 413 (or the
    // connection cut while the client still sends), and never whole upstream.
    let (status, text) = tokio::task::spawn_blocking(move || {
        let chunks = std::io::Read::take(std::io::repeat(b'x'), limit as u64 + 1024 * 1024);
        match ureq::post(&format!("http://{address}/api/x")).send(chunks) {
            Ok(answer) => (answer.status(), answer.into_string().unwrap()),
            Err(ureq::Error::Status(status, answer)) => (status, answer.into_string().unwrap()),
            Err(error) => (0, error.to_string()),
        }
    })
    .await
    .unwrap();
    assert!(status == 413 || status == 0, "{status} {text}");
    let over: Vec<String> = received
        .lock()
        .unwrap()
        .iter()
        .filter(|said| {
            said.strip_suffix(" bytes")
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| n > limit)
        })
        .cloned()
        .collect();
    assert!(over.is_empty(), "the upstream received {over:?}");
    // Within the limit, a streamed body goes whole.
    let (status, text) = tokio::task::spawn_blocking(move || {
        let chunks = std::io::Read::take(std::io::repeat(b'y'), 3 * 1024 * 1024);
        match ureq::post(&format!("http://{address}/api/x")).send(chunks) {
            Err(ureq::Error::Status(status, answer)) => (status, answer.into_string().unwrap()),
            other => panic!("{other:?}"),
        }
    })
    .await
    .unwrap();
    assert_eq!(status, 418);
    assert!(text.contains("\"length\":3145728"), "{text}");
}

#[tokio::test]
async fn an_upstream_that_never_answers_is_a_gateway_timeout() {
    let (upstream, _) = upstream().await;
    let forwarding = forwarding_to(&format!("http://{upstream}"), Duration::from_secs(1)).await;
    let address = forwarding.address;
    let asked = std::time::Instant::now();
    let (status, body) = tokio::task::spawn_blocking(move || {
        let answer = ureq::get(&format!("http://{address}/api/slow/organization")).call();
        let Err(ureq::Error::Status(status, answer)) = answer else {
            panic!("not an error status");
        };
        (status, answer.into_json::<serde_json::Value>().unwrap())
    })
    .await
    .unwrap();
    assert_eq!(status, 504);
    assert_eq!(body["error"], "UPSTREAM_TIMEOUT");
    assert!(asked.elapsed() < Duration::from_secs(30));
}

#[tokio::test]
async fn an_upstream_that_does_not_answer_is_a_bad_gateway() {
    // A port nothing listens on: bound, then let go.
    let gone = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let forwarding = forwarding_to(&format!("http://{gone}"), ANSWER_WITHIN).await;
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
