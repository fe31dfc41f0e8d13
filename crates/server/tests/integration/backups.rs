//! A database's backups: refused while the database is not running, taken by the engine
//! (queued, executing, ready) with its step, one at a time, deleted once taken, a READ token
//! refused, and the taking in the audit log.

use crate::common::{assert_error, assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

async fn backups(server: &TestServer, database: &str) -> Vec<Value> {
    let listed = server
        .get(&format!("/api/database/{database}/backup"))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    listed.body["results"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_backup_is_taken_by_the_engine_listed_and_deleted() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await;
    let database = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/database/{database}/backup");
    let request = json!({"name": "before-v2", "message": "before the migration to v2"});

    let not_deployed = server.post(&path, request.clone()).await;
    assert_error(
        &not_deployed,
        StatusCode::BAD_REQUEST,
        "DATABASE_NOT_RUNNING",
    );
    assert!(backups(&server, &database).await.is_empty());

    let deployed = server
        .post(&format!("/api/database/{database}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    server
        .settled(&format!("/api/database/{database}/status"))
        .await;

    let nameless = server
        .post(&path, json!({"name": " ", "message": "x"}))
        .await;
    assert_invalid_fields(&nameless, &["name"]);
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let refused = server
        .call(
            Method::POST,
            &path,
            Some(&reader),
            Some(&request.to_string()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);

    let taken = server.post(&path, request.clone()).await;
    assert_eq!(taken.status, StatusCode::CREATED, "{}", taken.body);
    assert_eq!(taken.body["status"]["state"], "QUEUED");
    let second = server.post(&path, request.clone()).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{}", second.body);
    let id = taken.body["id"].as_str().unwrap().to_string();
    // A backup being taken is not deleted.
    let early = server
        .call(
            Method::DELETE,
            &format!("{path}/{id}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);

    let mut ready = Value::Null;
    for _ in 0..500 {
        let listed = backups(&server, &database).await;
        if listed[0]["status"]["state"] == "READY" {
            ready = listed[0].clone();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(ready["name"], "before-v2", "never ready");
    assert_eq!(ready["status"]["status_details"]["status"], "SUCCESS");
    assert_eq!(
        ready["status"]["steps"]["details"][0]["step_name"],
        "EXECUTING"
    );

    let events = server
        .get(&format!(
            "/api/organization/{}/events?pageSize=100",
            server.organization_id
        ))
        .await
        .body;
    assert!(
        events["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|event| event["event_type"] == "EXPORT" && event["target_name"] == "orders"),
        "{events}"
    );

    let removed = server
        .call(
            Method::DELETE,
            &format!("{path}/{id}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{}", removed.body);
    assert!(backups(&server, &database).await.is_empty());
}
