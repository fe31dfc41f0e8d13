//! Organization webhooks: their rules, a secret that is never returned, ADMIN only.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

fn path(server: &TestServer) -> String {
    format!("/api/organization/{}/webhook", server.organization_id)
}

#[tokio::test]
async fn a_webhook_keeps_its_secret_to_itself() {
    let server = TestServer::new().await;
    let created = server
        .post(
            &path(&server),
            json!({"kind": "STANDARD", "target_url": "https://hooks.example/in", "target_secret": "s1gn",
                   "description": "Deployments to the chat bridge",
                   "events": ["DEPLOYMENT_STARTED", "DEPLOYMENT_FAILURE"],
                   "project_names_filter": ["shop*"], "environment_types_filter": ["PRODUCTION"]}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let hook = &created.body;
    assert_eq!(hook["target_secret_set"], true);
    assert_eq!(hook["enabled"], true);
    assert_eq!(
        hook["events"],
        json!(["DEPLOYMENT_STARTED", "DEPLOYMENT_FAILURE"])
    );
    assert_eq!(hook["environment_types_filter"], json!(["PRODUCTION"]));
    assert!(hook.get("target_secret").is_none());
    let one = format!("{}/{}", path(&server), hook["id"].as_str().unwrap());
    assert_eq!(&server.get(&one).await.body, hook);

    // Updating without the secret keeps it; the answer still says it is set.
    let auth = format!("Token {}", server.token);
    let update = |body: Value| {
        let (server, one, auth) = (&server, one.clone(), auth.clone());
        async move {
            server
                .call(Method::PUT, &one, Some(&auth), Some(&body.to_string()))
                .await
        }
    };
    let updated = update(
        json!({"target_url": "https://hooks.example/v2", "enabled": false,
                                "events": ["DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["target_secret_set"], true);
    assert_eq!(updated.body["enabled"], false);
    assert_eq!(updated.body["target_url"], "https://hooks.example/v2");
    for body in [
        &created.body,
        &updated.body,
        &server.get(&path(&server)).await.body,
    ] {
        assert!(!body.to_string().contains("s1gn"), "{body}");
    }
    // An empty secret removes it.
    let cleared = update(
        json!({"target_url": "https://hooks.example/v2", "target_secret": "",
                                "events": ["DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.body);
    assert_eq!(cleared.body["target_secret_set"], false);
    assert_eq!(server.get(&one).await.body["target_secret_set"], false);

    let deleted = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_error(&server.get(&one).await, StatusCode::NOT_FOUND, "NOT_FOUND");
}

#[tokio::test]
async fn webhook_rules_name_the_field() {
    let server = TestServer::new().await;
    let webhooks = path(&server);
    let post = |body: Value| server.post(&webhooks, body);
    assert_invalid_fields(
        &post(json!({"target_url": "hooks.example", "events": ["DEPLOYMENT_STARTED"]})).await,
        &["target_url"],
    );
    let slack = post(json!({"kind": "SLACK", "target_url": "https://hooks.example/x", "events": ["DEPLOYMENT_STARTED"]})).await;
    assert_invalid_fields(&slack, &["target_url"]);
    assert!(slack.body["fields"][0]["message"]
        .as_str()
        .unwrap()
        .contains("hooks.slack.com"));
    let chat = post(
        json!({"kind": "SLACK", "target_url": "https://hooks.slack.com/services/T0/B0/X",
                           "events": ["DEPLOYMENT_STARTED"]}),
    )
    .await;
    assert_eq!(chat.status, StatusCode::CREATED, "{}", chat.body);
    assert_eq!(chat.body["target_secret_set"], false);
    assert_invalid_fields(
        &post(json!({"target_url": "https://e.example", "events": ["DEPLOYMENT_SUCCESS"]})).await,
        &["events[0]"],
    );
    assert_invalid_fields(
        &post(json!({"target_url": "https://e.example", "events": []})).await,
        &["events"],
    );
    assert_invalid_fields(
        &post(
            json!({"target_url": "https://e.example", "events": ["DEPLOYMENT_STARTED"],
                     "environment_types_filter": ["QA"]}),
        )
        .await,
        &["environment_types_filter[0]"],
    );
    assert_invalid_fields(
        &post(
            json!({"target_url": "https://e.example", "events": ["DEPLOYMENT_STARTED"],
                     "description": "d".repeat(256)}),
        )
        .await,
        &["description"],
    );
}

#[tokio::test]
async fn only_admins_see_webhooks() {
    let server = TestServer::new().await;
    let write = format!("Token {}", server.token_with_role("WRITE").await);
    let reply = server
        .call(Method::GET, &path(&server), Some(&write), None)
        .await;
    assert_error(&reply, StatusCode::FORBIDDEN, "FORBIDDEN");
}
