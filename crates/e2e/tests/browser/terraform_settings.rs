//! A terraform service deployed, its overview showing the resources its module made, then
//! changed through its settings page: a rule refused before sending (a
//! negative timeout), the repository's branches and folders offered, the `.tfvars` files of a
//! real local repository found and ticked in the order they apply, the module's variables added
//! from its `variable` blocks, backend, engine, provider version, resources, extra arguments
//! and a Dockerfile fragment saved; the record read back through the API holds every change, a
//! secret variable's value is kept without being shown, and the page shows it all after a reload.

use e2e::{Browser, Repository};
use serde_json::json;

const FORM: &str = "form[aria-label='Terraform settings']";

#[tokio::test(flavor = "multi_thread")]
async fn a_terraform_service_is_changed_through_its_settings() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("infra", "staging", "STAGING")
        .await?;
    let repository = Repository::with(&[(
        "network",
        &[
            (
                "main.tf",
                "variable \"api_token\" {\n  sensitive = true\n}\n\nvariable \"replicas\" {\n  default = 3\n}\n\nresource \"null_resource\" \"network\" {}\n",
            ),
            ("envs/base.tfvars", "region = \"eu-west-1\"\n"),
            ("envs/prod.tfvars", "region = \"eu-west-3\"\n"),
        ],
    )])?;
    let url = repository.url();
    let terraform = browser
        .create(
            &format!("/environment/{}/terraform", place.environment),
            json!({"name": "network", "engine": "OPEN_TOFU", "backend": {"kubernetes": {}},
                   "terraform_files_source": {"git": {"git_repository": {"url": url, "branch": "main"}}},
                   "terraform_variables_source": {"tf_var_file_paths": [], "tf_vars": [
                       {"key": "api_token", "value": "tf-s3cret", "secret": true}]}}),
        )
        .await?;

    browser
        .service_deployed(&format!("/terraform/{terraform}"))
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&terraform)).await?;
    // What the deployment made, read from the module at the commit deployed.
    browser
        .wait_for_text(
            "[aria-labelledby=resources-title] li",
            "null_resource.network",
        )
        .await?;
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser.wait_for_value("#field-name", "network").await?;
    browser
        .wait_for_value(
            "#field-terraform_variables_source-tf_vars-0--key",
            "api_token",
        )
        .await?;

    browser.fill("#field-timeout_sec", "-5").await?;
    browser
        .click(&format!("{FORM} button[type=submit]"))
        .await?;

    browser
        .wait_for_text("#field-timeout_sec-error", "must be 0 or more")
        .await?;

    browser.fill("#field-timeout_sec", "900").await?;
    // The repository is one the platform lists: its branches and folders are offered.
    let git = "#field-terraform_files_source-git-git_repository";
    browser
        .find(&format!("{git}-url-suggestions option[value='{url}']"))
        .await?;
    browser
        .find(&format!("{git}-branch-suggestions option[value='main']"))
        .await?;
    browser
        .find(&format!(
            "{git}-root_path-suggestions option[value='/envs']"
        ))
        .await?;
    browser
        .click_text("button", "Find the repository's .tfvars files")
        .await?;
    browser
        .wait_for_text(".plain-list", "envs/prod.tfvars")
        .await?;
    // Ticked prod first, then base: base applies last.
    browser
        .click(
            "input[name='terraform_variables_source.tf_var_file_paths'][value='envs/prod.tfvars']",
        )
        .await?;
    browser
        .click(
            "input[name='terraform_variables_source.tf_var_file_paths'][value='envs/base.tfvars']",
        )
        .await?;
    browser.wait_for_text(".plain-list", "applies 2").await?;
    // The module's variables: `api_token` is listed already, `replicas` comes with its default.
    browser
        .click_text("button", "Add the module's variables")
        .await?;
    browser
        .wait_for_text("[role=status]", "1 of the module's variables added.")
        .await?;
    browser
        .wait_for_value(
            "#field-terraform_variables_source-tf_vars-1--key",
            "replicas",
        )
        .await?;
    browser
        .wait_for_value("#field-terraform_variables_source-tf_vars-1--value", "3")
        .await?;
    browser
        .click("input[name=terraform-backend]:not(:checked)")
        .await?;
    browser.choose("#field-engine", "TERRAFORM").await?;
    browser
        .fill("#field-provider_version-explicit_version", "1.9.0")
        .await?;
    browser
        .click("#field-provider_version-read_from_terraform_block")
        .await?;
    browser.fill("#field-job_resources-ram_mib", "2048").await?;
    browser.click("#field-dockerfile_fragment-enabled").await?;
    browser
        .choose("#field-dockerfile_fragment-type", "inline")
        .await?;
    browser
        .fill("#field-dockerfile_fragment-content", "RUN apk add jq")
        .await?;
    browser.click("#field-use_cluster_credentials").await?;
    browser.click_text("button", "Add a command").await?;
    browser
        .fill("#field-action_extra_arguments-0--command", "plan")
        .await?;
    browser
        .fill(
            "#field-action_extra_arguments-0--arguments",
            "-lock=false -parallelism=4",
        )
        .await?;
    browser.save_form(FORM, "Settings saved").await?;

    let after = browser
        .api("GET", &format!("/terraform/{terraform}"), json!(null))
        .await?;
    assert_eq!(after["timeout_sec"], 900);
    assert_eq!(
        after["terraform_variables_source"]["tf_var_file_paths"],
        json!(["envs/prod.tfvars", "envs/base.tfvars"])
    );
    assert_eq!(
        after["terraform_variables_source"]["tf_vars"],
        json!([{"key": "api_token", "secret": true}, {"key": "replicas", "value": "3", "secret": false}])
    );
    assert_eq!(after["backend"], json!({"user_provided": {}}));
    assert_eq!(after["engine"], "TERRAFORM");
    assert_eq!(
        after["provider_version"],
        json!({"explicit_version": "1.9.0", "read_from_terraform_block": true})
    );
    assert_eq!(after["job_resources"]["ram_mib"], 2048);
    assert_eq!(after["use_cluster_credentials"], true);
    assert_eq!(
        after["action_extra_arguments"],
        json!({"plan": ["-lock=false", "-parallelism=4"]})
    );
    assert_eq!(
        after["dockerfile_fragment"],
        json!({"type": "inline", "content": "RUN apk add jq"})
    );
    // The secret's value was kept by the server, never sent to the page.
    let (secrets,): (String,) = sqlx::query_as("SELECT secrets FROM services WHERE id = ?")
        .bind(&terraform)
        .fetch_one(&browser.server.state.db)
        .await?;
    let sealed: std::collections::BTreeMap<String, String> = serde_json::from_str(&secrets)?;
    let opened: Vec<String> = sealed
        .values()
        .map(|value| browser.server.state.sealer.open(value))
        .collect::<Result<_, _>>()?;
    assert_eq!(opened, ["tf-s3cret"]);

    browser.open(&place.service_page(&terraform)).await?;
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser.wait_for_value("#field-timeout_sec", "900").await?;
    browser.wait_for_text(".plain-list", "applies 2").await?;
    browser
        .wait_for_value("#field-action_extra_arguments-0--command", "plan")
        .await?;
    browser.screenshot("terraform-settings").await?;
    browser.close().await
}
