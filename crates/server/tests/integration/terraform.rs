//! Terraform services (spec 2.8): the git form of the files source, PUT /terraform/{id}, secret
//! variables, and the rules of the backend, timeout and engine.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_invalid_fields, TestServer};
use serde_json::{json, Value};

pub(crate) fn body(backend: Value, timeout_sec: i64, tf_vars: Value) -> Value {
    json!({"name": "infra", "engine": "OPEN_TOFU", "backend": backend, "timeout_sec": timeout_sec,
           "terraform_files_source": {"git": {"git_repository": {"url": "https://git.example.com/infra.git", "root_path": "/envs/prod"}}},
           "terraform_variables_source": {"tf_var_file_paths": ["prod.tfvars"], "tf_vars": tf_vars},
           "job_resources": {"cpu_milli": 1000, "ram_mib": 1024, "gpu": 0, "storage_gib": 2},
           "action_extra_arguments": {"plan": ["-lock=false"]},
           "dockerfile_fragment": null})
}

/// The service's stored secrets, opened.
async fn stored_secrets(server: &TestServer, id: &str) -> String {
    let (secrets,): (String,) = sqlx::query_as("SELECT secrets FROM services WHERE id = ?")
        .bind(id)
        .fetch_one(&server.state.db)
        .await
        .unwrap();
    let sealed: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&secrets).unwrap();
    sealed
        .values()
        .map(|value| server.state.sealer.open(value).unwrap())
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test]
async fn a_terraform_service_answers_in_the_spec_form_without_secret_values() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/terraform"),
            body(
                json!({"kubernetes": {}}),
                600,
                json!([{"key": "region", "value": "eu-west-3", "secret": false},
                       {"key": "api_token", "value": "tf-s3cret", "secret": true}]),
            ),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let service = &created.body;
    assert_eq!(service["service_type"], "TERRAFORM");
    assert_eq!(service["environment"]["id"], environment);
    assert_eq!(
        service["terraform_files_source"]["git"]["git_repository"]["url"],
        "https://git.example.com/infra.git"
    );
    assert_eq!(
        service["terraform_files_source"]["git"]["git_repository"]["root_path"],
        "/envs/prod"
    );
    assert_eq!(service["engine"], "OPEN_TOFU");
    assert_eq!(
        service["action_extra_arguments"]["plan"],
        json!(["-lock=false"])
    );
    let vars = &service["terraform_variables_source"]["tf_vars"];
    assert_eq!(vars[0]["value"], "eu-west-3");
    assert!(vars[1]["value"].is_null());
    assert!(!service.to_string().contains("tf-s3cret"));
    let id = service["id"].as_str().unwrap();
    assert!(stored_secrets(&server, id).await.contains("tf-s3cret"));

    // PUT /terraform/{id}: a secret's value left out is kept; a variable dropped loses its secret.
    let auth = format!("Token {}", server.token);
    let path = format!("/api/terraform/{id}");
    let kept = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(
                &body(
                    json!({"user_provided": {}}),
                    0,
                    json!([{"key": "api_token", "secret": true}]),
                )
                .to_string(),
            ),
        )
        .await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
    assert_eq!(kept.body["timeout_sec"], 0);
    assert!(kept.body["backend"]["user_provided"].is_object());
    assert!(stored_secrets(&server, id).await.contains("tf-s3cret"));
    let dropped = server
        .call(
            Method::PUT,
            &path,
            Some(&auth),
            Some(&body(json!({"kubernetes": {}}), 0, json!([])).to_string()),
        )
        .await;
    assert_eq!(dropped.status, StatusCode::OK);
    assert!(!stored_secrets(&server, id).await.contains("tf-s3cret"));
}

#[tokio::test]
async fn terraform_rules_name_the_field() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let path = format!("/api/environment/{environment}/terraform");
    assert_invalid_fields(
        &server.post(&path, body(json!({}), -1, json!([]))).await,
        &["backend", "timeout_sec"],
    );
    assert_invalid_fields(
        &server
            .post(
                &path,
                body(
                    json!({"kubernetes": {}, "user_provided": {}}),
                    0,
                    json!([{"key": "x", "secret": false}]),
                ),
            )
            .await,
        &["backend", "terraform_variables_source.tf_vars[0].value"],
    );
    let mut wrong_engine = body(json!({"kubernetes": {}}), 0, json!([]));
    wrong_engine["engine"] = json!("PULUMI");
    assert_invalid_fields(&server.post(&path, wrong_engine).await, &["engine"]);
    let mut description = body(json!({"kubernetes": {}}), 0, json!([]));
    description["description"] = json!("d".repeat(256));
    assert_invalid_fields(&server.post(&path, description).await, &["description"]);
}

#[tokio::test]
async fn the_documents_auto_deploy_config_sets_auto_deploy() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let path = format!("/api/environment/{environment}/terraform");
    let mut request = body(json!({"kubernetes": {}}), 600, json!([]));
    request["auto_deploy_config"] = json!({"auto_deploy": true, "terraform_action": "DEFAULT"});
    let created = server.post(&path, request.clone()).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["auto_deploy"], true);
    // Automatic plans only are the platform's; this server deploys in full.
    request["name"] = json!("plans");
    request["auto_deploy_config"] = json!({"auto_deploy": true, "terraform_action": "PLAN"});
    assert_invalid_fields(
        &server.post(&path, request).await,
        &["auto_deploy_config.terraform_action"],
    );
}

