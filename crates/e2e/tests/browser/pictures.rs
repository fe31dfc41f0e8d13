//! The README's pictures, taken from the demo as a newcomer first sees it: the organization, an
//! environment, a service's monitoring and the review before a deploy. Each page is checked
//! for what it should show before it is taken; `bash scripts/pictures.sh` writes them into
//! `docs/pictures/` (otherwise they go to `target/e2e-screenshots/` with the others).

use anyhow::Context;
use e2e::{Browser, TestEnvironment};
use serde_json::{json, Value};

/// The id of the record named `name` in the list at `path`.
async fn id_named(browser: &Browser, path: &str, name: &str) -> anyhow::Result<String> {
    let list: Value = browser.api("GET", path, json!(null)).await?;
    list["results"]
        .as_array()
        .and_then(|records| records.iter().find(|record| record["name"] == name))
        .and_then(|record| record["id"].as_str())
        .map(str::to_string)
        .with_context(|| format!("no {name} at {path}: {list}"))
}

async fn picture(browser: &Browser, name: &str) -> anyhow::Result<()> {
    let taken = browser.screenshot(name).await?;
    if std::env::var("PICTURES_INTO_DOCS").is_ok_and(|into| into == "1") {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/pictures");
        std::fs::create_dir_all(&docs)?;
        std::fs::copy(&taken, docs.join(format!("{name}.png")))?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_readme_pictures_show_the_demo() -> anyhow::Result<()> {
    let browser = Browser::start_demo(20.0).await?;
    let organization = browser.organization_id().await?;
    let project = id_named(
        &browser,
        &format!("/organization/{organization}/project"),
        "storefront",
    )
    .await?;
    let environment = id_named(
        &browser,
        &format!("/project/{project}/environment"),
        "production",
    )
    .await?;
    let place = TestEnvironment {
        organization: organization.clone(),
        project,
        environment: environment.clone(),
    };
    let api = id_named(
        &browser,
        &format!("/environment/{environment}/application"),
        "api",
    )
    .await?;
    browser.sign_in().await?;
    browser.review_deploys().await?;
    browser.set_width(1280).await?;

    browser
        .open(&format!("/organization/{organization}/overview"))
        .await?;
    browser.wait_for_text("main", "storefront").await?;
    browser.wait_for_text("main", "internal-tools").await?;
    picture(&browser, "organization").await?;

    browser.open(&place.page()).await?;
    browser.wait_for_text("main", "orders-db").await?;
    browser.wait_for_text("main", "Deployed").await?;
    picture(&browser, "environment").await?;

    // The demo deploys its production at start; its metrics come with the first scrapes.
    browser.deployed(&api).await?;
    browser.open(&place.service_tab(&api, "monitoring")).await?;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(120);
    while browser
        .wait_for_text("main", "CPU per instance")
        .await
        .is_err()
    {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the demo's api has no metrics"
        );
        browser.client.refresh().await?;
    }
    browser.find(".chart__line").await?;
    picture(&browser, "monitoring").await?;

    // A change to review: more memory and a variable since api's deployment.
    let record = browser
        .api("GET", &format!("/application/{api}"), json!(null))
        .await?;
    let repository = &record["git_repository"];
    browser
        .api(
            "PUT",
            &format!("/application/{api}"),
            json!({"name": "api", "memory": 1024, "git_repository":
                {"url": repository["url"], "branch": repository["branch"]}}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/application/{api}/environmentVariable"),
            json!({"key": "CHECKOUT_MODE", "value": "fast"}),
        )
        .await?;
    browser.open(&place.service_page(&api)).await?;
    browser.click_button("Deploy").await?;
    browser
        .wait_for_text("dialog.deploy-review[open]", "CHECKOUT_MODE")
        .await?;
    picture(&browser, "deploy-review").await?;
    browser.close().await
}
