//! No secret comes back: every GET route, called as ADMIN after secrets were stored, answers
//! without any of them.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{
    concrete, fresh_variable, is_variable, records, TestServer, ALERT_WEBHOOK_URL, HELM_PASSWORD,
    ON_PREMISE_SECRET, REGISTRY_PASSWORD, TERRAFORM_SECRET, VARIABLE_SECRET, WEBHOOK_SECRET,
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
        ALERT_WEBHOOK_URL,
        TERRAFORM_SECRET,
        VARIABLE_SECRET,
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
