//! Every endpoint of the first slice: success, 400, 401, 403, 404 and 409, through the router.

mod common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::json;

const UNKNOWN: &str = "00000000-0000-4000-8000-000000000000";

/// Every route of this slice with a body that would succeed: (method, path, body).
async fn routes(server: &TestServer) -> Vec<(Method, String, Option<String>)> {
    let (project, environment, application) = server.hierarchy().await;
    let org = &server.organization_id;
    vec![
        (Method::GET, "/api/organization".into(), None),
        (
            Method::GET,
            format!("/api/organization/{org}/project"),
            None,
        ),
        (
            Method::POST,
            format!("/api/organization/{org}/project"),
            Some(json!({"name": "another"}).to_string()),
        ),
        (Method::GET, format!("/api/project/{project}"), None),
        (
            Method::GET,
            format!("/api/project/{project}/environment"),
            None,
        ),
        (
            Method::POST,
            format!("/api/project/{project}/environment"),
            Some(json!({"name": "prod", "mode": "PRODUCTION"}).to_string()),
        ),
        (Method::GET, format!("/api/environment/{environment}"), None),
        (
            Method::GET,
            format!("/api/environment/{environment}/statuses"),
            None,
        ),
        (
            Method::GET,
            format!("/api/environment/{environment}/application"),
            None,
        ),
        (
            Method::POST,
            format!("/api/environment/{environment}/application"),
            Some(
                json!({"name": "api", "git_repository": {"url": "https://g.example/a.git"}})
                    .to_string(),
            ),
        ),
        (Method::GET, format!("/api/application/{application}"), None),
        (
            Method::GET,
            format!("/api/application/{application}/status"),
            None,
        ),
        (
            Method::POST,
            format!("/api/application/{application}/deploy"),
            Some("{}".into()),
        ),
    ]
}

#[tokio::test]
async fn every_route_answers_401_without_a_valid_token() {
    let server = TestServer::new().await;
    for (method, path, body) in routes(&server).await {
        for authorization in [
            None,
            Some("Token pt_unknown"),
            Some("Basic abc"),
            Some("Token"),
        ] {
            let reply = server
                .call(method.clone(), &path, authorization, body.as_deref())
                .await;
            assert_error(&reply, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
        }
    }
}

#[tokio::test]
async fn read_role_reads_but_cannot_write_or_deploy() {
    let server = TestServer::new().await;
    let read = format!("Token {}", server.token_with_role("READ").await);
    for (method, path, body) in routes(&server).await {
        let reply = server
            .call(method.clone(), &path, Some(&read), body.as_deref())
            .await;
        if method == Method::GET {
            assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
        } else {
            assert_error(&reply, StatusCode::FORBIDDEN, "FORBIDDEN");
        }
    }
}

#[tokio::test]
async fn deploy_role_deploys_but_cannot_create() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let deploy = format!("Token {}", server.token_with_role("DEPLOY").await);
    let reply = server
        .call(
            Method::POST,
            &format!("/api/application/{application}/deploy"),
            Some(&deploy),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.body);
    let reply = server
        .call(
            Method::POST,
            &format!("/api/environment/{environment}/application"),
            Some(&deploy),
            Some(
                &json!({"name": "x", "git_repository": {"url": "https://g.example/x"}}).to_string(),
            ),
        )
        .await;
    assert_error(&reply, StatusCode::FORBIDDEN, "FORBIDDEN");
}

#[tokio::test]
async fn unknown_ids_answer_404_and_malformed_ids_400() {
    let server = TestServer::new().await;
    for path in [
        format!("/api/organization/{UNKNOWN}/project"),
        format!("/api/project/{UNKNOWN}"),
        format!("/api/project/{UNKNOWN}/environment"),
        format!("/api/environment/{UNKNOWN}"),
        format!("/api/environment/{UNKNOWN}/statuses"),
        format!("/api/environment/{UNKNOWN}/application"),
        format!("/api/application/{UNKNOWN}"),
        format!("/api/application/{UNKNOWN}/status"),
    ] {
        assert_error(&server.get(&path).await, StatusCode::NOT_FOUND, "NOT_FOUND");
        let malformed = path.replace(UNKNOWN, "not-a-uuid");
        assert_error(
            &server.get(&malformed).await,
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
        );
    }
    let reply = server
        .post(&format!("/api/application/{UNKNOWN}/deploy"), json!({}))
        .await;
    assert_error(&reply, StatusCode::NOT_FOUND, "NOT_FOUND");
}

