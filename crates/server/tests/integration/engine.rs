//! The first deployment engine: a deploy moves an application through the states of DESIGN §3,
//! records its steps, refuses a second action while one runs, and survives a restart.

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, assert_invalid_fields, TestServer};
use platform_api::{ServiceState, StepName};
use serde_json::json;

#[tokio::test]
async fn deploy_goes_from_queued_to_deployed_with_every_step() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let reply = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.body);
    assert_eq!(reply.body["state"], "DEPLOYMENT_QUEUED");
    assert_eq!(reply.body["status_details"]["action"], "DEPLOY");
    assert_eq!(reply.body["status_details"]["status"], "QUEUED");
    assert_eq!(reply.body["deployment_requests_count"], 1);
    let request_id = reply.body["deployment_request_id"].clone();
    assert!(request_id.is_string());

    let status = server.settled_status(&application).await;
    assert_eq!(status["state"], "DEPLOYED");
    assert_eq!(status["service_deployment_status"], "UP_TO_DATE");
    assert_eq!(status["status_details"]["status"], "SUCCESS");
    assert_eq!(status["deployment_request_id"], request_id);
    assert_eq!(status["deployment_requests_count"], 0);
    assert_eq!(status["is_part_last_deployment"], true);
    assert!(status["last_deployment_date"].is_string());
    let steps: Vec<StepName> =
        serde_json::from_value::<Vec<platform_api::Step>>(status["steps"]["details"].clone())
            .unwrap()
            .into_iter()
            .map(|step| step.step_name)
            .collect();
    assert_eq!(
        steps,
        [
            StepName::RegistryCreateRepository,
            StepName::GitClone,
            StepName::BuildQueueing,
            StepName::Build,
            StepName::DeploymentQueueing,
            StepName::Deployment,
            StepName::RouterDeployment,
        ]
    );
    for step in status["steps"]["details"].as_array().unwrap() {
        assert_eq!(step["status"], "SUCCESS");
        assert!(step["duration_sec"].is_i64());
    }
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    assert_eq!(statuses["environment"]["state"], "DEPLOYED");
    assert_eq!(statuses["applications"][0]["state"], "DEPLOYED");
}

#[tokio::test]
async fn the_engine_passes_through_building_and_deploying() {
    // Slow enough (building lasts about 0.3 s) for polling to see each state on a busy machine.
    let dir = tempfile::TempDir::new().unwrap();
    let mut slower = common::config(&dir);
    slower.engine_speed = 100.0;
    let server = TestServer::with_config(dir, slower).await;
    let (_, _, application) = server.hierarchy().await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    let mut seen = vec![];
    loop {
        let state: ServiceState = serde_json::from_value(
            server
                .get(&format!("/api/application/{application}/status"))
                .await
                .body["state"]
                .clone(),
        )
        .unwrap();
        if seen.last() != Some(&state) {
            seen.push(state);
        }
        if !state.is_in_progress() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    // Polling may miss a short state, but never sees them out of order.
    let order = [
        ServiceState::DeploymentQueued,
        ServiceState::Building,
        ServiceState::Deploying,
        ServiceState::Deployed,
    ];
    let positions: Vec<usize> = seen
        .iter()
        .map(|state| order.iter().position(|o| o == state).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert_eq!(seen.last(), Some(&ServiceState::Deployed));
    assert!(seen.contains(&ServiceState::Building), "{seen:?}");
}

#[tokio::test]
async fn a_second_deploy_while_one_runs_is_a_conflict() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}/deploy");
    assert_eq!(
        server.post(&path, json!({})).await.status,
        StatusCode::ACCEPTED
    );
    assert_error(
        &server.post(&path, json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    server.settled_status(&application).await;
    assert_eq!(
        server.post(&path, json!({})).await.status,
        StatusCode::ACCEPTED
    );
    server.settled_status(&application).await;
}

#[tokio::test]
async fn deploy_at_a_commit_records_it() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}/deploy");
    assert_invalid_fields(
        &server
            .post(&path, json!({"git_commit_id": "not a sha"}))
            .await,
        &["git_commit_id"],
    );
    let reply = server
        .post(
            &path,
            json!({"git_commit_id": "0123456789abcdef0123456789abcdef01234567"}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    server.settled_status(&application).await;
    let app = server
        .get(&format!("/api/application/{application}"))
        .await
        .body;
    assert_eq!(
        app["git_repository"]["deployed_commit_id"],
        "0123456789abcdef0123456789abcdef01234567"
    );
    assert!(app["git_repository"]["deployed_commit_date"].is_string());
}

/// Deploys the application, then leaves that deployment at its fourth step, as a server killed
/// in the middle would (`damage` may spoil its record further), and starts the server again on
/// the same database; the restarted server and the deployment's id.
async fn half_done_then_restarted(
    server: TestServer,
    application: &str,
    damage: &str,
) -> (TestServer, String) {
    let reply = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    let deployment = reply.body["deployment_request_id"]
        .as_str()
        .unwrap()
        .to_string();
    server.settled_status(application).await;
    sqlx::query("DELETE FROM deployment_steps WHERE deployment_id = ? AND position >= 3")
        .bind(&deployment)
        .execute(&server.state.db)
        .await
        .unwrap();
    sqlx::query(&format!(
        "UPDATE deployments SET finished_at = NULL, state = 'BUILDING'{damage} WHERE id = ?"
    ))
    .bind(&deployment)
    .execute(&server.state.db)
    .await
    .unwrap();
    sqlx::query("UPDATE service_statuses SET state = 'BUILDING', action_status = 'ONGOING'")
        .execute(&server.state.db)
        .await
        .unwrap();
    let TestServer { dir, state, .. } = server;
    state.db.close().await;
    (TestServer::in_dir(dir).await, deployment)
}

#[tokio::test]
async fn a_restart_resumes_an_unfinished_deployment() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let (restarted, deployment) = half_done_then_restarted(server, &application, "").await;
    let status = restarted.settled_status(&application).await;
    assert_eq!(status["state"], "DEPLOYED");
    assert_eq!(status["steps"]["details"].as_array().unwrap().len(), 7);
    let (resumed,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM deployment_logs WHERE deployment_id = ? AND message LIKE '%restarted%'",
    )
    .bind(&deployment)
    .fetch_one(&restarted.state.db)
    .await
    .unwrap();
    assert_eq!(resumed, 1);
}

#[tokio::test]
async fn an_action_whose_run_keeps_breaking_ends_in_an_error_state_saying_why() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    // A record the engine cannot read: every try of the resumed run breaks.
    let (restarted, _) =
        half_done_then_restarted(server, &application, ", sub_action = 'UNREADABLE'").await;
    let status = restarted.settled_status(&application).await;
    assert_eq!(status["state"], "DEPLOYMENT_ERROR");
    assert_eq!(status["status_details"]["status"], "ERROR");
    assert_eq!(status["deployment_requests_count"], 0);
    let log = restarted
        .service_log(&application, status["execution_id"].as_str(), None)
        .await;
    let lines: Vec<&str> = log["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["message"].as_str().unwrap())
        .collect();
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("The engine could not go on with this action"),
        "{lines:?}"
    );
    let retries = lines
        .iter()
        .filter(|line| line.starts_with("The engine broke off this action"))
        .count();
    assert_eq!(retries, 3, "{lines:?}");
    // Nothing more to resume: the service takes a new deployment.
    let again = restarted
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(again.status, StatusCode::ACCEPTED);
    assert_eq!(
        restarted.settled_status(&application).await["state"],
        "DEPLOYED"
    );
}
