//! Variables and secrets: every scope, inheritance, overrides, aliases, file variables,
//! built-ins, the /variable family, and secret values that never come back.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

fn keys(list: &Value) -> Vec<(String, String)> {
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["key"].as_str().unwrap().to_string(),
                v["scope"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn find<'a>(list: &'a Value, key: &str) -> &'a Value {
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {list}"))
}

#[tokio::test]
async fn a_service_sees_its_project_environment_and_own_variables() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    for (path, key) in [
        (
            format!("/api/project/{project}/environmentVariable"),
            "REGION",
        ),
        (
            format!("/api/environment/{environment}/environmentVariable"),
            "STAGE",
        ),
        (
            format!("/api/application/{application}/environmentVariable"),
            "PORT",
        ),
    ] {
        let reply = server.post(&path, json!({"key": key, "value": "x"})).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        assert_eq!(reply.body["variable_type"], "VALUE");
        assert_eq!(reply.body["is_secret"], false);
    }
    let secret = server
        .post(
            &format!("/api/application/{application}/secret"),
            json!({"key": "TOKEN", "value": "s3cr3t-value"}),
        )
        .await;
    assert_eq!(secret.status, StatusCode::CREATED, "{}", secret.body);
    assert!(secret.body.get("value").is_none(), "{}", secret.body);

    let list = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await
        .body;
    let seen = keys(&list);
    for expected in [
        ("PORT", "APPLICATION"),
        ("REGION", "PROJECT"),
        ("STAGE", "ENVIRONMENT"),
        ("APPLICATION_WEB_HOST_INTERNAL", "BUILT_IN"),
    ] {
        assert!(
            seen.contains(&(expected.0.to_string(), expected.1.to_string())),
            "{expected:?} in {seen:?}"
        );
    }
    assert!(
        !seen.iter().any(|(key, _)| key == "TOKEN"),
        "secrets are listed apart"
    );
    assert_eq!(find(&list, "PORT")["service_name"], "web");
    assert_eq!(find(&list, "PORT")["service_type"], "APPLICATION");
    assert!(find(&list, "REGION")["service_id"].is_null());

    let secrets = server
        .get(&format!("/api/application/{application}/secret"))
        .await
        .body;
    assert_eq!(find(&secrets, "TOKEN")["scope"], "APPLICATION");
    assert!(find(&secrets, "TOKEN").get("value").is_none());
    // The environment does not see a service's own variables.
    let at_environment = server
        .get(&format!(
            "/api/environment/{environment}/environmentVariable"
        ))
        .await
        .body;
    assert!(!keys(&at_environment).iter().any(|(key, _)| key == "PORT"));
    for body in [&list, &secrets, &at_environment, &secret.body] {
        assert!(!body.to_string().contains("s3cr3t-value"));
    }
}

#[tokio::test]
async fn keys_are_case_sensitive_and_unique_per_scope_and_parent() {
    let server = TestServer::new().await;
    let (project, _, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}/environmentVariable");
    assert_eq!(
        server
            .post(&path, json!({"key": "KEY", "value": "1"}))
            .await
            .status,
        StatusCode::CREATED
    );
    assert_eq!(
        server
            .post(&path, json!({"key": "key", "value": "2"}))
            .await
            .status,
        StatusCode::CREATED
    );
    let taken = server
        .post(&path, json!({"key": "KEY", "value": "3"}))
        .await;
    assert_error(&taken, StatusCode::CONFLICT, "CONFLICT");
    assert_eq!(taken.body["fields"][0]["field"], "key");
    // A secret with the same key at the same parent is taken too.
    let secret = server
        .post(
            &format!("/api/application/{application}/secret"),
            json!({"key": "KEY", "value": "3"}),
        )
        .await;
    assert_error(&secret, StatusCode::CONFLICT, "CONFLICT");
    let elsewhere = server
        .post(
            &format!("/api/project/{project}/environmentVariable"),
            json!({"key": "KEY", "value": "4"}),
        )
        .await;
    assert_eq!(elsewhere.status, StatusCode::CREATED);
    assert_invalid_fields(
        &server
            .post(&path, json!({"key": "2FAST", "value": "x"}))
            .await,
        &["key"],
    );
    assert_invalid_fields(&server.post(&path, json!({"key": "OK"})).await, &["value"]);
    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"key": "OK", "value": "x", "description": "d".repeat(256)}),
            )
            .await,
        &["description"],
    );
}

