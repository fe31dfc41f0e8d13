//! No secret comes back: every GET route, called as ADMIN after secrets were stored, answers
//! without any of them.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{
    concrete, fresh_variable, is_variable, records, TestServer, ALERT_WEBHOOK_URL, CLOUD_SECRET,
    GIT_TOKEN_SECRET, HELM_PASSWORD, ON_PREMISE_SECRET, PROVIDER_E_KEY, PROVIDER_E_PRIVATE_KEY,
    REGISTRY_PASSWORD, TERRAFORM_SECRET, VARIABLE_SECRET, WEBHOOK_SECRET,
};
use serde_json::json;

#[tokio::test]
async fn no_get_route_answers_a_secret() {
    let server = TestServer::new().await;
    let records = records(&server).await;
    let token = server.api_token("DEPLOY").await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let ecr = server
        .post(
            &format!("/api/organization/{}/containerRegistry", server.organization_id),
            json!({"name": "ecr", "kind": "ECR", "url": "https://ecr.example",
                   "config": {"region": "eu", "access_key_id": "AKIA", "secret_access_key": "ecr-secret-key"}}),
        )
        .await;
    assert_eq!(ecr.status, StatusCode::CREATED);
    let secrets = [
        REGISTRY_PASSWORD,
        WEBHOOK_SECRET,
        HELM_PASSWORD,
        ON_PREMISE_SECRET,
        CLOUD_SECRET,
        PROVIDER_E_KEY,
        PROVIDER_E_PRIVATE_KEY,
        ALERT_WEBHOOK_URL,
        TERRAFORM_SECRET,
        VARIABLE_SECRET,
        GIT_TOKEN_SECRET,
        "ecr-secret-key",
        token.as_str(),
        server.token.as_str(),
    ];

    let mut walked = 0;
    for rule in platform_server::routes::table(&server.state).rules() {
        if rule.method != Method::GET {
            continue;
        }
        // A variable's route reads one of its own scope.
        let path = if is_variable(&rule.path) {
            fresh_variable(&server, &records, &rule.path).await
        } else {
            concrete(&rule.path, &records)
        };
        let reply = server.get(&path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
        let body = reply.body.to_string();
        for secret in secrets {
            assert!(
                !body.contains(secret),
                "GET {path} answers a secret: {body}"
            );
        }
        assert!(!body.contains("token_hash"), "{path}");
        walked += 1;
    }
    assert!(walked >= 60, "walked only {walked} routes");
}

/// Everything the server wrote in its data folder's database files, as text.
fn database_files(dir: &std::path::Path) -> String {
    ["platform.sqlite", "platform.sqlite-wal"]
        .iter()
        .filter_map(|name| std::fs::read(dir.join(name)).ok())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect()
}

#[tokio::test]
async fn secrets_are_sealed_at_rest() {
    let server = TestServer::new().await;
    let _records = records(&server).await;
    let stored = database_files(server.dir.path());
    assert!(stored.contains("sealed:v1:"), "nothing sealed was written");
    for secret in [
        REGISTRY_PASSWORD,
        WEBHOOK_SECRET,
        HELM_PASSWORD,
        ON_PREMISE_SECRET,
        TERRAFORM_SECRET,
        VARIABLE_SECRET,
        ALERT_WEBHOOK_URL,
        GIT_TOKEN_SECRET,
    ] {
        assert!(!stored.contains(secret), "{secret} is stored in clear");
    }
    let key = server.dir.path().join("secrets.key");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
}

#[tokio::test]
async fn secrets_an_earlier_version_stored_in_clear_are_sealed_at_the_next_start() {
    let server = TestServer::new().await;
    let records = records(&server).await;
    let registry = records.id("container_registry_id").to_string();
    let variable = records.id("secret_id").to_string();
    for (sql, id) in [
        (
            "UPDATE organization_resources SET secrets = json_object('password', 'clear-registry-password') WHERE id = ?",
            &registry,
        ),
        (
            "UPDATE variables SET secret_value = 'clear-variable-secret' WHERE id = ?",
            &variable,
        ),
    ] {
        sqlx::query(sql)
            .bind(id)
            .execute(&server.state.db)
            .await
            .unwrap();
    }
    let dir = server.dir;
    let reopened = TestServer::in_dir(dir).await;
    let (registry_secrets,): (String,) =
        sqlx::query_as("SELECT secrets FROM organization_resources WHERE id = ?")
            .bind(&registry)
            .fetch_one(&reopened.state.db)
            .await
            .unwrap();
    let (variable_secret,): (String,) =
        sqlx::query_as("SELECT secret_value FROM variables WHERE id = ?")
            .bind(&variable)
            .fetch_one(&reopened.state.db)
            .await
            .unwrap();
    assert!(
        !registry_secrets.contains("clear-registry-password"),
        "{registry_secrets}"
    );
    assert!(
        registry_secrets.contains("sealed:v1:"),
        "{registry_secrets}"
    );
    assert!(
        variable_secret.starts_with("sealed:v1:"),
        "{variable_secret}"
    );
    let password: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&registry_secrets).unwrap();
    assert_eq!(
        reopened.state.sealer.open(&password["password"]).unwrap(),
        "clear-registry-password"
    );
}
