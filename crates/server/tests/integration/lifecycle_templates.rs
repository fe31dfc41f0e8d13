//! Lifecycle job templates: those of the environment's cloud, each whole, and a job made from
//! one (its Dockerfile written with it, its events' commands) built with that Dockerfile.

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn an_environment_lists_its_clouds_templates_and_a_job_is_built_from_one() {
    let server = TestServer::new().await;
    let (project, on_premise) = server.staging().await;
    let aws = server
        .environment_on(&project, "cloud", "AWS", "eu-west-3")
        .await;
    let names = |reply: &Value| -> Vec<String> {
        reply["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|template| template["name"].as_str().unwrap().to_string())
            .collect()
    };
    let listed = server
        .get(&format!("/api/environment/{aws}/lifecycleTemplate"))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(names(&listed.body), ["Terraform", "CloudFormation"]);
    let on_premise_listed = server
        .get(&format!("/api/environment/{on_premise}/lifecycleTemplate"))
        .await;
    assert_eq!(names(&on_premise_listed.body), ["Kubernetes manifests"]);

    let terraform = listed.body["results"][0]["id"].as_str().unwrap();
    let template = server
        .get(&format!(
            "/api/environment/{aws}/lifecycleTemplate/{terraform}"
        ))
        .await;
    assert_eq!(template.status, StatusCode::OK, "{}", template.body);
    let template = template.body;
    assert_eq!(template["cloud_provider"], "AWS");
    assert_eq!(template["events"][0]["command"], json!(["start"]));
    let secret = template["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|variable| variable["is_secret"] == true)
        .expect("the cloud's secret key");
    assert_eq!(secret["name"], "AWS_SECRET_ACCESS_KEY");
    // Another cloud's template is not the environment's.
    assert_error(
        &server
            .get(&format!(
                "/api/environment/{on_premise}/lifecycleTemplate/{terraform}"
            ))
            .await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );

    // A job made from it: its Dockerfile is built, not the repository's.
    let dockerfile = template["dockerfile"].as_str().unwrap();
    let jobs = format!("/api/environment/{aws}/job");
    let job = json!({
        "name": "infra",
        "schedule": {"on_start": {"arguments": ["start"]}, "on_delete": {"arguments": ["delete"]},
                     "lifecycle_type": "TERRAFORM"},
        "source": {"docker": {"git_repository": {"url": "https://git.example.com/acme/infra.git",
                                                 "root_path": "/stacks/web"},
                              "dockerfile_path": "ignored/Dockerfile",
                              "dockerfile_raw": dockerfile}},
        "cpu": template["resources"]["cpu_milli"], "memory": template["resources"]["ram_mib"],
        "max_duration_seconds": template["max_duration_in_sec"]
    });
    let created = server.post(&jobs, job.clone()).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let docker = &created.body["source"]["docker"];
    assert_eq!(docker["dockerfile_raw"], dockerfile);
    assert_eq!(docker["dockerfile_path"], Value::Null);
    assert_eq!(created.body["max_duration_seconds"], 1800);
    let id = created.body["id"].as_str().unwrap();
    server
        .post(&format!("/api/job/{id}/deploy"), json!({}))
        .await;
    let status = server.settled(&format!("/api/job/{id}/status")).await;
    assert_eq!(status["state"], "DEPLOYED");
    let log = server.service_log(id, None, None).await;
    let messages: Vec<&str> = log["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|line| line["message"].as_str())
        .collect();
    let lines = dockerfile.lines().count();
    assert!(
        messages.iter().any(|message| message.contains(&format!(
            "builds the Dockerfile written with the job ({lines} lines, on hashicorp/terraform:1.9) in /stacks/web"
        ))),
        "{messages:?}"
    );

    // A Dockerfile must say what it builds on.
    let mut without_from = job;
    without_from["name"] = json!("other");
    without_from["source"]["docker"]["dockerfile_raw"] = json!("RUN terraform apply");
    assert_invalid_fields(
        &server.post(&jobs, without_from).await,
        &["source.docker.dockerfile_raw"],
    );
}