#[tokio::test]
async fn overrides_hide_what_they_override_and_need_their_fields() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let original = server
        .post(
            &format!("/api/project/{project}/environmentVariable"),
            json!({"key": "REPLICAS", "value": "1"}),
        )
        .await
        .body;
    let id = original["id"].as_str().unwrap();
    let overridden = server
        .post(
            &format!("/api/environment/{environment}/environmentVariable/{id}/override"),
            json!({"value": "3", "description": "More in staging"}),
        )
        .await;
    assert_eq!(
        overridden.status,
        StatusCode::CREATED,
        "{}",
        overridden.body
    );
    assert_eq!(overridden.body["variable_type"], "OVERRIDE");
    assert_eq!(overridden.body["scope"], "ENVIRONMENT");
    assert_eq!(overridden.body["overridden_variable"]["id"], id);
    assert_eq!(overridden.body["overridden_variable"]["value"], "1");
    let list = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await
        .body;
    assert_eq!(find(&list, "REPLICAS")["value"], "3");
    assert_eq!(
        keys(&list)
            .iter()
            .filter(|(key, _)| key == "REPLICAS")
            .count(),
        1
    );

    // /variable/{id}/override: value, override_scope and override_parent_id are required.
    let path = format!("/api/variable/{id}/override");
    assert_invalid_fields(
        &server.post(&path, json!({})).await,
        &["value", "override_scope", "override_parent_id"],
    );
    let at_service = server
        .post(&path, json!({"value": "5", "override_scope": "APPLICATION", "override_parent_id": application}))
        .await;
    assert_eq!(
        at_service.status,
        StatusCode::CREATED,
        "{}",
        at_service.body
    );
    assert_eq!(at_service.body["is_secret"], false);
    // Not at its own scope, and not from another project.
    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"value": "5", "override_scope": "PROJECT", "override_parent_id": project}),
            )
            .await,
        &["variable_id"],
    );
    let other = server.project("other").await;
    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"value": "5", "override_scope": "PROJECT", "override_parent_id": other}),
            )
            .await,
        &["variable_id"],
    );

    // A secret's override is a secret.
    let secret = server
        .post(
            &format!("/api/project/{project}/secret"),
            json!({"key": "DB_PASSWORD", "value": "hunter2"}),
        )
        .await
        .body;
    let secret_override = server
        .post(
            &format!("/api/variable/{}/override", secret["id"].as_str().unwrap()),
            json!({"value": "staging-hunter3", "override_scope": "ENVIRONMENT", "override_parent_id": environment}),
        )
        .await;
    assert_eq!(secret_override.status, StatusCode::CREATED);
    assert_eq!(secret_override.body["is_secret"], true);
    assert!(secret_override.body["value"].is_null());
    assert!(!secret_override.body.to_string().contains("hunter"));
}