#[tokio::test]
async fn a_read_token_reads_the_tfvars_only_of_repositories_a_terraform_service_uses() {
    let server = TestServer::new().await;
    let dir = tempfile::TempDir::new().unwrap();
    platform_server::git::create_repository(
        dir.path(),
        &[("infra", &[("prod.tfvars", "region = \"eu-west-3\"\n")])],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    let path = format!(
        "/api/organization/{}/listTfVarsFilesFromGitRepo",
        server.organization_id
    );
    let listing =
        json!({"git_repository": {"url": url}, "mode": {"type": "AutoDiscover"}}).to_string();
    let read = format!("Token {}", server.token_with_role("READ").await);
    let list_as_reader = || server.call(Method::POST, &path, Some(&read), Some(&listing));

    let unused = list_as_reader().await;
    common::assert_error(&unused, StatusCode::FORBIDDEN, "FORBIDDEN");
    assert!(
        !unused.body.to_string().contains("region"),
        "{}",
        unused.body
    );
    // WRITE may create a terraform service from any repository, so it may read its variables.
    let write = format!("Token {}", server.token_with_role("WRITE").await);
    let as_writer = server
        .call(Method::POST, &path, Some(&write), Some(&listing))
        .await;
    assert_eq!(as_writer.status, StatusCode::OK, "{}", as_writer.body);

    let (_, environment) = server.staging().await;
    let mut service = body(json!({"kubernetes": {}}), 600, json!([]));
    service["terraform_files_source"]["git"]["git_repository"]["url"] = json!(url);
    let created = server
        .post(
            &format!("/api/environment/{environment}/terraform"),
            service,
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let used = list_as_reader().await;
    assert_eq!(used.status, StatusCode::OK, "{}", used.body);
    assert_eq!(used.body["results"][0]["variables"]["region"], "eu-west-3");
}

#[tokio::test]
async fn a_terraform_service_runs_a_version_its_engine_has() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let available = server.get("/api/terraform/availableVersion").await;
    assert_eq!(available.status, StatusCode::OK, "{}", available.body);
    let tofu: Vec<&str> = available.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|version| version["engine"] == "OPEN_TOFU")
        .map(|version| version["version"].as_str().unwrap())
        .collect();
    assert!(tofu.contains(&"1.9.1"), "{tofu:?}");

    let path = format!("/api/environment/{environment}/terraform");
    let mut wrong = body(json!({"kubernetes": {}}), 0, json!([]));
    // A version of the other engine.
    wrong["provider_version"] = json!({"explicit_version": "1.9.0"});
    let refused = server.post(&path, wrong).await;
    assert_invalid_fields(&refused, &["provider_version.explicit_version"]);
    assert!(
        refused.body["fields"][0]["message"]
            .as_str()
            .unwrap()
            .contains("1.9.1"),
        "{}",
        refused.body
    );

    let mut pinned = body(json!({"kubernetes": {}}), 0, json!([]));
    pinned["provider_version"] = json!({"explicit_version": "1.9.1"});
    let created = server.post(&path, pinned).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    server
        .post(&format!("/api/terraform/{id}/deploy"), json!({}))
        .await;
    server.settled(&format!("/api/terraform/{id}/status")).await;
    let log = server.service_log(id, None, None).await;
    let said: Vec<&str> = log["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|line| line["message"].as_str())
        .filter(|message| message.contains("runs OpenTofu"))
        .collect();
    assert_eq!(said.len(), 1, "{log}");
    assert!(said[0].ends_with("runs OpenTofu 1.9.1."), "{}", said[0]);
}

#[tokio::test]
async fn the_resources_are_those_of_the_module_last_deployed() {
    let server = TestServer::new().await;
    let dir = tempfile::TempDir::new().unwrap();
    platform_server::git::create_repository(
        dir.path(),
        &[(
            "infra",
            &[(
                "infra/main.tf",
                "resource \"aws_s3_bucket\" \"assets\" {\n  bucket = \"shop-assets\"\n  force_destroy = true\n}\n\ndata \"aws_region\" \"current\" {}\n",
            )],
        )],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    let (_, environment) = server.staging().await;
    let mut service = body(json!({"kubernetes": {}}), 600, json!([]));
    service["terraform_files_source"]["git"]["git_repository"] =
        json!({"url": url, "branch": "main", "root_path": "/infra"});
    service["terraform_variables_source"]["tf_var_file_paths"] = json!([]);
    let id = server
        .create(
            &format!("/api/environment/{environment}/terraform"),
            service,
        )
        .await;
    let path = format!("/api/terraform/{id}/terraformResources");
    let before = server.get(&path).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.body);
    assert_eq!(before.body["results"], json!([]));

    server
        .post(&format!("/api/terraform/{id}/deploy"), json!({}))
        .await;
    let status = server.settled(&format!("/api/terraform/{id}/status")).await;
    assert_eq!(status["state"], "DEPLOYED", "{status}");
    let after = server.get(&path).await;
    let resources = after.body["results"].as_array().unwrap();
    assert_eq!(resources.len(), 2, "{}", after.body);
    assert_eq!(resources[0]["address"], "aws_s3_bucket.assets");
    assert_eq!(resources[0]["provider"], "aws");
    assert_eq!(resources[0]["mode"], "managed");
    assert_eq!(
        resources[0]["attributes"],
        json!({"bucket": "shop-assets", "force_destroy": true})
    );
    assert_eq!(resources[1]["address"], "data.aws_region.current");
    assert_eq!(resources[1]["mode"], "data");
}
