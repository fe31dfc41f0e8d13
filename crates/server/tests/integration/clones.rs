//! Copies of an environment and of a service: every service, variable and secret copied inside
//! the server (no answer holds a secret's value), aliases pointing at the copies, nothing
//! started; names taken, unknown clusters, projects and environments refused with their field.

use crate::common;

use axum::http::StatusCode;
use common::{
    assert_error, assert_invalid_fields, records, TestServer, REGISTRY_PASSWORD, TERRAFORM_SECRET,
    VARIABLE_SECRET,
};
use serde_json::{json, Value};

fn secret_free(reply: &Value) {
    let body = reply.to_string();
    for secret in [VARIABLE_SECRET, TERRAFORM_SECRET, REGISTRY_PASSWORD] {
        assert!(!body.contains(secret), "an answer holds a secret: {body}");
    }
}

/// Each variable seen at a parent: key → (is_secret, value, alias or override target's key).
async fn variables(server: &TestServer, scope: &str, parent: &str) -> Vec<Value> {
    let reply = server
        .get(&format!("/api/variable?parent_id={parent}&scope={scope}"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    secret_free(&reply.body);
    reply.body["results"].as_array().unwrap().clone()
}

/// The keys of the variables defined by people (not those the platform makes of the services).
fn keys(variables: &[Value]) -> Vec<String> {
    let mut keys: Vec<String> = variables
        .iter()
        .filter(|v| v["scope"] != "BUILT_IN")
        .map(|v| v["key"].as_str().unwrap().to_string())
        .collect();
    keys.sort();
    keys
}

async fn sealed_values(server: &TestServer, parent: &str) -> Vec<String> {
    sqlx::query_as::<_, (String,)>(
        "SELECT secret_value FROM variables WHERE parent_id = ? AND is_secret = 1 ORDER BY key",
    )
    .bind(parent)
    .fetch_all(&server.state.db)
    .await
    .unwrap()
    .into_iter()
    .map(|(value,)| value)
    .collect()
}

#[tokio::test]
async fn an_environment_is_copied_with_its_services_variables_and_secrets() {
    let server = TestServer::new().await;
    let records = records(&server).await;
    let environment = records.id("environment_id");
    let application = records.id("application_id");
    // An environment variable, and an alias of it on the application.
    let region = server
        .post(
            "/api/variable",
            json!({"key": "REGION", "value": "eu", "variable_scope": "ENVIRONMENT",
                   "variable_parent_id": environment}),
        )
        .await;
    assert_eq!(region.status, StatusCode::CREATED, "{}", region.body);
    let alias = server
        .post(
            &format!("/api/variable/{}/alias", region.body["id"].as_str().unwrap()),
            json!({"key": "APP_REGION", "alias_scope": "APPLICATION", "alias_parent_id": application}),
        )
        .await;
    assert_eq!(alias.status, StatusCode::CREATED, "{}", alias.body);
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    server.settled_status(application).await;

    let clone = server
        .post(
            &format!("/api/environment/{environment}/clone"),
            json!({"name": "preview-1", "mode": "PREVIEW"}),
        )
        .await;
    assert_eq!(clone.status, StatusCode::ACCEPTED, "{}", clone.body);
    secret_free(&clone.body);
    assert_eq!(clone.body["name"], "preview-1");
    assert_eq!(clone.body["mode"], "PREVIEW");
    let original = server
        .get(&format!("/api/environment/{environment}"))
        .await
        .body;
    assert_eq!(clone.body["cluster_id"], original["cluster_id"]);
    assert_eq!(clone.body["project"], original["project"]);
    let copy = clone.body["id"].as_str().unwrap().to_string();

    // Every service, of every kind, under the same names; none deployed.
    let listed = |environment: String| {
        let server = &server;
        async move {
            let reply = server
                .get(&format!("/api/environment/{environment}/services"))
                .await;
            secret_free(&reply.body);
            let mut names: Vec<(String, String)> = reply.body["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s["name"].as_str().unwrap().to_string(),
                        s["service_type"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            names.sort();
            (names, reply.body)
        }
    };
    let (originals, _) = listed(environment.to_string()).await;
    let (copies, copied) = listed(copy.clone()).await;
    assert_eq!(copies, originals);
    assert_eq!(copies.len(), 7);
    let statuses = server
        .get(&format!("/api/environment/{copy}/statuses"))
        .await
        .body;
    for status in statuses["applications"].as_array().unwrap() {
        assert_eq!(status["state"], "READY");
        assert_eq!(status["service_deployment_status"], "NEVER_DEPLOYED");
    }
    let web = copied["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "web")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let record = server.get(&format!("/api/application/{web}")).await.body;
    assert_eq!(record["environment"]["id"], copy.as_str());
    assert!(record["git_repository"]["deployed_commit_id"].is_null());
    let terraform = copied["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["service_type"] == "TERRAFORM")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    secret_free(
        &server
            .get(&format!("/api/terraform/{terraform}"))
            .await
            .body,
    );

    // Variables and secrets, the alias pointing at the copy of its target.
    let seen = variables(&server, "APPLICATION", &web).await;
    assert_eq!(
        keys(&seen),
        keys(&variables(&server, "APPLICATION", application).await)
    );
    let app_region = seen.iter().find(|v| v["key"] == "APP_REGION").unwrap();
    let copied_region = seen.iter().find(|v| v["key"] == "REGION").unwrap();
    assert_eq!(app_region["aliased_variable"]["id"], copied_region["id"]);
    assert_ne!(copied_region["id"], region.body["id"]);
    let secret = seen.iter().find(|v| v["key"] == "API_KEY").unwrap();
    assert_eq!(secret["is_secret"], true);
    assert!(secret["value"].is_null());
    // The sealed value itself was copied, inside the server.
    let copied_secrets = sealed_values(&server, &web).await;
    assert_eq!(copied_secrets, sealed_values(&server, application).await);
    assert!(copied_secrets[0].starts_with("sealed:v1:"));

    // The copy deploys on its own; the original is untouched.
    let deployed = server
        .post(&format!("/api/environment/{copy}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    let original_status = server
        .get(&format!("/api/application/{application}/status"))
        .await
        .body;
    assert_eq!(original_status["state"], "DEPLOYED");

    // Refusals name their field.
    let taken = server
        .post(
            &format!("/api/environment/{environment}/clone"),
            json!({"name": "PREVIEW-1"}),
        )
        .await;
    assert_error(&taken, StatusCode::CONFLICT, "CONFLICT");
    assert_eq!(taken.body["fields"][0]["field"], "name");
    for (body, field) in [
        (json!({"name": "no spaces"}), "name"),
        (
            json!({"name": "p2", "cluster_id": uuid::Uuid::new_v4()}),
            "cluster_id",
        ),
        (
            json!({"name": "p2", "project_id": uuid::Uuid::new_v4()}),
            "project_id",
        ),
    ] {
        let refused = server
            .post(&format!("/api/environment/{environment}/clone"), body)
            .await;
        assert_invalid_fields(&refused, &[field]);
    }
    // Nothing half-written by the refusals.
    let project = original["project"]["id"].as_str().unwrap();
    let environments = server
        .get(&format!("/api/project/{project}/environment"))
        .await
        .body;
    assert_eq!(environments["results"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn an_environment_copied_to_another_project_leaves_out_what_it_cannot_reach() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let shared = server
        .post(
            "/api/variable",
            json!({"key": "SHARED", "value": "1", "variable_scope": "PROJECT", "variable_parent_id": project}),
        )
        .await;
    let aliased = server
        .post(
            &format!("/api/variable/{}/alias", shared.body["id"].as_str().unwrap()),
            json!({"key": "MY_SHARED", "alias_scope": "APPLICATION", "alias_parent_id": application}),
        )
        .await;
    assert_eq!(aliased.status, StatusCode::CREATED, "{}", aliased.body);
    server
        .post(
            &format!("/api/application/{application}/environmentVariable"),
            json!({"key": "OWN", "value": "2"}),
        )
        .await;
    let other = server.project("other").await;
    let clone = server
        .post(
            &format!("/api/environment/{environment}/clone"),
            json!({"name": "copy", "project_id": other}),
        )
        .await;
    assert_eq!(clone.status, StatusCode::ACCEPTED, "{}", clone.body);
    assert_eq!(clone.body["project"]["id"], other.as_str());
    let copy = clone.body["id"].as_str().unwrap();
    let services = server
        .get(&format!("/api/environment/{copy}/services"))
        .await
        .body;
    let web = services["results"][0]["id"].as_str().unwrap();
    // The alias of the first project's variable stays behind; the service's own comes along.
    let seen = keys(&variables(&server, "APPLICATION", web).await);
    assert!(seen.contains(&"OWN".to_string()), "{seen:?}");
    assert!(!seen.contains(&"MY_SHARED".to_string()), "{seen:?}");
    assert!(!seen.contains(&"SHARED".to_string()), "{seen:?}");
    // And says so: in the answer, and in the log.
    assert_eq!(
        clone.body["left_out_variables"],
        json!([{"key": "MY_SHARED", "scope": "APPLICATION", "variable_type": "ALIAS",
                "reason": "its variable is defined where the copy does not see it"}]),
        "{}",
        clone.body
    );
    let logged: String = sqlx::query_scalar(
        "SELECT change FROM audit_events WHERE event_type = 'CLONE' ORDER BY at_nanos DESC LIMIT 1",
    )
    .fetch_one(&server.state.db)
    .await
    .unwrap();
    assert!(logged.contains("MY_SHARED"), "{logged}");
}

#[tokio::test]
async fn a_service_is_copied_into_an_environment() {
    let server = TestServer::new().await;
    let records = records(&server).await;
    let environment = records.id("environment_id");
    let container = records.id("container_id");
    let clone = server
        .post(
            &format!("/api/container/{container}/clone"),
            json!({"name": "nginx-2", "environment_id": environment}),
        )
        .await;
    assert_eq!(clone.status, StatusCode::ACCEPTED, "{}", clone.body);
    secret_free(&clone.body);
    assert_eq!(clone.body["name"], "nginx-2");
    assert_eq!(clone.body["image_name"], "library/nginx");
    assert_eq!(clone.body["registry"]["name"], "hub");
    assert_ne!(clone.body["id"], container);

    let application = records.id("application_id");
    let original = server
        .get(&format!("/api/environment/{environment}"))
        .await
        .body;
    let project = original["project"]["id"].as_str().unwrap();
    let staging = server.environment(project, "staging-2").await;
    let copy = server
        .post(
            &format!("/api/application/{application}/clone"),
            json!({"name": "web", "environment_id": staging}),
        )
        .await;
    assert_eq!(copy.status, StatusCode::ACCEPTED, "{}", copy.body);
    assert_eq!(copy.body["environment"]["id"], staging.as_str());
    let web = copy.body["id"].as_str().unwrap();
    assert_eq!(
        keys(&variables(&server, "APPLICATION", web).await),
        keys(&variables(&server, "APPLICATION", application).await)
    );
    assert_eq!(
        sealed_values(&server, web).await,
        sealed_values(&server, application).await
    );
    let status = server
        .get(&format!("/api/application/{web}/status"))
        .await
        .body;
    assert_eq!(status["service_deployment_status"], "NEVER_DEPLOYED");

    let taken = server
        .post(
            &format!("/api/application/{application}/clone"),
            json!({"name": "WEB", "environment_id": staging}),
        )
        .await;
    assert_error(&taken, StatusCode::CONFLICT, "CONFLICT");
    let nowhere = server
        .post(
            &format!("/api/application/{application}/clone"),
            json!({"name": "web-3", "environment_id": uuid::Uuid::new_v4()}),
        )
        .await;
    assert_invalid_fields(&nowhere, &["environment_id"]);
    // A kind's clone route answers for its own kind only.
    let wrong_kind = server
        .post(
            &format!("/api/container/{application}/clone"),
            json!({"name": "web-4", "environment_id": staging}),
        )
        .await;
    assert_eq!(wrong_kind.status, StatusCode::NOT_FOUND);
}
