//! Many deployments at once: they queue for the engine's workers, all reach a terminal state,
//! none is lost, and the counts add up.

use crate::common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{config, TestServer};
use tempfile::TempDir;
use tokio::task::JoinSet;
use tower::ServiceExt;

const SERVICES: usize = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_deployments_at_once_all_finish() {
    let dir = TempDir::new().unwrap();
    let mut few_workers = config(&dir);
    few_workers.engine_workers = 4;
    few_workers.engine_speed = 500.0;
    let server = TestServer::with_config(dir, few_workers).await;
    let project = server.project("load").await;
    let environment = server.environment(&project, "staging").await;
    let mut applications = Vec::new();
    for index in 0..SERVICES {
        applications.push(
            server
                .application(&environment, &format!("app-{index}"))
                .await,
        );
    }

    let mut requests = JoinSet::new();
    for application in &applications {
        let router = server.router.clone();
        let request = Request::post(format!("/api/application/{application}/deploy"))
            .header("Authorization", format!("Token {}", server.token))
            .header("Content-Type", "application/json")
            .body(Body::from("{}"))
            .unwrap();
        requests.spawn(async move { router.oneshot(request).await.unwrap().status() });
    }
    while let Some(status) = requests.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::ACCEPTED);
    }

    let statuses = format!("/api/environment/{environment}/statuses");
    let (mut most_queued, mut most_running) = (0, 0);
    let mut steps_seen = false;
    let settled = loop {
        let body = server.get(&statuses).await.body;
        let applications = body["applications"].as_array().unwrap().clone();
        steps_seen |= applications
            .iter()
            .any(|s| s["steps"]["details"].is_array());
        let count = |wanted: fn(&str) -> bool| {
            applications
                .iter()
                .filter(|s| wanted(s["state"].as_str().unwrap()))
                .count()
        };
        most_queued = most_queued.max(count(|state| state == "DEPLOYMENT_QUEUED"));
        most_running = most_running.max(count(|state| {
            !matches!(state, "DEPLOYMENT_QUEUED" | "DEPLOYED")
        }));
        if applications.iter().all(|s| s["state"] == "DEPLOYED") {
            break applications;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(settled.len(), SERVICES);
    // Four workers cannot run two hundred deployments at once: most waited in the queue.
    assert!(
        most_queued > SERVICES / 2,
        "at most {most_queued} were queued"
    );
    // Never more running at once than there are workers.
    assert!(
        (1..=4).contains(&most_running),
        "{most_running} ran at once on 4 workers"
    );
    // The running actions' steps were in the environment's statuses while they ran.
    assert!(steps_seen);
    for status in &settled {
        assert_eq!(status["deployment_requests_count"], 0);
        assert_eq!(status["service_deployment_status"], "UP_TO_DATE");
        // An environment's statuses carry steps only for running actions; a service's has its own.
        assert_eq!(status["steps"], serde_json::Value::Null);
        let own = server
            .get(&format!(
                "/api/application/{}/status",
                status["id"].as_str().unwrap()
            ))
            .await
            .body;
        assert_eq!(own["steps"]["details"].as_array().unwrap().len(), 7);
    }
    let (finished, unfinished): (i64, i64) =
        sqlx::query_as("SELECT COUNT(finished_at), COUNT(*) - COUNT(finished_at) FROM deployments")
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    assert_eq!((finished, unfinished), (SERVICES as i64, 0));
}
