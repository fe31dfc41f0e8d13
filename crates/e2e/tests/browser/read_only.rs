//! A token whose role only reads sees the actions it cannot take (deploy, create) disabled, with
//! the reason, before any click: the console reads the role from the API.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_read_token_sees_disabled_actions_with_their_reason() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/shop.git"}}),
        )
        .await?;
    let read_role = browser.role_id("READ").await?;
    let created = browser
        .api(
            "POST",
            &format!("/organization/{}/apiToken", place.organization),
            json!({"name": "auditor", "role_id": read_role}),
        )
        .await?;
    let token = created["token"].as_str().expect("a new token's secret");

    browser.sign_in_with(token).await?;
    let reason = "Your token's role (READ) cannot deploy or act on services: that needs the DEPLOY permission.";
    browser.open(&place.service_page(&web)).await?;
    browser.wait_for_text(".actions__refusal", reason).await?;
    let deploy = browser.action_button("Deploy").await?;
    assert_eq!(deploy.attr("disabled").await?.as_deref(), Some("true"));
    assert_eq!(deploy.attr("title").await?.as_deref(), Some(reason));
    browser.screenshot("read-token-service").await?;

    browser.open(&place.page()).await?;
    browser.wait_for_text(".actions__refusal", reason).await?;
    let deploy_all = browser.action_button("Deploy all").await?;
    assert_eq!(deploy_all.attr("disabled").await?.as_deref(), Some("true"));

    // Creating takes WRITE: the "New …" button says so instead of opening a form bound to fail.
    browser
        .open(&format!("/organization/{}/overview", place.organization))
        .await?;
    browser
        .wait_for_text(
            ".new-dialog__opener",
            "Your token's role (READ) cannot create here: that needs the WRITE permission.",
        )
        .await?;
    let new_project = browser.find(".new-dialog__opener button").await?;
    assert_eq!(new_project.attr("disabled").await?.as_deref(), Some("true"));
    browser.close().await
}
