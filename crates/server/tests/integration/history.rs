//! Deployment history (spec 2.17) with paging, and the engine's log lines, for every kind.

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, TestServer};
use serde_json::json;

#[tokio::test]
async fn history_lists_deployments_newest_first_by_page() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let deploy = format!("/api/application/{application}/deploy");
    server.post(&deploy, json!({})).await;
    server.settled_status(&application).await;
    server
        .post(&deploy, json!({"git_commit_id": "abcdef1234567"}))
        .await;
    server.settled_status(&application).await;

    let history = format!("/api/application/{application}/deploymentHistoryV2");
    let page = server.get(&history).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(page.body["page"], 1);
    assert_eq!(page.body["page_size"], 20);
    let results = page.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let newest = &results[0];
    assert_eq!(newest["identifier"]["name"], "web");
    assert_eq!(newest["identifier"]["service_id"], application);
    assert_eq!(newest["identifier"]["service_type"], "APPLICATION");
    assert_eq!(newest["status"], "DEPLOYED");
    assert_eq!(newest["status_details"]["action"], "DEPLOY");
    assert_eq!(newest["status_details"]["status"], "SUCCESS");
    assert_eq!(
        newest["auditing_data"]["triggered_by"],
        "API token console sign-in"
    );
    assert_eq!(newest["auditing_data"]["origin"], "API");
    assert_eq!(
        newest["details"]["commit"]["git_commit_id"],
        "abcdef1234567"
    );
    assert!(results[1]["details"]["commit"].is_null());
    assert!(newest["total_duration"].as_str().unwrap().starts_with("PT"));
    assert_ne!(
        newest["identifier"]["execution_id"],
        results[1]["identifier"]["execution_id"]
    );

    let second = server
        .get(&format!("{history}?pageSize=1&page=2"))
        .await
        .body;
    assert_eq!(second["page"], 2);
    assert_eq!(second["page_size"], 1);
    assert_eq!(second["results"].as_array().unwrap().len(), 1);
    assert_eq!(
        second["results"][0]["identifier"]["execution_id"],
        results[1]["identifier"]["execution_id"]
    );
    assert_invalid_fields(
        &server.get(&format!("{history}?pageSize=101")).await,
        &["pageSize"],
    );
    assert_invalid_fields(&server.get(&format!("{history}?page=0")).await, &["page"]);
    // A page so far that its offset would overflow is refused, not read as the first.
    assert_invalid_fields(
        &server
            .get(&format!("{history}?page=9223372036854775807"))
            .await,
        &["page"],
    );
}

#[tokio::test]
async fn helm_history_is_paged_20_by_default() {
    let server = TestServer::new().await;
    let project = server.project("shop").await;
    let environment = server.environment(&project, "staging").await;
    let helm = server
        .post(
            &format!("/api/environment/{environment}/helm"),
            json!({"name": "redis", "source": {"git": {"git_repository": {"url": "https://git.example.com/charts.git"}}}}),
        )
        .await;
    let id = helm.body["id"].as_str().unwrap();
    for _ in 0..22 {
        server
            .post(&format!("/api/helm/{id}/deploy"), json!({}))
            .await;
        server.settled(&format!("/api/helm/{id}/status")).await;
    }
    let page = server
        .get(&format!("/api/helm/{id}/deploymentHistoryV2"))
        .await
        .body;
    assert_eq!(page["results"].as_array().unwrap().len(), 20);
    assert_eq!(page["results"][0]["identifier"]["service_type"], "HELM");
    let rest = server
        .get(&format!("/api/helm/{id}/deploymentHistoryV2?page=2"))
        .await
        .body;
    assert_eq!(rest["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn the_log_tells_what_the_engine_did() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let deploy = format!("/api/application/{application}/deploy");
    let first = server.post(&deploy, json!({})).await.body;
    server.settled_status(&application).await;
    server.post(&deploy, json!({})).await;
    server.settled_status(&application).await;

    let log = format!("/api/application/{application}/log");
    let all = server.get(&log).await;
    assert_eq!(all.status, StatusCode::OK);
    let lines = all.body["results"].as_array().unwrap();
    assert!(lines.len() > 10, "{}", all.body);
    assert_eq!(lines.last().unwrap()["message"], "Deployed.");
    assert!(lines[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("Deployment requested"));

    let tail = server.get(&format!("{log}?tail=3")).await.body;
    assert_eq!(tail["results"].as_array().unwrap().len(), 3);
    assert_eq!(tail["results"][2]["message"], "Deployed.");

    let execution = first["execution_id"].as_str().unwrap();
    let one = server
        .get(&format!("{log}?execution_id={execution}"))
        .await
        .body;
    let one = one["results"].as_array().unwrap();
    assert!(!one.is_empty());
    assert!(one.iter().all(|line| line["execution_id"] == execution));
    assert!(one
        .iter()
        .any(|line| line["message"].as_str().unwrap().contains("Build: done")));
    assert_invalid_fields(&server.get(&format!("{log}?tail=0")).await, &["tail"]);
}
