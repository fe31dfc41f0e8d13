//! Importing variables by the hundred: all or nothing in one transaction, a bad one named by its
//! place, names already defined left alone unless overwritten, secrets sealed and never given
//! back, each variable at the scope it names.

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, TestServer};
use serde_json::{json, Value};

fn var(name: &str, value: &str, scope: &str, is_secret: bool) -> Value {
    json!({"name": name, "value": value, "scope": scope, "is_secret": is_secret})
}

async fn own_keys(server: &TestServer, application: &str) -> Vec<(String, Value)> {
    let listed = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await
        .body;
    listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["scope"] == "APPLICATION")
        .map(|v| (v["key"].as_str().unwrap().to_string(), v["value"].clone()))
        .collect()
}

#[tokio::test]
async fn an_import_of_a_thousand_is_applied_whole_or_not_at_all() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let import = format!("/api/application/{application}/environmentVariable/import");
    server
        .post(
            &format!("/api/application/{application}/environmentVariable"),
            json!({"key": "KEEP", "value": "old"}),
        )
        .await;
    // With KEEP and API_KEY, the thousand variables and secrets a service may define.
    let mut vars: Vec<Value> = (0..998)
        .map(|at| {
            var(
                &format!("VAR_{at}"),
                &format!("value {at}"),
                "APPLICATION",
                false,
            )
        })
        .collect();
    vars[516] = var("9BAD", "x", "APPLICATION", false);
    let refused = server
        .post(&import, json!({"overwrite": false, "vars": vars}))
        .await;
    assert_invalid_fields(&refused, &["vars[516].name"]);
    assert_eq!(own_keys(&server, &application).await.len(), 1);

    vars[516] = var("VAR_516", "value 516", "APPLICATION", false);
    vars.push(var("KEEP", "new", "APPLICATION", false));
    vars.push(var("API_KEY", "never-given-back", "APPLICATION", true));
    let imported = server
        .post(&import, json!({"overwrite": false, "vars": vars}))
        .await;
    assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.body);
    assert_eq!(imported.body["total_variables_to_import"], 1000);
    let done = imported.body["successful_imported_variables"]
        .as_array()
        .unwrap();
    assert_eq!(done.len(), 999, "KEEP is already there and not overwritten");
    assert!(!imported.body.to_string().contains("never-given-back"));
    // The 998 and KEEP; the secret is listed with the secrets.
    let keys = own_keys(&server, &application).await;
    assert_eq!(keys.len(), 999);
    assert!(keys.contains(&("KEEP".to_string(), json!("old"))));
    let secrets = server
        .get(&format!("/api/application/{application}/secret"))
        .await;
    assert!(!secrets.body.to_string().contains("never-given-back"));
    assert!(secrets.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|secret| secret["key"] == "API_KEY"));

    // Overwritten when asked; a secret is not turned into a plain value, and then nothing is.
    let overwritten = server
        .post(
            &import,
            json!({"overwrite": true, "vars": [var("KEEP", "new", "APPLICATION", false)]}),
        )
        .await;
    assert_eq!(
        overwritten.status,
        StatusCode::CREATED,
        "{}",
        overwritten.body
    );
    assert!(own_keys(&server, &application)
        .await
        .contains(&("KEEP".to_string(), json!("new"))));
    let mixed = server
        .post(
            &import,
            json!({"overwrite": true, "vars": [var("KEEP", "newer", "APPLICATION", false),
                                               var("API_KEY", "plain", "APPLICATION", false)]}),
        )
        .await;
    assert_invalid_fields(&mixed, &["vars[1].name"]);
    assert!(own_keys(&server, &application)
        .await
        .contains(&("KEEP".to_string(), json!("new"))));
}

#[tokio::test]
async fn each_variable_goes_to_the_scope_it_names() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let imported = server
        .post(
            &format!("/api/application/{application}/environmentVariable/import"),
            json!({"overwrite": false, "vars": [
                var("REGION", "eu", "ENVIRONMENT", false),
                var("TEAM", "shop", "PROJECT", false),
                var("PORT", "8080", "APPLICATION", false)]}),
        )
        .await;
    assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.body);
    let at = |path: String| {
        let server = &server;
        async move {
            server.get(&path).await.body["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    (
                        v["key"].as_str().unwrap().to_string(),
                        v["scope"].as_str().unwrap().to_string(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    let seen = at(format!(
        "/api/environment/{environment}/environmentVariable"
    ))
    .await;
    assert!(
        seen.contains(&("REGION".into(), "ENVIRONMENT".into())),
        "{seen:?}"
    );
    let seen = at(format!("/api/project/{project}/environmentVariable")).await;
    assert!(
        seen.contains(&("TEAM".into(), "PROJECT".into())),
        "{seen:?}"
    );
    let wrong = server
        .post(
            &format!("/api/environment/{environment}/environmentVariable/import"),
            json!({"overwrite": false, "vars": [var("X", "1", "APPLICATION", false)]}),
        )
        .await;
    assert_invalid_fields(&wrong, &["vars[0].scope"]);
}
