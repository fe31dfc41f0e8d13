//! Every endpoint: success, 400, 403, 404 and 409, through the router (401 and the permission of
//! every route are in auth.rs).

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::json;

const UNKNOWN: &str = "00000000-0000-4000-8000-000000000000";

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
            "VALIDATION_ERROR",
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
    assert_eq!(reply.body["results"].as_array().unwrap().len(), 1);
    assert_eq!(reply.body["results"][0]["name"], "My organization");
    assert!(reply.body["results"][0]["created_at"].is_string());
    let one = server
        .get(&format!("/api/organization/{}", server.organization_id))
        .await;
    assert_eq!(one.body, reply.body["results"][0]);
}

#[tokio::test]
async fn projects_are_created_listed_and_unique() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/project", server.organization_id);
    let reply = server
        .post(&path, json!({"name": "shop", "description": "The shop"}))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
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
async fn the_project_list_is_paged_when_asked_and_whole_otherwise() {
    let server = TestServer::new().await;
    for name in ["a", "b", "c", "d", "e"] {
        server.project(name).await;
    }
    let path = format!("/api/organization/{}/project", server.organization_id);
    let names = |reply: &common::Reply| -> Vec<String> {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|project| project["name"].as_str().unwrap().to_string())
            .collect()
    };
    // As the production API, which pages nothing here: every project.
    assert_eq!(names(&server.get(&path).await), ["a", "b", "c", "d", "e"]);
    assert_eq!(
        names(&server.get(&format!("{path}?pageSize=2&page=2")).await),
        ["c", "d"]
    );
    assert_eq!(
        names(&server.get(&format!("{path}?pageSize=2")).await),
        ["a", "b"]
    );
    assert!(names(&server.get(&format!("{path}?pageSize=2&page=1000000")).await).is_empty());
    assert_invalid_fields(
        &server
            .get(&format!("{path}?pageSize=1001&page=9223372036854775807"))
            .await,
        &["pageSize", "page"],
    );
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
    // An environment's name goes into addresses: no spaces or punctuation.
    let badly_named = server
        .post(
            &path,
            json!({"name": "Bad Name!! with spaces", "mode": "DEVELOPMENT"}),
        )
        .await;
    assert_invalid_fields(&badly_named, &["name"]);
    assert!(badly_named
        .body
        .to_string()
        .contains("only letters, digits, hyphens"));
    // The platform's default mode.
    let unnamed_mode = server.post(&path, json!({"name": "x"})).await;
    assert_eq!(
        unnamed_mode.status,
        StatusCode::CREATED,
        "{}",
        unnamed_mode.body
    );
    assert_eq!(unnamed_mode.body["mode"], "DEVELOPMENT");
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
    let (_, environment) = server.staging().await;
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
    // Every field of spec 2.4 the platform requires, or that the request set.
    for field in [
        "id",
        "created_at",
        "environment",
        "name",
        "icon_uri",
        "service_type",
        "build_mode",
        "dockerfile_path",
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
        "storage",
        "ports",
        "healthchecks",
        "annotations_groups",
        "labels_groups",
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

#[tokio::test]
async fn projects_are_renamed_and_deleted_with_what_they_hold() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let other = server.project("other").await;
    let path = format!("/api/project/{project}");
    let auth = format!("Token {}", server.token);
    let put = |body: serde_json::Value| {
        let (server, path, auth) = (&server, path.clone(), auth.clone());
        async move {
            server
                .call(Method::PUT, &path, Some(&auth), Some(&body.to_string()))
                .await
        }
    };

    let renamed = put(json!({"name": "boutique", "description": "Renamed"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["name"], "boutique");
    assert!(renamed.body["updated_at"].is_string());
    assert_eq!(server.get(&path).await.body["description"], "Renamed");
    assert_error(
        &put(json!({"name": "OTHER"})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    assert_invalid_fields(&put(json!({"name": ""})).await, &["name"]);

    let deleted = server.call(Method::DELETE, &path, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    for gone in [
        path.clone(),
        format!("/api/environment/{environment}"),
        format!("/api/application/{application}"),
    ] {
        assert_error(&server.get(&gone).await, StatusCode::NOT_FOUND, "NOT_FOUND");
    }
    assert_eq!(
        server.get(&format!("/api/project/{other}")).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn environments_are_updated_and_deleted() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let other = server.environment(&project, "production").await;
    let path = format!("/api/environment/{environment}");
    let auth = format!("Token {}", server.token);
    let reply = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(&json!({"name": "preview", "mode": "PREVIEW"}).to_string()),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["mode"], "PREVIEW");
    let taken = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(&json!({"name": "Production", "mode": "PREVIEW"}).to_string()),
        )
        .await;
    assert_error(&taken, StatusCode::CONFLICT, "CONFLICT");

    let deleted = server.call(Method::DELETE, &path, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_error(&server.get(&path).await, StatusCode::NOT_FOUND, "NOT_FOUND");
    assert_error(
        &server.get(&format!("/api/application/{application}")).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    assert_eq!(
        server
            .get(&format!("/api/environment/{other}"))
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn an_updated_application_is_out_of_date_until_deployed_again() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}");
    let auth = format!("Token {}", server.token);
    server.post(&format!("{path}/deploy"), json!({})).await;
    assert_eq!(
        server.settled_status(&application).await["service_deployment_status"],
        "UP_TO_DATE"
    );

    let before = server.get(&path).await.body;
    let reply = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(&json!({"name": "web", "git_repository": {"url": "https://git.example.com/a/b.git"}, "cpu": 1000}).to_string()),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["cpu"], 1000);
    assert_eq!(reply.body["created_at"], before["created_at"]);
    assert_eq!(server.get(&path).await.body["cpu"], 1000);
    let status = server.get(&format!("{path}/status")).await.body;
    assert_eq!(status["service_deployment_status"], "OUT_OF_DATE");
    assert_eq!(status["state"], "DEPLOYED");

    let invalid = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(&json!({"name": "web", "git_repository": {"url": "x"}}).to_string()),
        )
        .await;
    assert_invalid_fields(&invalid, &["git_repository.url"]);
}

#[tokio::test]
async fn nothing_is_deleted_while_a_deployment_runs() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let auth = format!("Token {}", server.token);
    // Put the service in an in-progress state, as the engine does while it works.
    sqlx::query("UPDATE service_statuses SET state = 'BUILDING' WHERE service_id = ?")
        .bind(&application)
        .execute(&server.state.db)
        .await
        .unwrap();
    for path in [
        format!("/api/application/{application}"),
        format!("/api/environment/{environment}"),
        format!("/api/project/{project}"),
    ] {
        let reply = server.call(Method::DELETE, &path, Some(&auth), None).await;
        assert_error(&reply, StatusCode::CONFLICT, "CONFLICT");
        assert_eq!(server.get(&path).await.status, StatusCode::OK);
    }
}

#[tokio::test]
async fn bodies_are_json_of_a_bounded_size() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/project", server.organization_id);
    let auth = format!("Token {}", server.token);
    // A body the client did not say was JSON is not read as JSON.
    let request = axum::http::Request::builder()
        .method(Method::POST)
        .uri(&path)
        .header("Authorization", &auth)
        .header("Content-Type", "text/plain")
        .body(axum::body::Body::from(r#"{"name": "plain"}"#))
        .unwrap();
    let plain = server.send(request).await;
    assert_error(
        &plain,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
    );
    // A body over the limit answers 413 in the error body.
    let huge = json!({"name": "big", "description": "x".repeat(10 * 1024 * 1024)}).to_string();
    let too_large = server
        .call(Method::POST, &path, Some(&auth), Some(&huge))
        .await;
    assert_error(
        &too_large,
        StatusCode::PAYLOAD_TOO_LARGE,
        "PAYLOAD_TOO_LARGE",
    );
    // An action without a body needs no content type.
    assert_eq!(server.get(&path).await.status, StatusCode::OK);
}

#[tokio::test]
async fn names_show_what_they_are_and_values_are_bounded() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/project", server.organization_id);
    for name in ["a\u{0}b", "two\nlines", "invoice\u{202E}fdp.exe"] {
        assert_invalid_fields(&server.post(&path, json!({"name": name})).await, &["name"]);
    }
    let (_, _, application) = server.hierarchy().await;
    let variables = format!("/api/application/{application}/environmentVariable");
    let huge = "x".repeat(70 * 1024);
    assert_invalid_fields(
        &server
            .post(&variables, json!({"key": "BIG", "value": huge}))
            .await,
        &["value"],
    );
    let fits = "x".repeat(60 * 1024);
    let kept = server
        .post(&variables, json!({"key": "FITS", "value": fits}))
        .await;
    assert_eq!(kept.status, StatusCode::CREATED, "{}", kept.body);
}

#[tokio::test]
async fn fields_nobody_knows_are_refused_by_name() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/project", server.organization_id);
    let refused = server
        .post(
            &path,
            json!({"name": "shop", "id": "8a6b3d1e-9f0c-4c1b-a7d2-0f3e5b6c7d8e", "colour": "red"}),
        )
        .await;
    assert_invalid_fields(&refused, &["colour", "id"]);
    // A field of the production platform's document that this server leaves alone is taken.
    let (_, environment, _) = server.hierarchy().await;
    let taken = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER",
                   "icon_uri": "https://example.com/db.svg"}),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CREATED, "{}", taken.body);
}