#[tokio::test]
async fn another_organizations_records_are_not_found() {
    let first = TestServer::new().await;
    let (project, _, application) = first.hierarchy().await;
    let second = TestServer::new().await;
    assert_error(
        &second.get(&format!("/api/project/{project}")).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    // The second server has its own database; within one database, scope is by organization.
    let foreign_org = format!("/api/organization/{}/project", second.organization_id);
    assert_error(
        &first.get(&foreign_org).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    assert_eq!(
        first
            .get(&format!("/api/application/{application}"))
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn organization_is_the_callers() {
    let server = TestServer::new().await;
    let reply = server.get("/api/organization").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["name"], "My organization");
    assert!(reply.body["created_at"].is_string());
}

#[tokio::test]
async fn projects_are_created_listed_and_unique() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/project", server.organization_id);
    let reply = server
        .post(&path, json!({"name": "shop", "description": "The shop"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED);
    assert_eq!(reply.body["name"], "shop");
    assert_eq!(reply.body["organization"]["id"], server.organization_id);
    let id = reply.body["id"].as_str().unwrap().to_string();

    let list = server.get(&path).await;
    assert_eq!(list.body["results"][0]["id"], id);
    assert_eq!(
        server.get(&format!("/api/project/{id}")).await.body["description"],
        "The shop"
    );

    let taken = server.post(&path, json!({"name": "SHOP"})).await;
    assert_error(&taken, StatusCode::CONFLICT, "CONFLICT");
    assert_eq!(taken.body["fields"][0]["field"], "name");

    assert_invalid_fields(&server.post(&path, json!({})).await, &["name"]);
    assert_invalid_fields(
        &server
            .post(&path, json!({"name": " ", "description": "d".repeat(256)}))
            .await,
        &["name", "description"],
    );
    assert_invalid_fields(&server.post(&path, json!({"name": 3})).await, &["name"]);
    let not_json = server
        .call(
            Method::POST,
            &path,
            Some(&format!("Token {}", server.token)),
            Some("{name"),
        )
        .await;
    assert_error(&not_json, StatusCode::BAD_REQUEST, "BAD_REQUEST");
}

#[tokio::test]
async fn environments_are_created_with_a_mode() {
    let server = TestServer::new().await;
    let project = server.project("shop").await;
    let path = format!("/api/project/{project}/environment");
    let reply = server
        .post(&path, json!({"name": "production", "mode": "PRODUCTION"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(reply.body["mode"], "PRODUCTION");
    assert_eq!(reply.body["project"]["id"], project);
    let id = reply.body["id"].as_str().unwrap();
    assert_eq!(
        server.get(&format!("/api/environment/{id}")).await.body["name"],
        "production"
    );
    assert_eq!(
        server.get(&path).await.body["results"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    assert_invalid_fields(
        &server
            .post(&path, json!({"name": "x", "mode": "TESTING"}))
            .await,
        &["mode"],
    );
    assert_invalid_fields(&server.post(&path, json!({"name": "x"})).await, &["mode"]);
    assert_error(
        &server
            .post(&path, json!({"name": "production", "mode": "STAGING"}))
            .await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
}

#[tokio::test]
async fn applications_carry_every_field_of_the_spec() {
    let server = TestServer::new().await;
    let project = server.project("shop").await;
    let environment = server.environment(&project, "staging").await;
    let path = format!("/api/environment/{environment}/application");
    let reply = server
        .post(
            &path,
            json!({
                "name": "web",
                "git_repository": {"url": "https://git.example.com/acme/web.git", "branch": "trunk"},
                "build_mode": "DOCKER",
                "dockerfile_path": "Dockerfile",
                "cpu": 250,
                "memory": 256,
                "min_running_instances": 1,
                "max_running_instances": 2,
                "ports": [{"internal_port": 8080, "external_port": 443, "protocol": "HTTP", "publicly_accessible": true}],
                "healthchecks": {"readiness_probe": {"type": {"http": {"path": "/health", "scheme": "HTTP", "port": 8080}},
                    "initial_delay_seconds": 5, "period_seconds": 10, "timeout_seconds": 2,
                    "success_threshold": 1, "failure_threshold": 3}, "liveness_probe": null}
            }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let app = &reply.body;
    for field in [
        "id",
        "created_at",
        "updated_at",
        "environment",
        "name",
        "description",
        "icon_uri",
        "service_type",
        "build_mode",
        "dockerfile_path",
        "docker_target_build_stage",
        "git_repository",
        "cpu",
        "memory",
        "gpu",
        "maximum_cpu",
        "maximum_memory",
        "maximun_gpu",
        "min_running_instances",
        "max_running_instances",
        "auto_preview",
        "auto_deploy",
        "arguments",
        "entrypoint",
        "storage",
        "ports",
        "healthchecks",
        "annotations_groups",
        "labels_groups",
        "autoscaling",
    ] {
        assert!(app.get(field).is_some(), "missing {field}: {app}");
    }
    assert_eq!(app["environment"]["id"], environment);
    assert_eq!(app["git_repository"]["branch"], "trunk");
    assert_eq!(app["git_repository"]["owner"], "acme");
    assert_eq!(app["ports"][0]["is_default"], true);
    assert_eq!(
        app["healthchecks"]["readiness_probe"]["type"]["http"]["path"],
        "/health"
    );
    let id = app["id"].as_str().unwrap();
    assert_eq!(
        &server.get(&format!("/api/application/{id}")).await.body,
        app
    );
    assert_eq!(server.get(&path).await.body["results"][0]["id"], id);

    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"name": "x", "git_repository": {"url": "ftp://x"}, "cpu": 0, "ports": [{"internal_port": 0}]}),
            )
            .await,
        &["git_repository.url", "cpu", "ports[0].internal_port"],
    );
    assert_invalid_fields(
        &server.post(&path, json!({"name": "x"})).await,
        &["git_repository"],
    );
    assert_invalid_fields(
        &server
            .post(&path, json!({"name": "x", "git_repository": {}}))
            .await,
        &["git_repository.url"],
    );
    assert_error(
        &server
            .post(
                &path,
                json!({"name": "web", "git_repository": {"url": "https://g.example/w"}}),
            )
            .await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
}

#[tokio::test]
async fn a_new_application_was_never_deployed() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let status = server
        .get(&format!("/api/application/{application}/status"))
        .await
        .body;
    assert_eq!(status["id"], application);
    assert_eq!(status["state"], "READY");
    assert_eq!(status["service_deployment_status"], "NEVER_DEPLOYED");
    assert_eq!(status["deployment_request_id"], serde_json::Value::Null);
    assert_eq!(status["steps"], serde_json::Value::Null);
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    assert_eq!(statuses["environment"]["state"], "READY");
    assert_eq!(statuses["applications"][0], status);
    for kind in ["containers", "jobs", "databases", "helms", "terraforms"] {
        assert_eq!(statuses[kind], json!([]), "{kind}");
    }
}

#[tokio::test]
async fn unknown_paths_and_methods_answer_in_the_error_body() {
    let server = TestServer::new().await;
    assert_error(
        &server.get("/api/nothing-here").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    let reply = server
        .call(
            Method::DELETE,
            "/api/organization",
            Some(&format!("Token {}", server.token)),
            None,
        )
        .await;
    assert_error(&reply, StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED");
}
