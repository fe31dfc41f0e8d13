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

/// A one-worker server whose worker an application's deployment holds (it never ends its
/// build): `(server, its environment, that application)`.
async fn worker_held() -> (TestServer, String, String) {
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
    // Held only once it reaches its build: a cancel before finds it at an earlier step.
    let status_path = format!("/api/application/{busy}/status");
    for _ in 0..500 {
        if server.get(&status_path).await.body["state"] == "BUILDING" {
            return (server, environment, busy);
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the held deployment never reached its build");
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
            // The step's start, or after it what the advanced settings gave it.
            let log = server.service_log(&service, None, Some(2)).await;
            let started = log["results"].as_array().unwrap().iter().any(|line| {
                line["message"]
                    .as_str()
                    .is_some_and(|line| line.ends_with(": started."))
            });
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
    let (server, environment, busy) = worker_held().await;
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
    let log = server.service_log(helm, None, None).await;
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

/// The production document's cancels: a deployment request waiting in the queue canceled by its
/// id never starts; an environment's deployment canceled inside a step ends CANCELED there, no
/// later step run; the queue of the environment lists what waits.
#[tokio::test]
async fn the_documents_cancels_stop_a_waiting_request_and_a_running_environment() {
    let (server, environment, busy) = worker_held().await;
    let waiting = server.application(&environment, "waiting").await;
    let asked = server
        .post(&format!("/api/application/{waiting}/deploy"), json!({}))
        .await;
    let request = asked.body["deployment_request_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(queued(&server, &waiting).await.len(), 1);
    let listed = server
        .get(&format!("/api/environment/{environment}/deploymentQueue"))
        .await
        .body;
    assert_eq!(
        listed["results"][0]["identifier"]["deployment_request_id"],
        request.as_str()
    );
    assert_eq!(listed["results"][0]["trigger_action"], "DEPLOY");
    assert_eq!(
        listed["results"][0]["stages"][0]["services"][0]["identifier"]["service_id"],
        waiting.as_str()
    );

    let cancel = format!("/api/deploymentQueue/{request}/cancelDeployment");
    let canceled = server.post(&cancel, json!({})).await;
    assert_eq!(canceled.status, StatusCode::ACCEPTED, "{}", canceled.body);
    let status = server.settled_status(&waiting).await;
    assert_eq!(status["state"], "CANCELED");
    assert_eq!(steps(&status).len(), 1, "it never started: {status}");
    assert_eq!(
        server.post(&cancel, json!({})).await.status,
        StatusCode::CONFLICT
    );
    // The running one is no request in the queue: the environment's deployment is canceled.
    let running = server
        .get(&format!("/api/application/{busy}/status"))
        .await
        .body;
    let running_request = running["deployment_request_id"].as_str().unwrap();
    assert_eq!(
        server
            .post(
                &format!("/api/deploymentQueue/{running_request}/cancelDeployment"),
                json!({})
            )
            .await
            .status,
        StatusCode::CONFLICT
    );
    let environment_cancel = format!("/api/environment/{environment}/cancelDeployment");
    let stopping = server.post(&environment_cancel, json!({})).await;
    assert_eq!(stopping.status, StatusCode::ACCEPTED, "{}", stopping.body);
    assert_eq!(stopping.body["id"], environment.as_str());
    let status = server.settled_status(&busy).await;
    assert_eq!(status["state"], "CANCELED");
    let done = steps(&status);
    assert_eq!(
        done.last().unwrap(),
        &("BUILD".to_string(), "CANCEL".to_string()),
        "{done:?}"
    );
    assert!(
        !done.iter().any(|(step, _)| step == "DEPLOYMENT"),
        "{done:?}"
    );
    assert_eq!(
        server.post(&environment_cancel, json!({})).await.status,
        StatusCode::CONFLICT
    );
}

/// A redeploy deploys again the commit the service runs, not the branch's newer one; a service
/// never deployed has nothing to redeploy; an environment's redeploy takes its deployed services.
#[tokio::test]
async fn a_redeploy_runs_the_same_version_again() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let redeploy = format!("/api/application/{application}/redeploy");
    assert_eq!(
        server.post(&redeploy, json!({})).await.status,
        StatusCode::CONFLICT
    );
    let (repository, url) = common::repository();
    let moved = server
        .put(
            &format!("/api/application/{application}"),
            json!({"name": "web", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    let commits = server
        .get(&format!("/api/application/{application}/commit"))
        .await
        .body;
    let older = commits["results"][1]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();
    server
        .post(
            &format!("/api/application/{application}/deploy"),
            json!({"git_commit_id": older}),
        )
        .await;
    server.settled_status(&application).await;
    let again = server.post(&redeploy, json!({})).await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "{}", again.body);
    server.settled_status(&application).await;
    let history = server
        .get(&format!(
            "/api/application/{application}/deploymentHistoryV2"
        ))
        .await
        .body;
    assert_eq!(
        history["results"][0]["details"]["commit"]["git_commit_id"],
        older.as_str(),
        "{history}"
    );
    let whole = server
        .post(
            &format!("/api/environment/{environment}/redeploy"),
            json!({}),
        )
        .await;
    assert_eq!(whole.status, StatusCode::ACCEPTED, "{}", whole.body);
    let status = server.settled_status(&application).await;
    assert_eq!(status["state"], "DEPLOYED");
    let history = server
        .get(&format!(
            "/api/application/{application}/deploymentHistoryV2"
        ))
        .await
        .body;
    assert_eq!(history["results"].as_array().unwrap().len(), 3);
    assert_eq!(
        history["results"][0]["details"]["commit"]["git_commit_id"],
        older.as_str()
    );
    drop(repository);
}
