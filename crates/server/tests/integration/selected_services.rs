//! Several services at once: deploy, restart, stop and delete a selection through the
//! environment's calls. Each service named is checked before any starts; a refusal names each
//! service and why, and starts nothing; a service failing at run time fails alone.

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, TestServer};
use serde_json::{json, Value};

async fn state(server: &TestServer, application: &str) -> Value {
    server
        .get(&format!("/api/application/{application}/status"))
        .await
        .body["state"]
        .clone()
}

#[tokio::test]
async fn a_selection_is_deployed_restarted_and_stopped_together() {
    let server = TestServer::new().await;
    let (_, environment, web) = server.hierarchy().await;
    let api = server.application(&environment, "api").await;
    let worker = server.application(&environment, "worker").await;
    let idle = server.application(&environment, "idle").await;
    let calls = format!("/api/environment/{environment}/service");

    let deployed = server
        .post(
            &format!("{calls}/deploy"),
            json!({"applications": [{"application_id": web}, {"application_id": api}, {"application_id": worker}]}),
        )
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    assert_eq!(deployed.body["id"], environment.as_str());
    for service in [&web, &api, &worker] {
        assert_eq!(server.settled_status(service).await["state"], "DEPLOYED");
    }
    assert_eq!(state(&server, &idle).await, "READY");

    // One of the three fails at its restart; the two others restart.
    server
        .post(
            &format!("/api/application/{worker}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "RESTART"}),
        )
        .await;
    let restarted = server
        .post(
            &format!("{calls}/restart-service"),
            json!({"application_ids": [web, api, worker]}),
        )
        .await;
    assert_eq!(restarted.status, StatusCode::ACCEPTED, "{}", restarted.body);
    assert_eq!(restarted.body["deployment_requests_count"], 3);
    assert_eq!(server.settled_status(&web).await["state"], "RESTARTED");
    assert_eq!(server.settled_status(&api).await["state"], "RESTARTED");
    assert_eq!(
        server.settled_status(&worker).await["state"],
        "RESTART_ERROR"
    );

    // A stop of a service that runs nothing is refused with its name, and nothing stops.
    let refused = server
        .post(
            &format!("{calls}/stop"),
            json!({"application_ids": [web, idle]}),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert_eq!(refused.body["fields"][0]["field"], "application_ids[1]");
    assert!(refused.body["fields"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("idle: "));
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .starts_with("Nothing was started"));
    assert_eq!(state(&server, &web).await, "RESTARTED");
    let stopped = server
        .post(
            &format!("{calls}/stop"),
            json!({"application_ids": [web, api]}),
        )
        .await;
    assert_eq!(stopped.status, StatusCode::OK, "{}", stopped.body);
    assert_eq!(server.settled_status(&web).await["state"], "STOPPED");
    assert_eq!(server.settled_status(&api).await["state"], "STOPPED");
}

#[tokio::test]
async fn a_selection_is_checked_whole_before_anything_starts() {
    let server = TestServer::new().await;
    let (project, environment, web) = server.hierarchy().await;
    let api = server.application(&environment, "api").await;
    let elsewhere = server.environment(&project, "other").await;
    let stranger = server.application(&elsewhere, "stranger").await;
    let calls = format!("/api/environment/{environment}/service");

    for (body, fields) in [
        (json!({}), vec!["services"]),
        (
            json!({"application_ids": [web, web]}),
            vec!["application_ids[1]"],
        ),
        (json!({"container_ids": [web]}), vec!["container_ids[0]"]),
        (
            json!({"application_ids": [api, stranger]}),
            vec!["application_ids[1]"],
        ),
    ] {
        assert_invalid_fields(
            &server.post(&format!("{calls}/delete"), body).await,
            &fields,
        );
    }
    // A deploy whose one service asks for what it cannot take starts none.
    let bad = server
        .post(
            &format!("{calls}/deploy"),
            json!({"applications": [{"application_id": web}, {"application_id": api, "git_commit_id": "main"}]}),
        )
        .await;
    assert_invalid_fields(&bad, &["applications[1].git_commit_id"]);
    assert_eq!(state(&server, &web).await, "READY");

    // Delete: refused while one runs, then both at once.
    server
        .post(&format!("/api/application/{web}/deploy"), json!({}))
        .await;
    let busy = server
        .post(
            &format!("{calls}/delete"),
            json!({"application_ids": [api, web]}),
        )
        .await;
    assert_eq!(busy.status, StatusCode::CONFLICT, "{}", busy.body);
    assert_eq!(busy.body["fields"][0]["field"], "application_ids[1]");
    assert_eq!(
        server.get(&format!("/api/application/{api}")).await.status,
        StatusCode::OK
    );
    server.settled_status(&web).await;
    let deleted = server
        .post(
            &format!("{calls}/delete"),
            json!({"application_ids": [api, web]}),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    for gone in [&api, &web] {
        assert_eq!(
            server.get(&format!("/api/application/{gone}")).await.status,
            StatusCode::NOT_FOUND
        );
    }
}
