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

/// The strings of `value`, in order (an object's by key).
fn strings(value: &hcl::Value, found: &mut Vec<String>) {
    match value {
        hcl::Value::String(text) => found.push(text.clone()),
        hcl::Value::Array(items) => items.iter().for_each(|item| strings(item, found)),
        hcl::Value::Object(fields) => fields.values().for_each(|item| strings(item, found)),
        _ => {}
    }
}

/// Template markers after a `$` or a `%`, quotes, backslashes and line breaks, in a job's
/// Dockerfile, a container's arguments and a variable: each reads back, with hcl-rs, as the text
/// it is (`${x}%${upper(path.module)}` was once written with the second marker live).
#[tokio::test]
async fn values_holding_template_markers_export_as_the_text_they_are() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let hostile = [
        "${x}%${upper(path.module)}",
        "${x}$%{ if true }yes%{ endif }",
        "$${a}%%{b}\"quoted\" \\ back\\slash",
        "line one\nline two\t%{",
    ];
    let dockerfile = format!("FROM alpine\nRUN echo '{}'\n", hostile.join("' '"));
    let job = server
        .post(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "migrate", "schedule": {"on_start": {"arguments": hostile}},
                   "source": {"docker": {"git_repository": {"url": "https://git.example.com/m.git"},
                                         "dockerfile_raw": dockerfile}}}),
        )
        .await;
    assert_eq!(job.status, StatusCode::CREATED, "{}", job.body);
    let container = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "registry_id": server.container_registry().await,
                   "image_name": "acme/api", "tag": "1", "arguments": hostile}),
        )
        .await;
    assert_eq!(container.status, StatusCode::CREATED, "{}", container.body);
    for value in hostile {
        let reply = server
            .post(
                &format!("/api/environment/{environment}/environmentVariable"),
                json!({"key": format!("V{}", value.len()), "value": value}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }

    let reply = server
        .get(&format!("/api/environment/{environment}/terraformExport"))
        .await;
    let text = reply.body.as_str().expect("a file");
    let read: hcl::Value = hcl::from_str(text).expect("the export reads as HCL");
    let mut found = Vec::new();
    strings(&read, &mut found);
    assert!(found.contains(&dockerfile), "the Dockerfile: {text}");
    for value in hostile {
        let times = found.iter().filter(|text| *text == value).count();
        // In the job's arguments, the container's and the environment's variables.
        assert_eq!(times, 3, "{value:?} read back {times} times: {text}");
    }
}

/// A terraform service's secret variable is a sensitive input variable of the export, its
/// value never written.
#[tokio::test]
async fn a_terraform_services_secret_variables_are_sensitive_inputs() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let tf_vars = json!([{"key": "region", "value": "eu-west-3"},
                         {"key": "db_password", "value": "hunter2-s3cr3t", "secret": true}]);
    let mut service = crate::terraform::body(json!({"kubernetes": {}}), 600, tf_vars);
    service["name"] = json!("Infra");
    server
        .create(
            &format!("/api/environment/{environment}/terraform"),
            service,
        )
        .await;
    let reply = server
        .get(&format!("/api/environment/{environment}/terraformExport"))
        .await;
    let text = reply.body.as_str().expect("a file");
    assert!(!text.contains("hunter2-s3cr3t"), "{text}");
    let body: hcl::Body = hcl::from_str(text).expect("the export reads as HCL");
    let input = body
        .blocks()
        .find(|block| block.identifier() == "variable")
        .expect("the secret's input variable");
    assert_eq!(input.labels()[0].as_str(), "infra_db_password");
    assert!(hcl::to_string(input).unwrap().contains("sensitive = true"));
    let terraform = body
        .blocks()
        .find(|block| block.labels()[0].as_str() == "platform_terraform")
        .expect("the terraform service");
    let written = hcl::to_string(terraform).unwrap();
    assert!(
        written.contains("value = var.infra_db_password"),
        "{written}"
    );
    assert!(written.contains("secret = true"), "{written}");
    assert!(written.contains("\"eu-west-3\""), "{written}");
}
