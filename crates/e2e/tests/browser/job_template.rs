//! A lifecycle job started from a template of its environment's cloud: the template fills the
//! form (its Dockerfile written with the job, each event's command, its resources and longest
//! run) and lists the variables it reads; the job is created with them, the secret sealed, and its
//! overview names its Dockerfile. The form is looked at at 1280 and 375 px, with axe.

use e2e::{Browser, TestEnvironment};
use serde_json::json;

const FORM: &str = "form[aria-label='Create a job']";

#[tokio::test(flavor = "multi_thread")]
async fn a_lifecycle_job_is_started_from_a_template() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let first = browser
        .create_environment("infra", "staging", "STAGING")
        .await?;
    let cluster = browser
        .create(
            &format!("/organization/{}/cluster", first.organization),
            json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-3"}),
        )
        .await?;
    let environment = browser
        .create(
            &format!("/project/{}/environment", first.project),
            json!({"name": "cloud", "mode": "STAGING", "cluster_id": cluster}),
        )
        .await?;
    let place = TestEnvironment {
        environment,
        ..first
    };
    let templates = browser
        .api(
            "GET",
            &format!("/environment/{}/lifecycleTemplate", place.environment),
            json!(null),
        )
        .await?;
    let terraform = templates["results"][0]["id"].as_str().unwrap().to_string();

    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser.open_new("New service").await?;
    browser.click("input[name=service-kind][value=job]").await?;
    browser.find(FORM).await?;
    browser.choose("#field-job_type", "LIFECYCLE").await?;
    browser.choose("#field-template", &terraform).await?;
    browser
        .wait_for_text(".job-template__description", "Terraform configuration")
        .await?;
    browser
        .wait_for_value(
            "#field-source-docker-dockerfile_raw",
            "FROM hashicorp/terraform",
        )
        .await?;
    browser
        .wait_for_value("#field-schedule-on_start-arguments", "start")
        .await?;
    browser
        .wait_for_value("#field-schedule-on_delete-arguments", "delete")
        .await?;
    browser
        .wait_for_value("#field-max_duration_seconds", "1800")
        .await?;
    assert!(
        browser
            .find_now("#field-schedule-on_stop-arguments")
            .await
            .is_err(),
        "the template runs nothing when the environment stops"
    );
    // Its variables, with their defaults; the secret typed in a masked input.
    browser
        .wait_for_value("#field-variables-2--value", "eu-west-3")
        .await?;
    let secret_type = browser
        .find("#field-variables-1--value")
        .await?
        .attr("type")
        .await?;
    assert_eq!(secret_type.as_deref(), Some("password"));
    browser.fill("#field-name", "infra").await?;
    browser
        .fill(
            "#field-source-docker-git_repository-url",
            "https://git.example.com/acme/infra.git",
        )
        .await?;
    browser
        .fill("#field-variables-0--value", "AKIAEXAMPLE")
        .await?;
    browser
        .fill(
            "#field-variables-1--value",
            "template-secret-never-returned",
        )
        .await?;
    browser.screenshot("job-template").await?;
    browser
        .client
        .execute(
            "document.querySelector('#field-source-docker-dockerfile_raw').scrollIntoView()",
            vec![],
        )
        .await?;
    browser.screenshot("job-template-dockerfile").await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:#?}");
    browser.set_width(375).await?;
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("job-template-375").await?;
    browser.set_width(1280).await?;

    browser.save_form(FORM, "Job infra created.").await?;
    let jobs = browser
        .api(
            "GET",
            &format!("/environment/{}/job", place.environment),
            json!(null),
        )
        .await?;
    let job = &jobs["results"][0];
    assert!(
        job["source"]["docker"]["dockerfile_raw"]
            .as_str()
            .unwrap_or_default()
            .starts_with("FROM hashicorp/terraform"),
        "{job}"
    );
    assert_eq!(job["schedule"]["on_start"]["arguments"], json!(["start"]));
    assert_eq!(job["schedule"]["on_delete"]["arguments"], json!(["delete"]));
    assert!(job["schedule"]["on_stop"].is_null(), "{job}");
    assert_eq!(job["cpu"], 500);
    let id = job["id"].as_str().unwrap();
    let variables = browser
        .api(
            "GET",
            &format!("/variable?parent_id={id}&scope=JOB"),
            json!(null),
        )
        .await?;
    let made = |key: &str| {
        variables["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|variable| variable["key"] == key && variable["scope"] == "JOB")
            .cloned()
            .unwrap_or_else(|| panic!("{key} made on the job: {variables}"))
    };
    assert_eq!(made("AWS_ACCESS_KEY_ID")["value"], "AKIAEXAMPLE");
    let secret = made("AWS_SECRET_ACCESS_KEY");
    assert_eq!(secret["is_secret"], true);
    assert!(secret["value"].is_null(), "{secret}");
    assert_eq!(made("AWS_DEFAULT_REGION")["value"], "eu-west-3");
    assert_eq!(made("TF_INPUT")["mount_path"], "/data/input.tfvars");

    // The job's overview says which Dockerfile it is built with.
    browser.open(&place.service_page(id)).await?;
    browser
        .wait_for_text("dl.facts", "written with the job")
        .await?;
    browser.close().await
}