#[tokio::test]
async fn aliases_files_and_the_variable_family() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let created = server
        .post(
            "/api/variable",
            json!({"key": "DATABASE_URL", "value": "postgres://db", "is_secret": false,
                   "variable_scope": "ENVIRONMENT", "variable_parent_id": environment}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    let alias = server
        .post(
            &format!("/api/variable/{id}/alias"),
            json!({"key": "DB_URL", "alias_scope": "APPLICATION", "alias_parent_id": application}),
        )
        .await;
    assert_eq!(alias.status, StatusCode::CREATED, "{}", alias.body);
    assert_eq!(alias.body["variable_type"], "ALIAS");
    assert_eq!(alias.body["aliased_variable"]["key"], "DATABASE_URL");
    assert_invalid_fields(
        &server
            .post(
                &format!("/api/variable/{id}/alias"),
                json!({"key": "X", "alias_scope": "PROJECT", "alias_parent_id": project}),
            )
            .await,
        &["variable_id"],
    );

    let file = server
        .post(
            &format!("/api/application/{application}/environmentVariable"),
            json!({"key": "CONFIG", "value": "a = 1", "mount_path": "/etc/app/config.toml", "enable_interpolation_in_file": true}),
        )
        .await;
    assert_eq!(file.status, StatusCode::CREATED);
    assert_eq!(file.body["variable_type"], "FILE");
    assert_eq!(file.body["mount_path"], "/etc/app/config.toml");
    assert_invalid_fields(
        &server
            .post(
                &format!("/api/application/{application}/environmentVariable"),
                json!({"key": "F", "value": "x", "mount_path": "etc/x"}),
            )
            .await,
        &["mount_path"],
    );

    let listed = server
        .get(&format!(
            "/api/variable?parent_id={application}&scope=APPLICATION"
        ))
        .await;
    assert_eq!(listed.status, StatusCode::OK);
    for key in ["DATABASE_URL", "DB_URL", "CONFIG"] {
        find(&listed.body, key);
    }
    assert_error(
        &server
            .get(&format!("/api/variable?parent_id={application}&scope=JOB"))
            .await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );

    let auth = format!("Token {}", server.token);
    let updated = server
        .call(
            Method::PUT,
            &format!("/api/variable/{id}"),
            Some(&auth),
            Some(&json!({"key": "DATABASE_URL", "value": "postgres://db2"}).to_string()),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["value"], "postgres://db2");
    let deleted = server
        .call(
            Method::DELETE,
            &format!("/api/variable/{id}"),
            Some(&auth),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    // The alias went with it.
    let after = server
        .get(&format!(
            "/api/variable?parent_id={application}&scope=APPLICATION"
        ))
        .await
        .body;
    assert!(!keys(&after)
        .iter()
        .any(|(key, _)| key == "DB_URL" || key == "DATABASE_URL"));
}

#[tokio::test]
async fn a_secret_update_may_keep_its_value_and_job_secrets_are_listed() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let created = server
        .post(
            &format!("/api/application/{application}/secret"),
            json!({"key": "TOKEN", "value": "first"}),
        )
        .await
        .body;
    let path = format!(
        "/api/application/{application}/secret/{}",
        created["id"].as_str().unwrap()
    );
    let auth = format!("Token {}", server.token);
    let kept = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(&json!({"key": "TOKEN", "description": "rotated monthly"}).to_string()),
        )
        .await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
    assert_eq!(kept.body["description"], "rotated monthly");
    let (value,): (Option<String>,) =
        sqlx::query_as("SELECT secret_value FROM variables WHERE key = 'TOKEN'")
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    assert_eq!(server.state.sealer.open(&value.unwrap()).unwrap(), "first");

    let job = server
        .post(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "migrate", "schedule": {"on_start": {}},
                   "source": {"docker": {"git_repository": {"url": "https://git.example.com/m.git"}}}}),
        )
        .await;
    assert_eq!(job.status, StatusCode::CREATED, "{}", job.body);
    let job_id = job.body["id"].as_str().unwrap();
    server
        .post(
            &format!("/api/job/{job_id}/secret"),
            json!({"key": "MIGRATION_KEY", "value": "k"}),
        )
        .await;
    let secrets = server.get(&format!("/api/job/{job_id}/secret")).await;
    assert_eq!(secrets.status, StatusCode::OK);
    assert_eq!(find(&secrets.body, "MIGRATION_KEY")["service_type"], "JOB");
    assert!(find(&secrets.body, "MIGRATION_KEY").get("value").is_none());
}

#[tokio::test]
async fn databases_publish_built_in_variables_and_changes_mark_services_out_of_date() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await;
    let list = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await
        .body;
    assert_eq!(find(&list, "DATABASE_ORDERS_PORT")["value"], "5432");
    assert_eq!(
        find(&list, "DATABASE_ORDERS_PORT")["variable_type"],
        "BUILT_IN"
    );
    let secrets = server
        .get(&format!("/api/application/{application}/secret"))
        .await
        .body;
    assert_eq!(
        find(&secrets, "DATABASE_ORDERS_PASSWORD")["scope"],
        "BUILT_IN"
    );
    let again = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await
        .body;
    assert_eq!(
        find(&list, "DATABASE_ORDERS_HOST_INTERNAL")["id"],
        find(&again, "DATABASE_ORDERS_HOST_INTERNAL")["id"]
    );

    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(
        server.settled_status(&application).await["service_deployment_status"],
        "UP_TO_DATE"
    );
    server
        .post(
            &format!("/api/project/{project}/environmentVariable"),
            json!({"key": "FEATURE", "value": "on"}),
        )
        .await;
    let status = server
        .get(&format!("/api/application/{application}/status"))
        .await
        .body;
    assert_eq!(status["service_deployment_status"], "OUT_OF_DATE");

    // Deleting the service takes its variables along.
    server
        .post(
            &format!("/api/application/{application}/environmentVariable"),
            json!({"key": "OWN", "value": "1"}),
        )
        .await;
    let auth = format!("Token {}", server.token);
    server
        .call(
            Method::DELETE,
            &format!("/api/application/{application}"),
            Some(&auth),
            None,
        )
        .await;
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM variables WHERE parent_id = ?")
        .bind(&application)
        .fetch_one(&server.state.db)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
