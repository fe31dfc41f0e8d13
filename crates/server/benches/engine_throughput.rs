//! Engine throughput: deployments requested through the API, pushed through the queue and its
//! workers, every state change, step and log line persisted in SQLite. Prints actions and
//! persisted steps per second; with WEBHOOKS > 0, that many webhooks take every event to a
//! receiver on loopback, and it prints how fast the events were delivered too.
//!
//! `cargo bench -p platform-server --bench engine_throughput [-- ACTIONS WORKERS WEBHOOKS]`

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use platform_server::{app, prepare, Config};
use serde_json::{json, Value};
use tempfile::TempDir;
use tower::ServiceExt;

struct Client {
    router: Router,
    authorization: String,
}

impl Client {
    async fn call(&self, method: Method, path: &str, body: Value) -> (StatusCode, Value) {
        let request = Request::builder()
            .method(method)
            .uri(format!("/api{path}"))
            .header("Authorization", &self.authorization)
            .header("Content-Type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let actions: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let workers: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let webhooks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let dir = TempDir::new().unwrap();
    let (state, outcome) = prepare(&Config {
        // Steps take no time: what is measured is the queue, the workers and the writes.
        engine_speed: 1e9,
        engine_workers: workers,
        new_sign_in_token: true,
        rate_limit_per_minute: u32::MAX,
        ..Config::local(dir.path().to_path_buf())
    })
    .await
    .unwrap();
    let client = Client {
        router: app(state.clone(), None),
        authorization: format!("Token {}", outcome.sign_in_token.unwrap()),
    };
    let organization = outcome.organization_id;
    let receiver = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let target_url = format!("http://{}/events", receiver.local_addr().unwrap());
    tokio::spawn(async move {
        let accept = Router::new().route("/events", axum::routing::post(|| async { "" }));
        axum::serve(receiver, accept).await
    });
    for _ in 0..webhooks {
        let (status, _) = client
            .call(
                Method::POST,
                &format!("/organization/{organization}/webhook"),
                json!({"target_url": target_url, "target_secret": "bench",
                       "events": ["DEPLOYMENT_STARTED", "DEPLOYMENT_CANCELLED",
                                  "DEPLOYMENT_FAILURE", "DEPLOYMENT_SUCCESSFUL"]}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (_, project) = client
        .call(
            Method::POST,
            &format!("/organization/{organization}/project"),
            json!({"name": "bench"}),
        )
        .await;
    let (_, environment) = client
        .call(
            Method::POST,
            &format!("/project/{}/environment", project["id"].as_str().unwrap()),
            json!({"name": "bench", "mode": "STAGING"}),
        )
        .await;
    let environment = environment["id"].as_str().unwrap().to_string();
    let mut services = Vec::new();
    for index in 0..actions {
        let (_, application) = client
            .call(
                Method::POST,
                &format!("/environment/{environment}/application"),
                json!({"name": format!("app-{index}"), "git_repository": {"url": "https://git.example.com/a.git"}}),
            )
            .await;
        services.push(application["id"].as_str().unwrap().to_string());
    }

    // Every deployment requested at once, as many people (or one script) would: what is
    // measured is the engine, not a loop of requests one after the other.
    let started = Instant::now();
    let client = std::sync::Arc::new(client);
    let mut requests = tokio::task::JoinSet::new();
    for service in services {
        let client = client.clone();
        requests.spawn(async move {
            client
                .call(
                    Method::POST,
                    &format!("/application/{service}/deploy"),
                    json!({}),
                )
                .await
                .0
        });
    }
    while let Some(status) = requests.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::ACCEPTED);
    }
    let queued = started.elapsed();
    loop {
        let (unfinished,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM deployments WHERE finished_at IS NULL")
                .fetch_one(&state.db)
                .await
                .unwrap();
        if unfinished == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let seconds = started.elapsed().as_secs_f64();
    let (steps,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM deployment_steps")
        .fetch_one(&state.db)
        .await
        .unwrap();
    // Each change the engine persists (an action requested, a state entered, a step recorded, an
    // action ended) writes one log line with it, in the same transaction.
    let (changes,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM deployment_logs")
        .fetch_one(&state.db)
        .await
        .unwrap();
    println!(
        "engine throughput: {actions} deployments, {workers} workers, {seconds:.2} s \
         (all requested at once, accepted in {:.2} s): {:.0} actions/s, {:.0} persisted steps/s, \
         {:.0} persisted state changes/s",
        queued.as_secs_f64(),
        actions as f64 / seconds,
        steps as f64 / seconds,
        changes as f64 / seconds,
    );
    if webhooks == 0 {
        return;
    }
    loop {
        let (pending,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM webhook_deliveries WHERE status != 'DELIVERED'")
                .fetch_one(&state.db)
                .await
                .unwrap();
        if pending == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let seconds = started.elapsed().as_secs_f64();
    let (events,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM webhook_deliveries")
        .fetch_one(&state.db)
        .await
        .unwrap();
    println!(
        "webhook events: {events} to {webhooks} webhook(s), all delivered {seconds:.2} s after the first request: {:.0} signed deliveries/s",
        events as f64 / seconds,
    );
}
