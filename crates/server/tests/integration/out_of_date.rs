//! A deployed service is out of date after each kind of change that would alter what it runs (its
//! settings, its advanced settings, a variable at any scope that reaches it, a new commit on the
//! branch of a service that does not deploy on push), and up to date again once deployed; the audit
//! log answers what changed since its deployment began.

use std::time::Duration;

use crate::common;

use axum::http::StatusCode;
use common::TestServer;
use serde_json::{json, Value};
use tempfile::TempDir;

async fn deployment_status(server: &TestServer, application: &str) -> Value {
    server
        .get(&format!("/api/application/{application}/status"))
        .await
        .body["service_deployment_status"]
        .clone()
}

async fn deploy(server: &TestServer, application: &str) {
    let deployed = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    let status = server.settled_status(application).await;
    assert_eq!(
        status["service_deployment_status"], "UP_TO_DATE",
        "{status}"
    );
}

#[tokio::test]
async fn each_kind_of_change_makes_a_deployed_service_out_of_date_until_it_is_deployed() {
    let dir = TempDir::new().unwrap();
    let mut config = common::config(&dir);
    config.git_watch_every = Duration::from_millis(20);
    let server = TestServer::with_config(dir, config).await;
    let (project, environment) = server.staging().await;
    let elsewhere = server.environment(&project, "production").await;
    let (repository, url) = common::repository();
    let application = server
        .create(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    let other = server.application(&elsewhere, "other").await;
    assert_eq!(
        deployment_status(&server, &application).await,
        "NEVER_DEPLOYED"
    );
    deploy(&server, &application).await;
    deploy(&server, &other).await;
    let began = server
        .get(&format!(
            "/api/application/{application}/deploymentHistoryV2"
        ))
        .await
        .body["results"][0]["auditing_data"]["created_at"]
        .as_str()
        .unwrap()
        .to_string();

    // Its settings: the audit log holds the field's value before and after.
    let path = format!("/api/application/{application}");
    let edited =
        json!({"name": "web", "memory": 1024, "git_repository": {"url": url, "branch": "main"}});
    let saved = server.put(&path, edited).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(
        deployment_status(&server, &application).await,
        "OUT_OF_DATE"
    );
    let since = server
        .get(&format!(
            "/api/organization/{}/events?targetId={application}&fromTimestamp={began}",
            server.organization_id
        ))
        .await;
    assert_eq!(since.status, StatusCode::OK, "{}", since.body);
    let update = since.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|event| event["event_type"] == "UPDATE")
        .unwrap_or_else(|| panic!("no update since the deployment: {}", since.body));
    let before: Value = serde_json::from_str(update["original_change"].as_str().unwrap()).unwrap();
    let after: Value = serde_json::from_str(update["change"].as_str().unwrap()).unwrap();
    assert_eq!(
        (before["memory"].as_i64(), after["memory"].as_i64()),
        (Some(512), Some(1024))
    );
    deploy(&server, &application).await;

    let changes = [
        (
            format!("/api/application/{application}/advancedSettings"),
            json!({"build.timeout_max_sec": 600}),
        ),
        (
            format!("/api/application/{application}/environmentVariable"),
            json!({"key": "OWN", "value": "1"}),
        ),
        (
            format!("/api/environment/{environment}/environmentVariable"),
            json!({"key": "SHARED", "value": "1"}),
        ),
        (
            format!("/api/project/{project}/environmentVariable"),
            json!({"key": "EVERYWHERE", "value": "1"}),
        ),
    ];
    for (index, (path, body)) in changes.into_iter().enumerate() {
        let reply = if path.ends_with("advancedSettings") {
            server.put(&path, body).await
        } else {
            server.post(&path, body).await
        };
        assert!(reply.status.is_success(), "{path}: {}", reply.body);
        assert_eq!(
            deployment_status(&server, &application).await,
            "OUT_OF_DATE",
            "after {path}"
        );
        // An environment's variable does not reach another environment's services; a project's does.
        let reaches_other = index == 3;
        assert_eq!(
            deployment_status(&server, &other).await,
            if reaches_other {
                "OUT_OF_DATE"
            } else {
                "UP_TO_DATE"
            },
            "the other environment's service after {path}"
        );
        deploy(&server, &application).await;
    }

    // A new commit on the branch of a service that does not deploy on push.
    platform_server::git::commit(repository.path(), "third", &[("a.txt", "3")]).unwrap();
    let mut flipped = false;
    for _ in 0..500 {
        if deployment_status(&server, &application).await == "OUT_OF_DATE" {
            flipped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        flipped,
        "a new commit on the branch left the service up to date"
    );
    deploy(&server, &application).await;
    // Deployed at the branch's tip, it stays up to date through the next rounds.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(deployment_status(&server, &application).await, "UP_TO_DATE");
}
