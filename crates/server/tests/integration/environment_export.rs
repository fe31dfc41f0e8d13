//! `GET /environment/{id}/terraformExport`: the environment's services and variables as one
//! `main.tf` that reads back as HCL, secrets as input variables and never their values.

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, TestServer};
use serde_json::json;

#[tokio::test]
async fn an_environment_exports_as_terraform_without_its_secrets() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let application = server.application(&environment, "Web API").await;
    for (path, key, value) in [
        (
            format!("/api/environment/{environment}/environmentVariable"),
            "REGION",
            "eu-west-3",
        ),
        (
            format!("/api/application/{application}/environmentVariable"),
            "GREETING",
            "hello ${name}",
        ),
        (
            format!("/api/application/{application}/secret"),
            "STRIPE_KEY",
            "sk-live-s3cr3t",
        ),
    ] {
        let reply = server
            .post(&path, json!({"key": key, "value": value}))
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }

    let reply = server
        .get(&format!("/api/environment/{environment}/terraformExport"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(
        reply.headers["content-disposition"],
        "attachment; filename=\"main.tf\""
    );
    let text = reply.body.as_str().expect("a file");
    assert!(!text.contains("sk-live-s3cr3t"), "{text}");

    let body: hcl::Body = hcl::from_str(text).expect("the export reads as HCL");
    let resources: Vec<&hcl::Block> = body
        .blocks()
        .filter(|block| block.identifier() == "resource")
        .collect();
    let labels: Vec<Vec<&str>> = resources
        .iter()
        .map(|block| block.labels().iter().map(|label| label.as_str()).collect())
        .collect();
    assert_eq!(
        labels,
        [
            ["platform_environment", "staging"],
            ["platform_application", "web_api"]
        ]
    );
    let application = hcl::to_string(resources[1]).unwrap();
    assert!(
        application.contains("environment_id = platform_environment.staging.id"),
        "{application}"
    );
    assert!(application.contains("name = \"Web API\""), "{application}");
    // A value that looks like an interpolation is written as the text it is.
    let variables = resources[1]
        .body()
        .attributes()
        .find(|attribute| attribute.key() == "environment_variables")
        .expect("the application's variables");
    assert!(
        hcl::format::to_string(&variables.expr)
            .unwrap()
            .contains("$${name}"),
        "{application}"
    );
    assert!(
        application.contains("value = var.web_api_stripe_key"),
        "{application}"
    );
    let input = body
        .blocks()
        .find(|block| block.identifier() == "variable")
        .expect("the secret's input variable");
    assert_eq!(input.labels()[0].as_str(), "web_api_stripe_key");
    assert!(hcl::to_string(input).unwrap().contains("sensitive = true"));
    let environment_block = hcl::to_string(resources[0]).unwrap();
    assert!(
        environment_block.contains("\"eu-west-3\""),
        "{environment_block}"
    );

    let refused = server
        .get(&format!(
            "/api/environment/{environment}/terraformExport?exportSecrets=true"
        ))
        .await;
    assert_invalid_fields(&refused, &["exportSecrets"]);
}
