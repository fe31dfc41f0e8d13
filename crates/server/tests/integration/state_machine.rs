//! The engine's state machine (DESIGN §3) for every action on every service kind: deploy,
//! restart, stop, uninstall, cancel, and a failure on purpose at each step of each plan.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{config, repository, TestServer};
use serde_json::{json, Value};
use tempfile::TempDir;

/// A service kind: its path, a valid body, and what deploying it runs.
struct Kind {
    path: &'static str,
    body: Value,
    deploy_steps: &'static [&'static str],
    deploy_sub_action: &'static str,
    uninstall_sub_action: &'static str,
}

const BUILD_STEPS: &[&str] = &[
    "REGISTRY_CREATE_REPOSITORY",
    "GIT_CLONE",
    "BUILD_QUEUEING",
    "BUILD",
    "MIRROR_IMAGE",
];

fn kinds(url: &str, registry: &str) -> Vec<Kind> {
    let git = json!({"url": url, "branch": "main"});
    vec![
        Kind {
            path: "application",
            body: json!({"name": "web", "git_repository": git}),
            deploy_steps: &[
                "REGISTRY_CREATE_REPOSITORY",
                "GIT_CLONE",
                "BUILD_QUEUEING",
                "BUILD",
                "DEPLOYMENT_QUEUEING",
                "DEPLOYMENT",
                "ROUTER_DEPLOYMENT",
            ],
            deploy_sub_action: "NONE",
            uninstall_sub_action: "NONE",
        },
        Kind {
            path: "container",
            body: json!({"name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27"}),
            deploy_steps: &[
                "MIRROR_IMAGE",
                "DEPLOYMENT_QUEUEING",
                "DEPLOYMENT",
                "ROUTER_DEPLOYMENT",
            ],
            deploy_sub_action: "NONE",
            uninstall_sub_action: "NONE",
        },
        Kind {
            path: "database",
            body: json!({"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
            deploy_steps: &["DEPLOYMENT_QUEUEING", "DEPLOYMENT"],
            deploy_sub_action: "NONE",
            uninstall_sub_action: "NONE",
        },
        Kind {
            path: "job",
            body: json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                         "source": {"docker": {"git_repository": git}}}),
            deploy_steps: &["BUILD", "DEPLOYMENT_QUEUEING", "EXECUTING"],
            deploy_sub_action: "NONE",
            uninstall_sub_action: "NONE",
        },
        Kind {
            path: "helm",
            body: json!({"name": "redis", "source": {"git": {"git_repository": git, "chart_path": "/redis"}}}),
            deploy_steps: &["DEPLOYMENT_QUEUEING", "DEPLOYMENT"],
            deploy_sub_action: "NONE",
            uninstall_sub_action: "NONE",
        },
        Kind {
            path: "terraform",
            body: json!({"name": "infra", "engine": "TERRAFORM", "backend": {"kubernetes": {}},
                         "terraform_files_source": {"git": {"git_repository": git}}}),
            deploy_steps: &["GIT_CLONE", "BUILD", "DEPLOYMENT_QUEUEING", "DEPLOYMENT"],
            deploy_sub_action: "TERRAFORM_PLAN_AND_APPLY",
            uninstall_sub_action: "TERRAFORM_DESTROY",
        },
    ]
}

/// One service of `kind` in an environment of its own; returns (service, environment).
async fn service_of(server: &TestServer, kind: &Kind) -> (String, String) {
    let project = server.project(&format!("{} project", kind.path)).await;
    let environment = server.environment(&project, "staging").await;
    let reply = server
        .post(
            &format!("/api/environment/{environment}/{}", kind.path),
            kind.body.clone(),
        )
        .await;
    assert_eq!(
        reply.status,
        StatusCode::CREATED,
        "{}: {}",
        kind.path,
        reply.body
    );
    (reply.body["id"].as_str().unwrap().to_string(), environment)
}

