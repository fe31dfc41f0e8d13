//! Overload is answered as such: a write that cannot have the database's lock in time answers
//! 503 with `Retry-After`, having changed nothing, never 500.

use std::time::Duration;

use axum::http::header::RETRY_AFTER;
use axum::http::StatusCode;
use serde_json::json;
use tempfile::TempDir;

use crate::common::{assert_error, config, TestServer};

#[tokio::test]
async fn a_write_kept_from_the_database_answers_503_with_retry_after_and_changes_nothing() {
    let dir = TempDir::new().unwrap();
    let mut config = config(&dir);
    config.busy_timeout = Duration::from_millis(200);
    let server = TestServer::with_config(dir, config).await;
    let projects = format!("/api/organization/{}/project", server.organization_id);

    // Another writer holds SQLite's one write lock for longer than a write waits for it.
    let mut holder = server.state.db.acquire().await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut *holder)
        .await
        .unwrap();
    let refused = server.post(&projects, json!({ "name": "kept out" })).await;
    assert_error(&refused, StatusCode::SERVICE_UNAVAILABLE, "SERVICE_BUSY");
    let wait: u64 = refused.headers[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(wait >= 1, "Retry-After {wait}");
    // Reads go on meanwhile (the write-ahead log).
    assert_eq!(server.get(&projects).await.status, StatusCode::OK);
    sqlx::query("ROLLBACK").execute(&mut *holder).await.unwrap();
    drop(holder);

    let listed = server.get(&projects).await;
    assert_eq!(
        listed.body["results"],
        json!([]),
        "the refused write left a project"
    );
    // The same request, sent again as Retry-After says, is done.
    let created = server.post(&projects, json!({ "name": "kept out" })).await;
    assert!(created.status.is_success(), "{:?}", created.body);
}

#[tokio::test]
async fn an_organization_whose_queue_is_full_is_asked_to_come_back() {
    let dir = TempDir::new().unwrap();
    let mut config = config(&dir);
    config.engine_workers = 1;
    config.queue_limit = 2;
    let server = TestServer::with_config(dir, config).await;
    let (_, environment, running) = server.hierarchy().await;
    server
        .post(
            &format!("/api/application/{running}/environmentVariable"),
            json!({"key": "PLATFORM_HANG_AT", "value": "BUILD"}),
        )
        .await;
    let deploy = |application: String| {
        let server = &server;
        async move {
            server
                .post(&format!("/api/application/{application}/deploy"), json!({}))
                .await
        }
    };
    assert_eq!(deploy(running.clone()).await.status, StatusCode::ACCEPTED);
    // The one worker holds it; two more wait, which is as many as the organization may have.
    let status_path = format!("/api/application/{running}/status");
    for _ in 0..500 {
        if server.get(&status_path).await.body["state"] == "BUILDING" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for name in ["second", "third"] {
        let waiting = server.application(&environment, name).await;
        assert_eq!(deploy(waiting).await.status, StatusCode::ACCEPTED);
    }
    let refused_app = server.application(&environment, "fourth").await;
    let refused = deploy(refused_app.clone()).await;
    assert_error(&refused, StatusCode::SERVICE_UNAVAILABLE, "SERVICE_BUSY");
    assert!(refused.headers.contains_key(RETRY_AFTER));
    let status = server
        .get(&format!("/api/application/{refused_app}/status"))
        .await;
    assert_ne!(status.body["state"], "DEPLOYMENT_QUEUED", "{}", status.body);
}
