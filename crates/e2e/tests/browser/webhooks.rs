//! Webhooks in the console: added through the form (its rules checked first), listed with their
//! filters and never their secret, and their deliveries to a real receiver on loopback shown with
//! their attempts.

use std::time::Duration;

use e2e::Browser;

use crate::loopback::receiver;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_webhook_is_added_and_its_deliveries_watched() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let (_, target) = receiver("/deployments").await;
    let secret = "s3cret-shown-nowhere";

    browser.sign_in().await?;
    browser
        .click("a[href$='/settings/container-registries']")
        .await?;
    browser
        .click("a.tabs__tab[href$='/settings/webhooks']")
        .await?;
    browser.wait_for_text("main h1", "Webhooks").await?;
    browser.wait_for_text(".empty", "No webhook yet").await?;

    // The rules of platform-api are checked before sending.
    browser.open_new("New webhook").await?;
    browser.fill("#field-target_url", "ftp://nowhere").await?;
    browser
        .click("form[aria-label='Add a webhook'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            ".field__error",
            "must be an absolute http:// or https:// address",
        )
        .await?;

    browser.fill("#field-target_url", &target).await?;
    browser.fill("#field-target_secret", secret).await?;
    browser.fill("#field-project_names_filter", "shop*").await?;
    browser
        .click("form[aria-label='Add a webhook'] button[type=submit]")
        .await?;
    let listed = browser.wait_for_text(".record-list", &target).await?;
    for shown in ["Signed", "shop*", "Deployment started", "every environment"] {
        assert!(listed.contains(shown), "{shown} missing from {listed}");
    }

    // A deployment in a matching project sends its events.
    let place = browser
        .create_environment("shop-front", "staging", "STAGING")
        .await?;
    let application = browser
        .create_application(&place.environment, "web")
        .await?;
    browser
        .api(
            "POST",
            &format!("/application/{application}/deploy"),
            json!({}),
        )
        .await?;

    browser.click(".record__actions button").await?;
    let deliveries = browser
        .wait_for_text(".deliveries", "Deployment successful")
        .await?;
    assert!(
        deliveries.contains("shop-front · staging · web"),
        "{deliveries}"
    );
    let deliveries = browser
        .wait_for_text(".deliveries tr:first-child", "Delivered")
        .await?;
    assert!(deliveries.contains("200"), "{deliveries}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let page = browser.find("main").await?.text().await?;
    assert!(!page.contains(secret), "the secret is on the page");
    browser.screenshot("webhooks").await?;

    // Deleted after a confirmation, it is gone from the page and from the API.
    browser.click(".record__actions .button--danger").await?;
    browser.accept_confirmation().await?;
    browser.wait_for_text("main", "No webhook yet").await?;
    let left = browser
        .api(
            "GET",
            &format!("/organization/{}/webhook", place.organization),
            json!(null),
        )
        .await?;
    assert_eq!(left["results"], json!([]), "{left}");
    browser.close().await
}

/// A webhook is edited in place, disabled (no test event then, with the reason) and enabled
/// again, and its test event reaches a receiver on loopback.
#[tokio::test(flavor = "multi_thread")]
async fn a_webhook_is_edited_disabled_and_sent_a_test_event() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let (received, target) = receiver("/trial").await;
    let organization = browser.organization_id().await?;
    let webhook = browser
        .create(
            &format!("/organization/{organization}/webhook"),
            json!({"target_url": target, "events": ["DEPLOYMENT_STARTED"], "target_secret": "kept"}),
        )
        .await?;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{organization}/settings/webhooks"))
        .await?;
    browser.wait_for_text(".record-list", &target).await?;

    // Edit: the filters change, the secret is kept.
    browser
        .click_text(".record__actions button", "Edit")
        .await?;
    let scoped = format!("#field-{webhook}-project_names_filter");
    browser.fill(&scoped, "api*").await?;
    browser
        .click("form[aria-label='Edit the webhook'] button[type=submit]")
        .await?;
    browser.wait_for_text(".record-list", "api*").await?;
    assert!(browser
        .find(".record-list")
        .await?
        .text()
        .await?
        .contains("Signed"));

    // Disabled, it cannot be sent a test event, and says why.
    browser
        .click_text(".record__actions button", "Disable")
        .await?;
    browser.wait_for_text(".record__head", "Disabled").await?;
    let test = browser
        .wait_for_text(".record__actions button", "Send a test event")
        .await?;
    assert_eq!(test, "Send a test event");
    let button = browser
        .find(".record__actions button[title='Enable the webhook to send it a test event.']")
        .await?;
    assert_eq!(button.attr("disabled").await?.as_deref(), Some("true"));

    // Enabled again, its test event is delivered.
    browser
        .click_text(".record__actions button", "Enable")
        .await?;
    browser.wait_for_text(".record__head", "Enabled").await?;
    browser
        .click_text(".record__actions button", "Send a test event")
        .await?;
    let delivered = browser
        .wait_for_text(".deliveries tr:first-child", "Delivered")
        .await?;
    assert!(delivered.contains("example-project"), "{delivered}");
    assert_eq!(received.count(), 1);
    browser.screenshot("webhook-test-event").await?;
    browser.close().await
}