#[tokio::test]
async fn long_addresses_and_large_headers_answer_in_the_error_body() {
    let server = TestServer::new().await;
    let long = format!(
        "/api/organization/{}/project?{}",
        server.organization_id,
        "a=b&".repeat(3000)
    );
    assert_error(
        &server.get(&long).await,
        StatusCode::URI_TOO_LONG,
        "URI_TOO_LONG",
    );
    let request = axum::http::Request::builder()
        .uri(format!(
            "/api/organization/{}/project",
            server.organization_id
        ))
        .header("Authorization", format!("Token {}", server.token))
        .header("X-Padding", "p".repeat(40 * 1024))
        .body(axum::body::Body::empty())
        .unwrap();
    assert_error(
        &server.send(request).await,
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        "HEADERS_TOO_LARGE",
    );
}

/// A path or query parameter that does not read is named in `fields`, as a body's field is.
#[tokio::test]
async fn path_and_query_errors_name_their_parameter() {
    let server = TestServer::new().await;
    let path = server.get("/api/application/not-a-uuid/status").await;
    assert_invalid_fields(&path, &["application_id"]);
    assert!(
        path.body["fields"][0]["message"]
            .as_str()
            .unwrap()
            .contains("not-a-uuid"),
        "{}",
        path.body
    );
    let (_, environment, _) = server.hierarchy().await;
    let two = server
        .get(&format!(
            "/api/environment/{environment}/environmentVariable/nope"
        ))
        .await;
    assert_invalid_fields(&two, &["variable_id"]);
    let query = server
        .get(&format!(
            "/api/variable?parent_id={environment}&scope=ENVIRONMENT&pageSize=many"
        ))
        .await;
    assert_invalid_fields(&query, &["pageSize"]);
    let body = server
        .post(
            &format!("/api/environment/{environment}/environmentVariable"),
            json!("text"),
        )
        .await;
    assert_invalid_fields(&body, &["body"]);
}
