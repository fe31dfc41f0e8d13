//! The actions after deploy: restart, stop, uninstall, cancel, and failures on purpose through
//! the PLATFORM_FAIL_AT variable.

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, config, TestServer};
use serde_json::{json, Value};
use tempfile::TempDir;

fn steps(status: &Value) -> Vec<(String, String)> {
    status["steps"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| {
            (
                step["step_name"].as_str().unwrap().to_string(),
                step["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn restart_and_stop_need_something_running() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let path = |action: &str| format!("/api/application/{application}/{action}");
    assert_error(
        &server.post(&path("restart-service"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    assert_error(
        &server.post(&path("stop"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    assert_error(
        &server.post(&path("uninstall"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );

    server.post(&path("deploy"), json!({})).await;
    server.settled_status(&application).await;
    let restart = server.post(&path("restart-service"), json!({})).await;
    assert_eq!(restart.status, StatusCode::ACCEPTED, "{}", restart.body);
    assert_eq!(restart.body["state"], "RESTART_QUEUED");
    assert_eq!(restart.body["status_details"]["action"], "RESTART");
    let restarted = server.settled_status(&application).await;
    assert_eq!(restarted["state"], "RESTARTED");
    assert_eq!(restarted["status_details"]["status"], "SUCCESS");
    assert_eq!(restarted["service_deployment_status"], "UP_TO_DATE");
    assert_eq!(
        steps(&restarted),
        [("DEPLOYMENT".to_string(), "SUCCESS".to_string())]
    );

    let stop = server.post(&path("stop"), json!({})).await;
    assert_eq!(stop.body["state"], "STOP_QUEUED");
    assert_eq!(
        server.settled_status(&application).await["state"],
        "STOPPED"
    );
    assert_error(
        &server.post(&path("stop"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    assert_error(
        &server.post(&path("restart-service"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    server.post(&path("deploy"), json!({})).await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "DEPLOYED"
    );

    let history = server
        .get(&format!(
            "/api/application/{application}/deploymentHistoryV2"
        ))
        .await
        .body;
    let actions: Vec<&str> = history["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["status_details"]["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["DEPLOY", "STOP", "RESTART", "DEPLOY"]);
}

#[tokio::test]
async fn uninstalling_a_job_keeps_its_configuration() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let job = server
        .post(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "migrate", "schedule": {"on_start": {}},
                   "source": {"docker": {"git_repository": {"url": "https://git.example.com/m.git"}}}}),
        )
        .await;
    let id = job.body["id"].as_str().unwrap();
    server
        .post(
            &format!("/api/job/{id}/environmentVariable"),
            json!({"key": "MODE", "value": "up"}),
        )
        .await;
    server
        .post(&format!("/api/job/{id}/deploy"), json!({}))
        .await;
    let status = format!("/api/job/{id}/status");
    assert_eq!(
        server.settled(&status).await["service_deployment_status"],
        "UP_TO_DATE"
    );

    let uninstall = server
        .post(&format!("/api/job/{id}/uninstall"), json!({}))
        .await;
    assert_eq!(uninstall.status, StatusCode::ACCEPTED, "{}", uninstall.body);
    assert_eq!(uninstall.body["state"], "DELETE_QUEUED");
    assert_eq!(uninstall.body["status_details"]["action"], "DELETE");
    let done = server.settled(&status).await;
    assert_eq!(done["state"], "DELETED");
    assert_eq!(done["service_deployment_status"], "NEVER_DEPLOYED");
    assert_eq!(
        server.get(&format!("/api/job/{id}")).await.body["name"],
        "migrate"
    );
    let variables = server
        .get(&format!("/api/job/{id}/environmentVariable"))
        .await
        .body;
    assert!(variables.to_string().contains("\"MODE\""));
    let log = server.service_log(id, None, Some(1)).await;
    assert!(log["results"][0]["message"]
        .as_str()
        .unwrap()
        .contains("configuration kept"));
}

#[tokio::test]
async fn a_running_deployment_is_canceled_at_the_end_of_its_step() {
    let dir = TempDir::new().unwrap();
    let mut slow = config(&dir);
    slow.engine_speed = 10.0;
    let server = TestServer::with_config(dir, slow).await;
    let (_, _, application) = server.hierarchy().await;
    let cancel = format!("/api/application/{application}/cancel");
    assert_error(
        &server.post(&cancel, json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );

    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let canceling = server.post(&cancel, json!({})).await;
    assert_eq!(canceling.status, StatusCode::ACCEPTED, "{}", canceling.body);
    assert_eq!(canceling.body["state"], "CANCELING");
    assert_eq!(canceling.body["status_details"]["status"], "CANCELING");
    assert_error(
        &server.post(&cancel, json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    let canceled = server.settled_status(&application).await;
    assert_eq!(canceled["state"], "CANCELED");
    assert_eq!(canceled["status_details"]["status"], "CANCELED");
    assert_eq!(canceled["service_deployment_status"], "NEVER_DEPLOYED");
    let steps = steps(&canceled);
    assert!(steps.len() < 7, "{steps:?}");
    assert_eq!(steps.last().unwrap().1, "CANCEL", "{steps:?}");
    // A canceled deployment leaves the service free for the next one.
    let again = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(again.status, StatusCode::ACCEPTED);
}

#[tokio::test]
async fn failures_on_purpose_end_in_the_error_state_of_their_step() {
    let server = TestServer::new().await;
    let (project, _, application) = server.hierarchy().await;
    let variables = format!("/api/application/{application}/environmentVariable");
    let fail = server
        .post(
            &variables,
            json!({"key": "PLATFORM_FAIL_AT", "value": "BUILD"}),
        )
        .await;
    let fail_id = fail.body["id"].as_str().unwrap().to_string();
    let deploy = format!("/api/application/{application}/deploy");
    server.post(&deploy, json!({})).await;
    let failed = server.settled_status(&application).await;
    assert_eq!(failed["state"], "BUILD_ERROR");
    assert_eq!(failed["status_details"]["status"], "ERROR");
    assert_eq!(failed["service_deployment_status"], "NEVER_DEPLOYED");
    assert_eq!(
        steps(&failed).last().unwrap(),
        &("BUILD".to_string(), "ERROR".to_string())
    );
    let log = server.service_log(&application, None, Some(2)).await;
    assert!(
        log.to_string()
            .contains("failed on purpose (PLATFORM_FAIL_AT=BUILD)"),
        "{log}"
    );

    let auth = format!("Token {}", server.token);
    server
        .call(
            axum::http::Method::PUT,
            &format!("{variables}/{fail_id}"),
            Some(&auth),
            Some(&json!({"key": "PLATFORM_FAIL_AT", "value": "deployment"}).to_string()),
        )
        .await;
    server.post(&deploy, json!({})).await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "DEPLOYMENT_ERROR"
    );

    // At the project's scope, for the action as a whole; the service's own value wins.
    server
        .call(
            axum::http::Method::DELETE,
            &format!("{variables}/{fail_id}"),
            Some(&auth),
            None,
        )
        .await;
    server
        .post(
            &format!("/api/project/{project}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "RESTART"}),
        )
        .await;
    server.post(&deploy, json!({})).await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "DEPLOYED"
    );
    server
        .post(
            &format!("/api/application/{application}/restart-service"),
            json!({}),
        )
        .await;
    let restart = server.settled_status(&application).await;
    assert_eq!(restart["state"], "RESTART_ERROR");
    assert_eq!(restart["service_deployment_status"], "UP_TO_DATE");
}

#[tokio::test]
async fn an_environment_acts_on_all_its_services() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let database = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "db", "type": "REDIS", "version": "7", "mode": "CONTAINER"}),
        )
        .await;
    let database = database.body["id"].as_str().unwrap().to_string();
    let act = |action: &str| format!("/api/environment/{environment}/{action}");
    let nothing = server.post(&act("stop"), json!({})).await;
    assert_error(&nothing, StatusCode::CONFLICT, "CONFLICT");
    assert!(nothing.body["message"]
        .as_str()
        .unwrap()
        .contains("to stop"));

    let deploy = server.post(&act("deploy"), json!({})).await;
    assert_eq!(deploy.status, StatusCode::ACCEPTED, "{}", deploy.body);
    // The production document's answer: one status for the environment, counting the
    // deployments requested (one per service).
    assert_eq!(deploy.body["id"], environment.as_str());
    assert_eq!(deploy.body["status_details"]["action"], "DEPLOY");
    assert_eq!(deploy.body["deployment_requests_count"], 2);
    assert_eq!(deploy.body["service_deployment_status"], "NEVER_DEPLOYED");
    // Each service is deploying (at test speed it may already be past its queued state).
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    for kind in ["applications", "databases"] {
        assert_eq!(
            statuses[kind][0]["status_details"]["action"], "DEPLOY",
            "{kind}"
        );
        assert!(
            statuses[kind][0]["deployment_request_id"].is_string(),
            "{kind}"
        );
    }
    assert_error(
        &server.post(&act("deploy"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    server.settled_status(&application).await;
    server
        .settled(&format!("/api/database/{database}/status"))
        .await;

    server.post(&act("restart"), json!({})).await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "RESTARTED"
    );
    assert_eq!(
        server
            .settled(&format!("/api/database/{database}/status"))
            .await["state"],
        "RESTARTED"
    );
    let stop = server.post(&act("stop"), json!({})).await;
    assert_eq!(stop.status, StatusCode::ACCEPTED, "{}", stop.body);
    assert_eq!(stop.body["id"], environment.as_str());
    assert!(
        stop.body["last_deployment_state"].is_string(),
        "{}",
        stop.body
    );
    assert_eq!(
        server.settled_status(&application).await["state"],
        "STOPPED"
    );
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    assert_eq!(statuses["databases"][0]["state"], "STOPPED");
}

#[tokio::test]
async fn a_deploy_in_the_documents_form_deploys_the_tag_or_plans() {
    let server = TestServer::new().await;
    let ids = common::records(&server).await;
    let container = ids.id("container_id");
    let deploy = server
        .post(
            &format!("/api/container/{container}/deploy"),
            json!({"image_tag": "1.29"}),
        )
        .await;
    assert_eq!(deploy.status, StatusCode::ACCEPTED, "{}", deploy.body);
    server
        .settled(&format!("/api/container/{container}/status"))
        .await;
    let record = server.get(&format!("/api/container/{container}")).await;
    assert_eq!(record.body["tag"], "1.29");
    // A service built from git runs no image of its own.
    let application = ids.id("application_id");
    common::assert_invalid_fields(
        &server
            .post(
                &format!("/api/application/{application}/deploy"),
                json!({"image_tag": "2"}),
            )
            .await,
        &["image_tag"],
    );
    let terraform = ids.id("terraform_id");
    let plan = server
        .post(
            &format!("/api/terraform/{terraform}/deploy"),
            json!({"action": "PLAN"}),
        )
        .await;
    assert_eq!(plan.status, StatusCode::ACCEPTED, "{}", plan.body);
    assert_eq!(
        plan.body["status_details"]["sub_action"], "TERRAFORM_PLAN_ONLY",
        "{}",
        plan.body
    );
    common::assert_invalid_fields(
        &server
            .post(
                &format!("/api/terraform/{terraform}/deploy"),
                json!({"action": "FORCE_UNLOCK"}),
            )
            .await,
        &["action"],
    );
}
