//! Aliases and overrides made through the routes of each scope (`/{scope}/{id}/environmentVariable/
//! {id}/alias|override`, the same under `/secret`): what they answer, where they are refused, and
//! that a deployment is given them as the service sees them.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_invalid_fields, TestServer};
use serde_json::{json, Value};

fn id(reply: &Value) -> String {
    reply["id"].as_str().expect("an id").to_string()
}

#[tokio::test]
async fn aliases_and_overrides_at_each_scope_reach_the_deployment() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let upstream = server
        .create(
            &format!("/api/project/{project}/environmentVariable"),
            json!({"key": "UPSTREAM", "value": "http://a.internal"}),
        )
        .await;
    let api_key = server
        .create(
            &format!("/api/project/{project}/secret"),
            json!({"key": "API_KEY", "value": "s3cr3t-value"}),
        )
        .await;

    // An override at the environment: the same key, another value, pointing at its variable.
    let overridden = server
        .post(
            &format!("/api/environment/{environment}/environmentVariable/{upstream}/override"),
            json!({"value": "http://b.internal"}),
        )
        .await;
    assert_eq!(
        overridden.status,
        StatusCode::CREATED,
        "{}",
        overridden.body
    );
    assert_eq!(overridden.body["variable_type"], "OVERRIDE");
    assert_eq!(overridden.body["key"], "UPSTREAM");
    assert_eq!(
        overridden.body["overridden_variable"]["id"],
        upstream.as_str()
    );

    // A secret's alias is a secret, answered in the secret's shape, without a value.
    let alias = server
        .post(
            &format!("/api/application/{application}/secret/{api_key}/alias"),
            json!({"key": "APP_KEY"}),
        )
        .await;
    assert_eq!(alias.status, StatusCode::CREATED, "{}", alias.body);
    assert_eq!(alias.body["variable_type"], "ALIAS");
    assert_eq!(alias.body["aliased_secret"]["key"], "API_KEY");
    assert!(alias.body.get("value").is_none(), "{}", alias.body);
    assert!(!alias.body.to_string().contains("s3cr3t"));
    let secret_override = server
        .post(
            &format!("/api/environment/{environment}/secret/{api_key}/override"),
            json!({"value": "other-s3cr3t"}),
        )
        .await;
    assert_eq!(
        secret_override.status,
        StatusCode::CREATED,
        "{}",
        secret_override.body
    );
    assert_eq!(secret_override.body["overridden_secret"]["key"], "API_KEY");
    assert!(!secret_override.body.to_string().contains("s3cr3t"));

    // A secret is not found on a variable's route, nor a variable on a secret's.
    let crossed = server
        .post(
            &format!("/api/application/{application}/environmentVariable/{api_key}/alias"),
            json!({"key": "OTHER"}),
        )
        .await;
    assert_eq!(crossed.status, StatusCode::NOT_FOUND, "{}", crossed.body);
    let crossed = server
        .post(
            &format!("/api/application/{application}/secret/{upstream}/override"),
            json!({"value": "x"}),
        )
        .await;
    assert_eq!(crossed.status, StatusCode::NOT_FOUND, "{}", crossed.body);
    // No alias of an alias; no override at the variable's own scope or above it; a key checked.
    let of_alias = server
        .post(
            &format!(
                "/api/application/{application}/secret/{}/alias",
                id(&alias.body)
            ),
            json!({"key": "AGAIN"}),
        )
        .await;
    assert_invalid_fields(&of_alias, &["variable_id"]);
    let upward = server
        .post(
            &format!("/api/project/{project}/environmentVariable/{upstream}/override"),
            json!({"value": "x"}),
        )
        .await;
    assert_invalid_fields(&upward, &["variable_id"]);
    let bad_key = server
        .post(
            &format!("/api/application/{application}/environmentVariable/{upstream}/alias"),
            json!({"key": "1-bad"}),
        )
        .await;
    assert_invalid_fields(&bad_key, &["key"]);

    // The application sees the override's value and the alias beside its secret.
    let seen = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await;
    let upstream_seen: Vec<&Value> = seen.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|variable| variable["key"] == "UPSTREAM")
        .collect();
    assert_eq!(upstream_seen.len(), 1, "{}", seen.body);
    assert_eq!(upstream_seen[0]["value"], "http://b.internal");

    // The deployment is given them: an override of the fault variable stops a failure on
    // purpose, and the log names what it gives.
    let fail_at = server
        .create(
            &format!("/api/project/{project}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "BUILD"}),
        )
        .await;
    let kept = server
        .post(
            &format!("/api/application/{application}/environmentVariable/{fail_at}/override"),
            json!({"value": "nowhere"}),
        )
        .await;
    assert_eq!(kept.status, StatusCode::CREATED, "{}", kept.body);
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "DEPLOYED"
    );
    let log = server
        .service_log(&application, None, None)
        .await
        .to_string();
    assert!(log.contains("APP_KEY (alias of API_KEY, secret)"), "{log}");
    assert!(
        log.contains("PLATFORM_FAIL_AT (overridden at application)"),
        "{log}"
    );
    assert!(
        log.contains("UPSTREAM (overridden at environment)"),
        "{log}"
    );
    assert!(!log.contains("s3cr3t"), "{log}");

    // A deleted variable takes its override and its aliases along.
    let auth = format!("Token {}", server.token);
    for gone in [
        format!("/api/project/{project}/environmentVariable/{fail_at}"),
        format!("/api/project/{project}/secret/{api_key}"),
    ] {
        let deleted = server.call(Method::DELETE, &gone, Some(&auth), None).await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
    }
    let secrets = server
        .get(&format!("/api/application/{application}/secret"))
        .await;
    assert_eq!(secrets.body["results"], json!([]), "{}", secrets.body);
    let seen = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await
        .body
        .to_string();
    assert!(!seen.contains("PLATFORM_FAIL_AT"), "{seen}");

    // An alias's value is its variable's: an alias named as the fault variable fails the build.
    let step = server
        .create(
            &format!("/api/environment/{environment}/environmentVariable"),
            json!({"key": "STEP_TO_FAIL", "value": "BUILD"}),
        )
        .await;
    let fault_alias = server
        .post(
            &format!("/api/application/{application}/environmentVariable/{step}/alias"),
            json!({"key": "PLATFORM_FAIL_AT"}),
        )
        .await;
    assert_eq!(
        fault_alias.status,
        StatusCode::CREATED,
        "{}",
        fault_alias.body
    );
    assert_eq!(fault_alias.body["aliased_variable"]["key"], "STEP_TO_FAIL");
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "BUILD_ERROR"
    );
}
