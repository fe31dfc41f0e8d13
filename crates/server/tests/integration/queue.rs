//! The queue made visible and a cancel that stops the work: positions in the engine's queue stay
//! consistent under 50 requests at once and only count down; a cancel inside any step (one that
//! would never end) ends the action CANCELED with no later step run; a cancel in the queue ends it
//! without running a step; an action past its timeout ends in error saying so.

use crate::common;

use axum::http::StatusCode;
use common::{config, TestServer};
use serde_json::{json, Value};
use tempfile::TempDir;

/// A server whose engine runs one action at a time at `speed`.
async fn one_worker(speed: f64) -> TestServer {
    let dir = TempDir::new().unwrap();
    let mut config = config(&dir);
    config.engine_workers = 1;
    config.engine_speed = speed;
    TestServer::with_config(dir, config).await
}

async fn queued(server: &TestServer, service: &str) -> Vec<Value> {
    let reply = server
        .get(&format!("/api/service/{service}/deploymentQueue"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["results"].as_array().unwrap().clone()
}

fn steps(status: &Value) -> Vec<(String, String)> {
    status["steps"]["details"]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .map(|step| {
                    (
                        step["step_name"].as_str().unwrap().to_string(),
                        step["status"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn queue_positions_stay_consistent_under_50_requests_at_once() {
    let server = one_worker(1.0).await;
    let (_, environment, first) = server.hierarchy().await;
    let mut services = vec![first];
    for at in 1..50 {
        services.push(server.application(&environment, &format!("app-{at}")).await);
    }
    let deploys = services.iter().map(|service| {
        let server = &server;
        async move {
            server
                .post(&format!("/api/application/{service}/deploy"), json!({}))
                .await
                .status
        }
    });
    let answers = futures::future::join_all(deploys).await;
    assert!(answers.iter().all(|status| *status == StatusCode::ACCEPTED));
    // The one worker takes an action as soon as it gets the writer, which the 50 requests held
    // in turn: on a loaded machine that can be a little after the last answer.
    for _ in 0..200 {
        let busy = futures::future::join_all(services.iter().map(|s| queued(&server, s))).await;
        if busy
            .iter()
            .flatten()
            .any(|entry| entry["waiting_for"]["busy_workers"] == 1)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }

    let read = || async {
        let mut positions = std::collections::HashMap::new();
        for service in &services {
            for entry in queued(&server, service).await {
                let wait = &entry["waiting_for"];
                assert_eq!(wait["workers"], 1);
                assert_eq!(wait["busy_workers"], 1);
                assert_eq!(wait["ahead_in_environment"], wait["ahead"]);
                assert_eq!(
                    entry["position"].as_i64().unwrap(),
                    wait["ahead"].as_i64().unwrap() + 1
                );
                assert_eq!(entry["identifier"]["service_id"], service.as_str());
                assert_eq!(entry["status_details"]["status"], "QUEUED");
                positions.insert(service.clone(), entry["position"].as_i64().unwrap());
            }
        }
        positions
    };
    let before = read().await;
    // One runs; the 49 others wait, each at its own place: 1 to 49.
    let mut places: Vec<i64> = before.values().copied().collect();
    places.sort();
    assert_eq!(places, (1..=49).collect::<Vec<_>>());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let after = read().await;
    for (service, position) in &after {
        assert!(*position <= before[service], "a position went up");
    }
}

#[tokio::test]
async fn a_cancel_inside_any_step_ends_the_action_with_no_later_step() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let plan = [
        "REGISTRY_CREATE_REPOSITORY",
        "GIT_CLONE",
        "BUILD_QUEUEING",
        "BUILD",
        "DEPLOYMENT_QUEUEING",
        "DEPLOYMENT",
        "ROUTER_DEPLOYMENT",
    ];
    for (at, step) in plan.iter().enumerate() {
        let service = server
            .application(&environment, &format!("hangs-{at}"))
            .await;
        server
            .post(
                &format!("/api/application/{service}/environmentVariable"),
                json!({"key": "PLATFORM_HANG_AT", "value": step}),
            )
            .await;
        server
            .post(&format!("/api/application/{service}/deploy"), json!({}))
            .await;
        // The step starts and would never end on its own.
        let status_path = format!("/api/application/{service}/status");
        let mut running = false;
        for _ in 0..500 {
            let status = server.get(&status_path).await.body;
            let log = server
                .get(&format!("/api/application/{service}/log?tail=1"))
                .await
                .body;
            let started = log["results"][0]["message"]
                .as_str()
                .is_some_and(|line| line.ends_with(": started."));
            if steps(&status).len() == at && started {
                running = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(running, "{step} never started");
        let canceling = server
            .post(&format!("/api/application/{service}/cancel"), json!({}))
            .await;
        assert_eq!(canceling.status, StatusCode::ACCEPTED, "{}", canceling.body);
        assert_eq!(canceling.body["state"], "CANCELING");
        let status = server.settled(&status_path).await;
        assert_eq!(status["state"], "CANCELED", "{step}");
        let done = steps(&status);
        assert_eq!(done.len(), at + 1, "{step}: a later step ran: {done:?}");
        assert_eq!(done[at], (step.to_string(), "CANCEL".to_string()));
    }
}

#[tokio::test]
async fn a_cancel_in_the_queue_ends_the_action_before_any_step() {
    let server = one_worker(common::FAST).await;
    let (_, environment, busy) = server.hierarchy().await;
    server
        .post(
            &format!("/api/application/{busy}/environmentVariable"),
            json!({"key": "PLATFORM_HANG_AT", "value": "BUILD"}),
        )
        .await;
    server
        .post(&format!("/api/application/{busy}/deploy"), json!({}))
        .await;
    let waiting = server.application(&environment, "waiting").await;
    server
        .post(&format!("/api/application/{waiting}/deploy"), json!({}))
        .await;
    let place = queued(&server, &waiting).await;
    assert_eq!(place[0]["position"], 1);
    server
        .post(&format!("/api/application/{waiting}/cancel"), json!({}))
        .await;
    let status = server.settled_status(&waiting).await;
    assert_eq!(status["state"], "CANCELED");
    assert_eq!(
        steps(&status),
        [(
            "REGISTRY_CREATE_REPOSITORY".to_string(),
            "CANCEL".to_string()
        )]
    );
    assert!(queued(&server, &waiting).await.is_empty());
    // The one holding the worker still holds it.
    let running = server
        .get(&format!("/api/application/{busy}/status"))
        .await
        .body;
    assert_eq!(running["state"], "BUILDING");
}

#[tokio::test]
async fn an_action_past_its_timeout_ends_in_error_saying_so() {
    let server = one_worker(10.0).await;
    let (_, environment, _) = server.hierarchy().await;
    let repository = server.helm_repository().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/helm"),
            json!({"name": "cache", "timeout_sec": 5,
                   "source": {"repository": {"repository_id": repository, "chart_name": "redis", "chart_version": "19.0.0"}}}),
        )
        .await;
    let helm = created.body["id"].as_str().unwrap();
    server
        .post(
            &format!("/api/helm/{helm}/environmentVariable"),
            json!({"key": "PLATFORM_HANG_AT", "value": "DEPLOYMENT"}),
        )
        .await;
    server
        .post(&format!("/api/helm/{helm}/deploy"), json!({}))
        .await;
    let status = server.settled(&format!("/api/helm/{helm}/status")).await;
    assert_eq!(status["state"], "DEPLOYMENT_ERROR");
    let log = server.get(&format!("/api/helm/{helm}/log")).await.body;
    let said = log["results"].as_array().unwrap().iter().any(|line| {
        line["message"] == "Deployment: the deployment ran past its timeout of 5 s and was stopped."
    });
    assert!(said, "{log}");
}

#[tokio::test]
async fn an_engine_sped_up_past_its_own_work_still_deploys_within_the_timeout() {
    // At this speed half an hour lasts two microseconds of the clock: less than the engine's
    // own work between two steps, which must not count against the action's time.
    let server = one_worker(1e9).await;
    let (_, _, application) = server.hierarchy().await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    let status = server.settled_status(&application).await;
    assert_eq!(status["state"], "DEPLOYED", "{status}");
}
