//! Deployment stages: every environment starts with a default stage per kind; stages are added,
//! renamed, reordered and deleted, services moved and skipped; an environment's deployment runs
//! its stages in order and stops after a failing one.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

/// An environment with a database, a job run from an image and an application.
async fn environment(server: &TestServer) -> (String, String, String, String) {
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let database = server
        .create(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER",
                   "accessibility": "PRIVATE"}),
        )
        .await;
    let job = server
        .create(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "migrate", "schedule": {"on_start": {}},
                   "source": {"image": {"registry_id": registry, "image_name": "tools/migrate", "tag": "1"}}}),
        )
        .await;
    let web = server.application(&environment, "web").await;
    (environment, database, job, web)
}

fn names(stages: &Value) -> Vec<String> {
    stages["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stage| stage["name"].as_str().unwrap().to_string())
        .collect()
}

/// The stage of `stages` named `name`.
fn stage<'a>(stages: &'a Value, name: &str) -> &'a Value {
    stages["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|stage| stage["name"] == name)
        .unwrap_or_else(|| panic!("no stage {name} in {stages}"))
}

#[tokio::test]
async fn stages_are_kept_in_order_with_their_services() {
    let server = TestServer::new().await;
    let (environment, database, _job, web) = environment(&server).await;
    let path = format!("/api/environment/{environment}/deploymentStage");
    let stages = server.get(&path).await.body;
    assert_eq!(
        names(&stages),
        [
            "TERRAFORM DEFAULT",
            "DATABASE DEFAULT",
            "JOB DEFAULT",
            "CONTAINER DEFAULT",
            "APPLICATION DEFAULT",
            "HELM DEFAULT"
        ]
    );
    assert_eq!(
        stage(&stages, "DATABASE DEFAULT")["services"][0]["service_id"],
        database.as_str()
    );
    assert_eq!(stage(&stages, "APPLICATION DEFAULT")["deployment_order"], 5);

    assert_invalid_fields(&server.post(&path, json!({"name": " "})).await, &["name"]);
    let smoke = server
        .post(
            &path,
            json!({"name": "smoke tests", "description": "after the apps"}),
        )
        .await;
    assert_eq!(smoke.status, StatusCode::OK, "{}", smoke.body);
    assert_eq!(smoke.body["deployment_order"], 7);
    let smoke = smoke.body["id"].as_str().unwrap().to_string();
    let twice = server.post(&path, json!({"name": "SMOKE TESTS"})).await;
    assert_error(&twice, StatusCode::CONFLICT, "CONFLICT");
    let renamed = server
        .put(
            &format!("/api/deploymentStage/{smoke}"),
            json!({"name": "checks"}),
        )
        .await;
    assert_eq!(renamed.body["name"], "checks", "{}", renamed.body);

    // Moved before the applications, with the application in it.
    let applications = stage(&stages, "APPLICATION DEFAULT")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let moved = server
        .put(
            &format!("/api/deploymentStage/{smoke}/moveBefore/{applications}"),
            json!(null),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    assert_eq!(names(&moved.body)[4], "checks");
    // Not next to itself: refused, and the order kept.
    for side in ["moveBefore", "moveAfter"] {
        let itself = server
            .put(
                &format!("/api/deploymentStage/{smoke}/{side}/{smoke}"),
                json!(null),
            )
            .await;
        assert_invalid_fields(&itself, &["stage_id"]);
    }
    assert_eq!(names(&server.get(&path).await.body)[4], "checks");
    let attached = server
        .put(
            &format!("/api/deploymentStage/{smoke}/service/{web}"),
            json!({}),
        )
        .await;
    assert_eq!(
        stage(&attached.body, "checks")["services"][0]["service_id"],
        web.as_str()
    );
    assert!(stage(&attached.body, "APPLICATION DEFAULT")["services"]
        .as_array()
        .unwrap()
        .is_empty());
    let of_web = server
        .get(&format!("/api/service/{web}/deploymentStage"))
        .await;
    assert_eq!(of_web.body["name"], "checks", "{}", of_web.body);
    // Skipped where it is.
    let skipped = server
        .put(
            &format!("/api/deploymentStage/{applications}/service/{web}"),
            json!({"is_skipped": true}),
        )
        .await;
    let placed = &stage(&skipped.body, "checks")["services"][0];
    assert_eq!(placed["is_skipped"], true, "{}", skipped.body);
    let after = server
        .put(
            &format!("/api/deploymentStage/{smoke}/moveAfter/{applications}"),
            json!(null),
        )
        .await;
    assert_eq!(names(&after.body)[5], "checks");

    // Deleted: the application goes back to its kind's default stage.
    let deleted = server
        .call(
            Method::DELETE,
            &format!("/api/deploymentStage/{smoke}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
    let back = server
        .get(&format!("/api/service/{web}/deploymentStage"))
        .await;
    assert_eq!(back.body["name"], "APPLICATION DEFAULT");
    let statuses = server
        .get(&format!(
            "/api/environment/{environment}/statusesWithStages"
        ))
        .await
        .body;
    let database_stage = statuses["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stage"]["name"] == "DATABASE DEFAULT")
        .unwrap();
    assert_eq!(
        database_stage["databases"][0]["id"],
        database.as_str(),
        "{statuses}"
    );
}

/// `(stage, position, started, finished)` of each deployment of the environment, in the order
/// they ran.
async fn runs(server: &TestServer, environment: &str) -> Vec<(String, i64, String, String)> {
    sqlx::query_as(
        "SELECT d.stage_name, d.stage_position, d.worker_at, d.finished_at FROM deployments d
         JOIN services s ON s.id = d.service_id WHERE s.environment_id = ?
         ORDER BY d.stage_position",
    )
    .bind(environment)
    .fetch_all(&server.state.db)
    .await
    .unwrap()
}

#[tokio::test]
async fn an_environment_deploys_a_stage_at_a_time_and_stops_after_a_failing_one() {
    let server = TestServer::new().await;
    let (environment, database, job, web) = environment(&server).await;
    let deployed = server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    for (kind, id) in [
        ("database", &database),
        ("job", &job),
        ("application", &web),
    ] {
        server.settled(&format!("/api/{kind}/{id}/status")).await;
    }
    let ran = runs(&server, &environment).await;
    let stages: Vec<&str> = ran.iter().map(|run| run.0.as_str()).collect();
    assert_eq!(
        stages,
        ["DATABASE DEFAULT", "JOB DEFAULT", "APPLICATION DEFAULT"]
    );
    for pair in ran.windows(2) {
        // A stage's deployment took a worker only after the stage before had finished.
        assert!(pair[1].2 >= pair[0].3, "{pair:?}");
    }
    let history = server
        .get(&format!(
            "/api/environment/{environment}/deploymentHistoryV2"
        ))
        .await
        .body;
    let stages: Vec<(&str, &str)> = history["results"][0]["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        stages,
        [
            ("DATABASE DEFAULT", "DONE"),
            ("JOB DEFAULT", "DONE"),
            ("APPLICATION DEFAULT", "DONE")
        ]
    );

    // The database fails (the fault is the environment's: what the stages after would do does
    // not matter, they do not run), and the stages after it say why.
    let fault = server
        .post(
            &format!("/api/environment/{environment}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "DEPLOYMENT"}),
        )
        .await;
    assert_eq!(fault.status, StatusCode::CREATED, "{}", fault.body);
    let again = server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "{}", again.body);
    for (kind, id) in [
        ("database", &database),
        ("job", &job),
        ("application", &web),
    ] {
        server.settled(&format!("/api/{kind}/{id}/status")).await;
    }
    let web_status = server
        .get(&format!("/api/application/{web}/status"))
        .await
        .body;
    assert_eq!(web_status["state"], "CANCELED", "{web_status}");
    let lines = server.service_log(&web, None, Some(1)).await;
    assert!(
        lines["results"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Not deployed: the stage DATABASE DEFAULT"),
        "{lines}"
    );
    let history = server
        .get(&format!(
            "/api/environment/{environment}/deploymentHistoryV2"
        ))
        .await
        .body;
    let statuses: Vec<&str> = history["results"][0]["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ERROR", "CANCELED", "CANCELED"], "{history}");
}

#[tokio::test]
async fn a_skipped_service_is_left_out_of_its_environments_deployment() {
    let server = TestServer::new().await;
    let (environment, _database, job, _web) = environment(&server).await;
    let stage = server
        .get(&format!("/api/service/{job}/deploymentStage"))
        .await
        .body;
    let stage = stage["id"].as_str().unwrap();
    server
        .put(
            &format!("/api/deploymentStage/{stage}/service/{job}"),
            json!({"is_skipped": true}),
        )
        .await;
    server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    let ran = runs(&server, &environment).await;
    assert_eq!(ran.len(), 2, "{ran:?}");
    assert!(ran.iter().all(|run| run.0 != "JOB DEFAULT"));
    // The last stage of an environment stays.
    let path = format!("/api/environment/{environment}/deploymentStage");
    let ids: Vec<String> = server.get(&path).await.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    for (n, id) in ids.iter().enumerate() {
        let reply = server
            .call(
                Method::DELETE,
                &format!("/api/deploymentStage/{id}"),
                Some(&server.auth()),
                None,
            )
            .await;
        if n + 1 < ids.len() {
            assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
        } else {
            assert_error(&reply, StatusCode::CONFLICT, "CONFLICT");
        }
    }
}
