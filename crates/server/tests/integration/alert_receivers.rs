//! Alert receivers at /alert-receivers: required fields, a webhook URL never returned, listed by
//! organization.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::json;

#[tokio::test]
async fn a_receiver_is_created_listed_updated_and_deleted() {
    let server = TestServer::new().await;
    let org = &server.organization_id;
    let created = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": org, "name": "ops", "description": "Ops channel", "type": "SLACK",
                   "send_resolved": false, "webhook_url": "https://hooks.slack.com/services/T/B/secret-part",
                   "severity": "CRITICAL"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["type"], "SLACK");
    assert_eq!(created.body["severity"], "CRITICAL");
    assert!(created.body["owner"].is_null());
    let id = created.body["id"].as_str().unwrap();
    let one = format!("/api/alert-receivers/{id}");

    for list in [
        server.get("/api/alert-receivers").await,
        server
            .get(&format!("/api/alert-receivers?organization_id={org}"))
            .await,
    ] {
        assert_eq!(list.status, StatusCode::OK);
        assert_eq!(list.body["results"][0]["id"], id);
    }
    let auth = format!("Token {}", server.token);
    let updated = server
        .call(
            Method::PUT,
            &one,
            Some(&auth),
            Some(&json!({"name": "ops-eu", "description": "EU ops", "type": "SLACK", "send_resolved": true}).to_string()),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["name"], "ops-eu");
    assert_eq!(updated.body["send_resolved"], true);
    for body in [&created.body, &updated.body, &server.get(&one).await.body] {
        assert!(!body.to_string().contains("secret-part"), "{body}");
        assert!(body.get("webhook_url").is_none());
    }
    let deleted = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_error(&server.get(&one).await, StatusCode::NOT_FOUND, "NOT_FOUND");
}

#[tokio::test]
async fn receiver_rules_name_the_field() {
    let server = TestServer::new().await;
    let org = &server.organization_id;
    let missing = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": org, "name": "x"}),
        )
        .await;
    assert_invalid_fields(&missing, &["description"]);
    let wrong = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": uuid::Uuid::new_v4(), "name": "x", "description": "d", "type": "SLACK",
                   "send_resolved": true, "webhook_url": "not a uri"}),
        )
        .await;
    assert_invalid_fields(&wrong, &["organization_id", "webhook_url"]);
    let email = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": org, "name": "x", "description": "d", "type": "EMAIL",
                   "send_resolved": true, "to": "ops", "from": "a@example.com",
                   "smarthost": "smtp.example.com", "require_tls": true}),
        )
        .await;
    assert_invalid_fields(&email, &["to", "smarthost", "auth_password"]);
    let kind = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": org, "name": "x", "description": "d", "type": "PAGER",
                   "send_resolved": true, "webhook_url": "https://e.example"}),
        )
        .await;
    assert_invalid_fields(&kind, &["type"]);
    let foreign = server
        .get(&format!(
            "/api/alert-receivers?organization_id={}",
            uuid::Uuid::new_v4()
        ))
        .await;
    assert_error(&foreign, StatusCode::NOT_FOUND, "NOT_FOUND");
    let malformed = server
        .get("/api/alert-receivers?organization_id=nope")
        .await;
    assert_invalid_fields(&malformed, &["organization_id"]);
}
