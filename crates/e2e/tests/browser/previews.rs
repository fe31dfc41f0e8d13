//! Preview environments as a team sees them: previews turned on for an environment, a branch
//! pushed, and its preview listed on the environment's page without a reload; the preview's
//! page says what it previews and links back.

use e2e::{Browser, Repository};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_new_branch_shows_up_as_a_preview_environment() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let repository = Repository::with(&[("web: first page", &[("web/index.html", "1")])])?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser
        .create_application_from(
            &place.environment,
            &repository,
            json!({
                "name": "storefront",
                "auto_preview": true,
            }),
        )
        .await?;
    browser.sign_in().await?;
    browser.open(&place.tab("settings")).await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=previews-title]",
            "No preview environment yet",
        )
        .await?;
    browser.click("#field-auto_preview").await?;
    browser
        .click("form[aria-label='Preview settings'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(".toast", "Preview settings saved")
        .await?;
    let rule = browser
        .api(
            "GET",
            &format!("/environment/{}/deploymentRule", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(rule["auto_preview"], true);

    // A branch is pushed: its preview appears on the page, without a reload.
    platform_server::git::create_branch(repository.path(), "feat-login")?;
    let listed = browser
        .wait_for_text("ul[aria-label=Previews]", "staging-feat-login")
        .await?;
    assert!(listed.contains("branch feat-login"), "{listed}");
    browser.screenshot("environment-previews").await?;
    browser
        .click_text("ul[aria-label=Previews] a", "staging-feat-login")
        .await?;
    browser
        .wait_for_text(".preview-of", "A preview of staging for branch feat-login")
        .await?;
    browser.screenshot("preview-environment").await?;
    browser.click_text(".preview-of a", "staging").await?;
    browser
        .wait_for_path(|path| path.contains(&place.environment))
        .await?;
    browser.close().await
}
