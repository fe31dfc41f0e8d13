//! Several organizations on one server, none in another's way: the engine's workers go to each
//! organization in turn, and a queued action's place counts what its organization sees plus a
//! count of the rest.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use tempfile::TempDir;

use crate::common::{config, TestServer};

/// Another organization on `server`, made by a person, and their `Authorization` (its owner
/// and admin).
pub async fn another_organization(server: &TestServer, name: &str) -> (String, String) {
    let authorization = crate::common::oidc::shared().bearer(&format!("admin@{name}.example"));
    let made = post_as(
        server,
        &authorization,
        "/api/organization",
        json!({"name": name, "plan": "FREE"}),
    )
    .await;
    (made["id"].as_str().unwrap().to_string(), authorization)
}

/// `POST path` as `authorization`: the answer's body, which must be a success.
async fn post_as(server: &TestServer, authorization: &str, path: &str, body: Value) -> Value {
    let reply = server
        .call(
            Method::POST,
            path,
            Some(authorization),
            Some(&body.to_string()),
        )
        .await;
    assert!(reply.status.is_success(), "{path}: {}", reply.body);
    reply.body
}

/// An application of a new project and environment of the organization `authorization` is of.
async fn applications(
    server: &TestServer,
    authorization: &str,
    organization: &str,
    count: usize,
) -> Vec<String> {
    let project = post_as(
        server,
        authorization,
        &format!("/api/organization/{organization}/project"),
        json!({"name": "queued"}),
    )
    .await;
    let environment = post_as(
        server,
        authorization,
        &format!(
            "/api/project/{}/environment",
            project["id"].as_str().unwrap()
        ),
        json!({"name": "production"}),
    )
    .await;
    let environment = environment["id"].as_str().unwrap().to_string();
    let mut ids = Vec::new();
    for n in 0..count {
        let created = post_as(
            server,
            authorization,
            &format!("/api/environment/{environment}/application"),
            json!({"name": format!("app{n}"), "git_repository": {"url": "https://git.example.com/a/b.git"}}),
        )
        .await;
        ids.push(created["id"].as_str().unwrap().to_string());
    }
    ids
}

async fn queued_wait(server: &TestServer, authorization: &str, application: &str) -> Value {
    let reply = server
        .call(
            Method::GET,
            &format!("/api/service/{application}/deploymentQueue"),
            Some(authorization),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["results"][0].clone()
}

#[tokio::test]
async fn a_busy_organization_does_not_keep_another_waiting_behind_all_its_actions() {
    let dir = TempDir::new().unwrap();
    let mut config = config(&dir);
    config.engine_workers = 1;
    let server = TestServer::with_config(dir, config).await;
    let busy_auth = server.auth();
    let busy_org = server.organization_id.clone();
    let busy = applications(&server, &busy_auth, &busy_org, 6).await;
    // The one worker held by the busy organization's first action.
    post_as(
        &server,
        &busy_auth,
        &format!("/api/application/{}/environmentVariable", busy[0]),
        json!({"key": "PLATFORM_HANG_AT", "value": "BUILD"}),
    )
    .await;
    for application in &busy {
        post_as(
            &server,
            &busy_auth,
            &format!("/api/application/{application}/deploy"),
            json!({}),
        )
        .await;
    }
    let (other_org, other_auth) = another_organization(&server, "quiet").await;
    let other = applications(&server, &other_auth, &other_org, 1).await;
    post_as(
        &server,
        &other_auth,
        &format!("/api/application/{}/deploy", other[0]),
        json!({}),
    )
    .await;

    let mut waited = Value::Null;
    for _ in 0..500 {
        waited = queued_wait(&server, &other_auth, &other[0]).await;
        if waited["waiting_for"]["ahead_elsewhere"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // One of the busy organization's five waiting goes first (its turn came first), not five.
    assert_eq!(waited["position"], 2, "{waited}");
    assert_eq!(waited["waiting_for"]["ahead"], 0, "{waited}");
    assert_eq!(waited["waiting_for"]["ahead_elsewhere"], 1, "{waited}");
    // What the quiet organization reads names nothing of the busy one's.
    for named in [busy[1].as_str(), "app1", "app2", busy_org.as_str()] {
        assert!(!waited.to_string().contains(named), "{waited}");
    }

    let last = queued_wait(&server, &busy_auth, &busy[5]).await;
    assert_eq!(last["waiting_for"]["ahead"], 4, "{last}");
    assert_eq!(last["waiting_for"]["ahead_elsewhere"], 1, "{last}");
    assert_eq!(last["position"], 6, "{last}");
}
