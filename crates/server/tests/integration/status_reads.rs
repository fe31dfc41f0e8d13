//! The narrower status reads agree with `/environment/{id}/statuses`: an environment's state,
//! its services' statuses by kind, and every environment of a project in one request.

use crate::common;

use axum::http::StatusCode;
use common::TestServer;
use serde_json::json;

#[tokio::test]
async fn statuses_by_kind_environment_and_project_agree() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let empty = server.environment(&project, "empty").await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    server.settled_status(&application).await;

    let of_kind = server
        .get(&format!(
            "/api/environment/{environment}/application/status"
        ))
        .await;
    assert_eq!(of_kind.status, StatusCode::OK, "{}", of_kind.body);
    assert_eq!(of_kind.body["results"][0]["id"], application.as_str());
    assert_eq!(of_kind.body["results"][0]["state"], "DEPLOYED");
    let jobs = server
        .get(&format!("/api/environment/{environment}/job/status"))
        .await;
    assert_eq!(jobs.body["results"], json!([]));

    let whole = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await;
    let own = server
        .get(&format!("/api/environment/{environment}/status"))
        .await;
    assert_eq!(own.body, whole.body["environment"]);
    assert_eq!(own.body["state"], "DEPLOYED");

    let project_states = server
        .get(&format!("/api/project/{project}/environment/status"))
        .await;
    let states = project_states.body["results"].as_array().unwrap();
    assert_eq!(states.len(), 2, "{}", project_states.body);
    let state_of = |id: &str| {
        states
            .iter()
            .find(|state| state["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {}", project_states.body))
            .clone()
    };
    assert_eq!(state_of(&environment), whole.body["environment"]);
    assert_eq!(state_of(&empty)["state"], "READY");
}

#[tokio::test]
async fn counts_of_environments_and_projects_come_in_one_request_each() {
    let server = TestServer::new().await;
    let (project, environment, _) = server.hierarchy().await;
    server.application(&environment, "api").await;
    let empty = server.environment(&project, "empty").await;
    server.project("other").await;

    let environments = server
        .get(&format!("/api/project/{project}/environment/stats"))
        .await;
    assert_eq!(environments.status, StatusCode::OK, "{}", environments.body);
    let count_of = |id: &str| {
        environments.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|stats| stats["id"] == id)
            .map(|stats| stats["service_total_number"].clone())
    };
    assert_eq!(count_of(&environment), Some(json!(2)));
    assert_eq!(count_of(&empty), Some(json!(0)));

    let projects = server
        .get(&format!(
            "/api/organization/{}/project/stats",
            server.organization_id
        ))
        .await;
    let of_project = projects.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|stats| stats["id"] == project.as_str())
        .unwrap_or_else(|| panic!("{}", projects.body))
        .clone();
    assert_eq!(of_project["environment_total_number"], 2);
    assert_eq!(of_project["service_total_number"], 2);
    assert_eq!(projects.body["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_projects_overview_holds_each_environments_cluster_count_and_state() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let empty = server.environment(&project, "empty").await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    server.settled_status(&application).await;

    let overview = server
        .get(&format!("/api/project/{project}/environment/overview"))
        .await;
    assert_eq!(overview.status, StatusCode::OK, "{}", overview.body);
    let results = overview.body["results"].as_array().unwrap();
    // By name: "empty", then "staging".
    assert_eq!(results[0]["id"], empty.as_str());
    assert_eq!(results[0]["services_overview"]["service_count"], 0);
    assert_eq!(results[0]["deployment_status"]["state"], "READY");
    let staging = &results[1];
    assert_eq!(staging["id"], environment.as_str());
    assert_eq!(staging["services_overview"]["service_count"], 1);
    assert_eq!(staging["services_overview"]["managed_by"], "QOVERY");
    assert_eq!(staging["deployment_status"]["state"], "DEPLOYED");
    let read = server
        .get(&format!("/api/environment/{environment}"))
        .await
        .body;
    assert_eq!(staging["cluster"]["id"], read["cluster_id"]);
    assert_eq!(staging["cluster"]["name"], read["cluster_name"]);
    assert_eq!(staging["updated_at"], read["created_at"]);
}

#[tokio::test]
async fn a_request_on_an_environment_is_followed_by_its_id() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    server.settled_status(&application).await;
    let history = server
        .get(&format!(
            "/api/environment/{environment}/deploymentHistoryV2"
        ))
        .await
        .body;
    let execution = history["results"][0]["identifier"]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();
    let request = uuid::Uuid::parse_str(&execution).unwrap();

    let status = server
        .get(&format!(
            "/api/environment/deploymentStatus?deploymentRequestId={request}"
        ))
        .await;
    assert_eq!(status.status, StatusCode::OK, "{}", status.body);
    assert_eq!(status.body["deployment_request_id"], request.to_string());
    assert_eq!(status.body["environment_id"], environment.as_str());
    assert_eq!(status.body["status"], "DEPLOYED");

    let unknown = server
        .get(&format!(
            "/api/environment/deploymentStatus?deploymentRequestId={environment}"
        ))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
    common::assert_invalid_fields(
        &server.get("/api/environment/deploymentStatus").await,
        &["deploymentRequestId"],
    );
}
