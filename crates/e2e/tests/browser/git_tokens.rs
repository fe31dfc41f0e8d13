//! Git tokens: one added from the organization's settings (its rules checked first, the token
//! never on the page), chosen for an application's repository among the tokens of its code host,
//! the services using it listed under it, and its delete refused while they do, naming them.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_git_token_is_created_and_chosen_for_a_service() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"}}),
        )
        .await?;
    let org = &place.organization;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{org}/settings/git-tokens"))
        .await?;
    browser.wait_for_text("main h1", "Git tokens").await?;
    browser.wait_for_text(".empty", "No git token yet").await?;

    // Provider G lists repositories by workspace: asked for, with the token, before sending.
    browser.open_new("New git token").await?;
    browser.fill("#field-name", "ci-reader").await?;
    browser.choose("#field-type", "PROVIDER_G").await?;
    browser
        .click("form[aria-label='Add a git token'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-token-error", "is required")
        .await?;
    browser
        .wait_for_text("#field-workspace-error", "is required")
        .await?;
    let secret = "glpat-never-on-the-page";
    browser.fill("#field-token", secret).await?;
    browser.fill("#field-workspace", "acme").await?;
    browser
        .click("form[aria-label='Add a git token'] button[type=submit]")
        .await?;
    let item = browser
        .wait_for_text("[data-git-token=ci-reader]", "Provider G")
        .await?;
    assert!(item.contains("No service"), "{item}");
    assert!(
        !browser.client.source().await?.contains(secret),
        "the token is on the page"
    );
    browser.screenshot("git-tokens").await?;

    // Chosen on the application's repository, among the tokens of its code host.
    browser.open(&place.service_tab(&web, "settings")).await?;
    browser.wait_for_value("#field-name", "web").await?;
    browser
        .choose("#field-git_repository-provider", "PROVIDER_C")
        .await?;
    browser
        .wait_for_text(
            "form[aria-label='Application settings']",
            "No git token for Provider C yet",
        )
        .await?;
    browser
        .choose("#field-git_repository-provider", "PROVIDER_G")
        .await?;
    let token = browser
        .api("GET", &format!("/organization/{org}/gitToken"), json!(null))
        .await?["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    browser
        .choose("#field-git_repository-git_token_id", &token)
        .await?;
    browser
        .save_form("form[aria-label='Application settings']", "Settings saved")
        .await?;
    let saved = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(saved["git_repository"]["git_token_id"], token.as_str());
    assert_eq!(saved["git_repository"]["git_token_name"], "ci-reader");

    // The token lists the service, and is kept while it uses it.
    browser
        .open(&format!("/organization/{org}/settings/git-tokens"))
        .await?;
    browser
        .wait_for_text("[data-git-token=ci-reader]", "1 service")
        .await?;
    browser
        .click("[aria-label='Services using ci-reader']")
        .await?;
    browser
        .wait_for_text("[data-git-token=ci-reader] .plain-list", "web")
        .await?;
    browser
        .click("[data-git-token=ci-reader] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_for_text(".toast--error", "used by 1 service (web)")
        .await?;
    browser.close().await
}
