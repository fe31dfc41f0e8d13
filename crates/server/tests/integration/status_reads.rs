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
