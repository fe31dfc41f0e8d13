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
async fn the_older_histories_list_deploys_after_a_start_id() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let deploy = format!("/api/application/{application}/deploy");
    server.post(&deploy, json!({})).await;
    server.settled_status(&application).await;
    server
        .post(&deploy, json!({"git_commit_id": "abcdef1234567"}))
        .await;
    server.settled_status(&application).await;
    // A restart is an action, not a deploy: the older histories leave it out.
    server
        .post(
            &format!("/api/application/{application}/restart-service"),
            json!({}),
        )
        .await;
    server.settled_status(&application).await;
    server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    server.settled_status(&application).await;

    let history = format!("/api/application/{application}/deploymentHistory");
    let page = server.get(&history).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let results = page.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 3, "{results:?}");
    assert!(results.iter().all(|deploy| deploy["status"] == "SUCCESS"));
    assert_eq!(results[1]["name"], "web");
    assert_eq!(results[1]["commit"]["git_commit_id"], "abcdef1234567");
    // Each is the deployment the current history shows, by its execution.
    let current = server
        .get(&format!(
            "/api/application/{application}/deploymentHistoryV2"
        ))
        .await
        .body;
    let execution = current["results"][2]["identifier"]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        results[1]["id"].as_str().unwrap().replace('-', ""),
        execution
    );

    let after = server
        .get(&format!(
            "{history}?startId={}",
            results[1]["id"].as_str().unwrap()
        ))
        .await
        .body;
    assert_eq!(after["results"].as_array().unwrap().len(), 1);
    assert!(after["results"][0]["commit"].is_null());
    let unknown = server
        .get(&format!("{history}?startId={environment}"))
        .await
        .body;
    assert_eq!(unknown["results"], json!([]));
    assert_invalid_fields(
        &server.get(&format!("{history}?startId=seven")).await,
        &["startId"],
    );

    let environment_history = server
        .get(&format!("/api/environment/{environment}/deploymentHistory"))
        .await;
    assert_eq!(
        environment_history.status,
        StatusCode::OK,
        "{}",
        environment_history.body
    );
    let deploys = environment_history.body["results"].as_array().unwrap();
    assert_eq!(deploys.len(), 3, "{deploys:?}");
    let newest = &deploys[0];
    assert_eq!(newest["status"], "DEPLOYED");
    assert_eq!(newest["origin"], "API");
    assert_eq!(newest["applications"][0]["name"], "web");
    assert_eq!(newest["applications"][0]["id"], results[0]["id"]);
    assert_eq!(newest["containers"], json!([]));
    let older = server
        .get(&format!(
            "/api/environment/{environment}/deploymentHistory?startId={}",
            newest["id"].as_str().unwrap()
        ))
        .await
        .body;
    assert_eq!(older["results"].as_array().unwrap().len(), 2);
    assert_eq!(
        older["results"][0]["applications"][0]["commit"]["git_commit_id"],
        "abcdef1234567"
    );
}

#[tokio::test]
async fn helm_history_is_paged_20_by_default() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
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

    let all = server.service_log(&application, None, None).await;
    let lines = all["results"].as_array().unwrap();
    assert!(lines.len() > 10, "{all}");
    assert_eq!(lines.last().unwrap()["message"], "Deployed.");
    assert!(lines[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("Deployment requested"));

    let execution = first["execution_id"].as_str().unwrap();
    let one = server
        .service_log(&application, Some(execution), None)
        .await;
    let one = one["results"].as_array().unwrap();
    assert!(!one.is_empty());
    assert!(one.iter().all(|line| line["execution_id"] == execution));
    assert!(one
        .iter()
        .any(|line| line["message"].as_str().unwrap().contains("Build: done")));
    assert!(one.len() < lines.len());
}

#[tokio::test]
async fn an_environments_log_names_each_lines_service_in_both_shapes() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let database = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await
        .body["id"]
        .as_str()
        .unwrap()
        .to_string();
    for service in [&application, &database] {
        let kind = if *service == application {
            "application"
        } else {
            "database"
        };
        server
            .post(&format!("/api/{kind}/{service}/deploy"), json!({}))
            .await;
        server
            .settled(&format!("/api/{kind}/{service}/status"))
            .await;
    }
    let logs = server
        .get(&format!("/api/environment/{environment}/logs"))
        .await
        .body;
    let lines = logs.as_array().unwrap();
    let of = |id: &str| {
        lines
            .iter()
            .filter(|line| line["details"]["transmitter"]["id"] == id)
            .count()
    };
    assert!(of(&application) > 5 && of(&database) > 2, "{logs}");
    assert_eq!(of(&application) + of(&database), lines.len());
    assert_eq!(lines[0]["details"]["transmitter"]["type"], "Application");
    assert_eq!(
        lines[0]["details"]["organization_id"],
        server.organization_id
    );
    // Oldest first: the application's deployment ended before the database's began.
    assert_eq!(
        lines.last().unwrap()["details"]["transmitter"]["id"],
        database.as_str()
    );
    let older = server
        .get(&format!("/api/environment/{environment}/log"))
        .await
        .body;
    let older = older["results"].as_array().unwrap();
    assert_eq!(older.len(), lines.len());
    assert_eq!(older[0]["scope"]["type"], "APPLICATION");
    assert_eq!(older.last().unwrap()["scope"]["type"], "DATABASE");
    assert_eq!(older.last().unwrap()["state"], "DEPLOYED");
    assert_eq!(older[0]["message"], lines[0]["message"]["safe_message"]);
}

#[tokio::test]
async fn an_applications_instances_print_what_they_run_until_stopped() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "image_name": "acme/api", "tag": "1.4.2",
                   "registry_id": server.container_registry().await,
                   "min_running_instances": 2, "max_running_instances": 2,
                   "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}]}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let container = created.body["id"].as_str().unwrap().to_string();
    let log = format!("/api/container/{container}/log");
    assert_eq!(server.get(&log).await.body["results"], json!([]));
    let status = format!("/api/container/{container}/status");
    server
        .post(&format!("/api/container/{container}/deploy"), json!({}))
        .await;
    server.settled(&status).await;
    server
        .post(&format!("/api/container/{container}/stop"), json!({}))
        .await;
    server.settled(&status).await;
    let first = server.get(&log).await.body;
    let lines = first["results"].as_array().unwrap();
    let pods: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|line| line["pod_name"].as_str().unwrap())
        .collect();
    assert_eq!(pods.len(), 2, "{first}");
    assert!(lines.iter().all(|line| line["version"] == "1.4.2"));
    assert!(lines[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("Started 1.4.2"));
    assert!(lines
        .iter()
        .any(|line| line["message"] == "Listening on port 8080."));
    assert_eq!(lines.last().unwrap()["message"], "Stopped.");
    // The same history gives the same lines.
    assert_eq!(server.get(&log).await.body, first);
}