/// The steps of a status, as (name, status).
fn steps(status: &Value) -> Vec<(String, String)> {
    status["steps"]["details"]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .map(|step| {
                    (
                        step["step_name"].as_str().unwrap().to_string(),
                        step["status"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn all(names: &[&str], status: &str) -> Vec<(String, String)> {
    names
        .iter()
        .map(|name| (name.to_string(), status.to_string()))
        .collect()
}

/// Asks for `action` on the service, checks the queued answer, and returns the settled status.
async fn run(server: &TestServer, kind: &Kind, id: &str, action: &str, queued: &str) -> Value {
    let reply = server
        .post(&format!("/api/{}/{id}/{action}", kind.path), json!({}))
        .await;
    assert_eq!(
        reply.status,
        StatusCode::ACCEPTED,
        "{} {action}: {}",
        kind.path,
        reply.body
    );
    assert_eq!(reply.body["state"], queued, "{} {action}", kind.path);
    assert_eq!(reply.body["status_details"]["status"], "QUEUED");
    server
        .settled(&format!("/api/{}/{id}/status", kind.path))
        .await
}

async fn set_fail_at(server: &TestServer, variable: &str, value: &str) {
    let reply = server
        .call(
            Method::PUT,
            &format!("/api/variable/{variable}"),
            Some(&format!("Token {}", server.token)),
            Some(&json!({"key": "PLATFORM_FAIL_AT", "value": value}).to_string()),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

async fn a_registry(server: &TestServer) -> String {
    let reply = server
        .post(
            &format!(
                "/api/organization/{}/containerRegistry",
                server.organization_id
            ),
            json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example",
                   "config": {"username": "robot", "password": "registry-password"}}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn every_kind_deploys_restarts_stops_and_uninstalls() {
    let server = TestServer::new().await;
    let (_repository, url) = repository();
    let registry = a_registry(&server).await;
    for kind in kinds(&url, &registry) {
        let (id, _) = service_of(&server, &kind).await;
        let what = kind.path;
        let status = server.get(&format!("/api/{what}/{id}/status")).await.body;
        assert_eq!(status["state"], "READY", "{what}");
        assert_eq!(status["service_deployment_status"], "NEVER_DEPLOYED");
        assert_eq!(status["status_details"]["status"], "NEVER");

        let deployed = run(&server, &kind, &id, "deploy", "DEPLOYMENT_QUEUED").await;
        assert_eq!(deployed["state"], "DEPLOYED", "{what}");
        assert_eq!(deployed["service_deployment_status"], "UP_TO_DATE");
        assert_eq!(deployed["status_details"]["action"], "DEPLOY");
        assert_eq!(deployed["status_details"]["status"], "SUCCESS");
        assert_eq!(
            deployed["status_details"]["sub_action"],
            kind.deploy_sub_action
        );
        assert_eq!(deployed["deployment_requests_count"], 0);
        assert_eq!(
            steps(&deployed),
            all(kind.deploy_steps, "SUCCESS"),
            "{what}"
        );

        let restarted = run(&server, &kind, &id, "restart-service", "RESTART_QUEUED").await;
        assert_eq!(restarted["state"], "RESTARTED", "{what}");
        assert_eq!(restarted["status_details"]["action"], "RESTART");
        assert_eq!(restarted["service_deployment_status"], "UP_TO_DATE");
        assert_eq!(steps(&restarted), all(&["DEPLOYMENT"], "SUCCESS"));

        let stopped = run(&server, &kind, &id, "stop", "STOP_QUEUED").await;
        assert_eq!(stopped["state"], "STOPPED", "{what}");
        assert_eq!(stopped["status_details"]["action"], "STOP");
        let refused = server
            .post(&format!("/api/{what}/{id}/restart-service"), json!({}))
            .await;
        assert_eq!(
            refused.status,
            StatusCode::CONFLICT,
            "{what}: {}",
            refused.body
        );

        let redeployed = run(&server, &kind, &id, "deploy", "DEPLOYMENT_QUEUED").await;
        assert_eq!(redeployed["state"], "DEPLOYED", "{what}");

        let uninstalled = run(&server, &kind, &id, "uninstall", "DELETE_QUEUED").await;
        assert_eq!(uninstalled["state"], "DELETED", "{what}");
        assert_eq!(uninstalled["status_details"]["action"], "DELETE");
        assert_eq!(
            uninstalled["status_details"]["sub_action"],
            kind.uninstall_sub_action
        );
        assert_eq!(uninstalled["service_deployment_status"], "NEVER_DEPLOYED");
        // The configuration stays.
        let kept = server.get(&format!("/api/{what}/{id}")).await;
        assert_eq!(kept.status, StatusCode::OK, "{what}");

        let history = server
            .get(&format!("/api/{what}/{id}/deploymentHistoryV2"))
            .await
            .body;
        let states: Vec<&str> = history["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["status"].as_str().unwrap())
            .collect();
        assert_eq!(
            states,
            ["DELETED", "DEPLOYED", "STOPPED", "RESTARTED", "DEPLOYED"],
            "{what}"
        );
    }
}

#[tokio::test]
async fn every_step_of_every_kind_can_fail_on_purpose() {
    let server = TestServer::new().await;
    let (_repository, url) = repository();
    let registry = a_registry(&server).await;
    for kind in kinds(&url, &registry) {
        let (id, environment) = service_of(&server, &kind).await;
        let what = kind.path;
        let variable = server
            .post(
                &format!("/api/environment/{environment}/environmentVariable"),
                json!({"key": "PLATFORM_FAIL_AT", "value": "NOTHING"}),
            )
            .await;
        assert_eq!(variable.status, StatusCode::CREATED, "{}", variable.body);
        let variable = variable.body["id"].as_str().unwrap().to_string();

        for (position, step) in kind.deploy_steps.iter().enumerate() {
            set_fail_at(&server, &variable, step).await;
            let failed = run(&server, &kind, &id, "deploy", "DEPLOYMENT_QUEUED").await;
            let expected = if BUILD_STEPS.contains(step) {
                "BUILD_ERROR"
            } else {
                "DEPLOYMENT_ERROR"
            };
            assert_eq!(failed["state"], expected, "{what} failing at {step}");
            assert_eq!(failed["status_details"]["status"], "ERROR");
            assert_eq!(failed["service_deployment_status"], "NEVER_DEPLOYED");
            let mut expected_steps = all(&kind.deploy_steps[..position], "SUCCESS");
            expected_steps.push((step.to_string(), "ERROR".to_string()));
            assert_eq!(steps(&failed), expected_steps, "{what} failing at {step}");
        }

        set_fail_at(&server, &variable, "NOTHING").await;
        let deployed = run(&server, &kind, &id, "deploy", "DEPLOYMENT_QUEUED").await;
        assert_eq!(deployed["state"], "DEPLOYED", "{what}");
        for (fail_at, action, queued, error) in [
            (
                "RESTART",
                "restart-service",
                "RESTART_QUEUED",
                "RESTART_ERROR",
            ),
            ("STOP", "stop", "STOP_QUEUED", "STOP_ERROR"),
            ("DELETE", "uninstall", "DELETE_QUEUED", "DELETE_ERROR"),
        ] {
            set_fail_at(&server, &variable, fail_at).await;
            let failed = run(&server, &kind, &id, action, queued).await;
            assert_eq!(failed["state"], error, "{what} {action}");
            assert_eq!(failed["status_details"]["status"], "ERROR");
            assert_eq!(
                steps(&failed),
                all(&["DEPLOYMENT"], "ERROR"),
                "{what} {action}"
            );
        }
        let log = server.service_log(&id, None, Some(1)).await;
        assert!(
            log.to_string()
                .contains("failed on purpose (PLATFORM_FAIL_AT=DELETE)"),
            "{what}: {log}"
        );
    }
}

#[tokio::test]
async fn every_kind_can_be_canceled_while_it_deploys() {
    let dir = TempDir::new().unwrap();
    let mut slow = config(&dir);
    // Slow enough that the first step is still running when the cancel arrives.
    slow.engine_speed = 5.0;
    let server = TestServer::with_config(dir, slow).await;
    let (_repository, url) = repository();
    let registry = a_registry(&server).await;
    for kind in kinds(&url, &registry) {
        let (id, _) = service_of(&server, &kind).await;
        let what = kind.path;
        let status_path = format!("/api/{what}/{id}/status");
        server
            .post(&format!("/api/{what}/{id}/deploy"), json!({}))
            .await;
        // Wait for the first step, so that the cancel ends a running step.
        for _ in 0..500 {
            if server.get(&status_path).await.body["status_details"]["status"] == "ONGOING" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let canceling = server
            .post(&format!("/api/{what}/{id}/cancel"), json!({}))
            .await;
        assert_eq!(
            canceling.status,
            StatusCode::ACCEPTED,
            "{what}: {}",
            canceling.body
        );
        assert_eq!(canceling.body["state"], "CANCELING", "{what}");
        assert_eq!(canceling.body["status_details"]["status"], "CANCELING");
        let canceled = server.settled(&status_path).await;
        assert_eq!(canceled["state"], "CANCELED", "{what}");
        assert_eq!(canceled["status_details"]["status"], "CANCELED");
        assert_eq!(canceled["service_deployment_status"], "NEVER_DEPLOYED");
        assert_eq!(canceled["deployment_requests_count"], 0);
        let steps = steps(&canceled);
        assert_eq!(
            steps,
            [(kind.deploy_steps[0].to_string(), "CANCEL".to_string())],
            "{what}"
        );
    }
}

#[tokio::test]
async fn a_terraform_plan_applies_nothing() {
    let server = TestServer::new().await;
    let (_repository, url) = repository();
    let kinds = kinds(&url, "");
    let terraform = kinds.iter().find(|k| k.path == "terraform").unwrap();
    let (id, environment) = service_of(&server, terraform).await;
    let deploy = format!("/api/terraform/{id}/deploy");
    let status_path = format!("/api/terraform/{id}/status");

    let planning = server.post(&deploy, json!({"plan_only": true})).await;
    assert_eq!(planning.status, StatusCode::ACCEPTED, "{}", planning.body);
    assert_eq!(
        planning.body["status_details"]["sub_action"],
        "TERRAFORM_PLAN_ONLY"
    );
    let planned = server.settled(&status_path).await;
    assert_eq!(planned["state"], "READY");
    assert_eq!(planned["service_deployment_status"], "NEVER_DEPLOYED");
    assert_eq!(planned["status_details"]["status"], "SUCCESS");
    assert_eq!(steps(&planned), all(&["GIT_CLONE", "BUILD"], "SUCCESS"));

    server.post(&deploy, json!({})).await;
    assert_eq!(server.settled(&status_path).await["state"], "DEPLOYED");
    server.post(&deploy, json!({"plan_only": true})).await;
    let replanned = server.settled(&status_path).await;
    assert_eq!(replanned["state"], "DEPLOYED");
    assert_eq!(replanned["service_deployment_status"], "UP_TO_DATE");
    let history = server
        .get(&format!("/api/terraform/{id}/deploymentHistoryV2"))
        .await
        .body;
    let sub_actions: Vec<&str> = history["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["status_details"]["sub_action"].as_str().unwrap())
        .collect();
    assert_eq!(
        sub_actions,
        [
            "TERRAFORM_PLAN_ONLY",
            "TERRAFORM_PLAN_AND_APPLY",
            "TERRAFORM_PLAN_ONLY"
        ]
    );

    // Only terraform services plan.
    let application = server.application(&environment, "web").await;
    let refused = server
        .post(
            &format!("/api/application/{application}/deploy"),
            json!({"plan_only": true}),
        )
        .await;
    common::assert_invalid_fields(&refused, &["plan_only"]);
}

#[tokio::test]
async fn a_total_is_never_shown_below_the_sum_of_its_steps() {
    let dir = TempDir::new().unwrap();
    let mut real_ish = config(&dir);
    // A plan then takes about 0.8 s in all, its BUILD step 0.6 s: rounded, the step says 1 s.
    real_ish.engine_speed = 20.0;
    let server = TestServer::with_config(dir, real_ish).await;
    let (_repository, url) = repository();
    let kinds = kinds(&url, "");
    let terraform = kinds.iter().find(|k| k.path == "terraform").unwrap();
    let (id, _) = service_of(&server, terraform).await;
    server
        .post(
            &format!("/api/terraform/{id}/deploy"),
            json!({"plan_only": true}),
        )
        .await;
    let planned = server.settled(&format!("/api/terraform/{id}/status")).await;
    let parts: i64 = planned["steps"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| step["duration_sec"].as_i64().unwrap())
        .sum();
    assert!(parts >= 1, "{planned}");
    let total = planned["steps"]["total_duration_sec"].as_i64().unwrap();
    assert!(total >= parts, "total {total} s below its steps' {parts} s");
}
