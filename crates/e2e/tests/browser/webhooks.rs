//! Webhooks in the console: added through the form (its rules checked first), listed with their
//! filters and never their secret, and their deliveries to a real receiver on loopback shown with
//! their attempts.

use std::time::Duration;

use axum::http::StatusCode;
use axum::routing::post;
use axum::Router;
use e2e::Browser;
use serde_json::json;

/// A receiver on loopback that answers 200 to every POST.
async fn receiver() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Router::new().route("/deployments", post(|| async { StatusCode::OK }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}/deployments")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_webhook_is_added_and_its_deliveries_watched() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let target = receiver().await;
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
    let listed = browser.wait_for_text(".webhooks", &target).await?;
    for shown in ["Signed", "shop*", "Deployment started", "every environment"] {
        assert!(listed.contains(shown), "{shown} missing from {listed}");
    }

    // A deployment in a matching project sends its events.
    let place = browser
        .create_environment("shop-front", "staging", "STAGING")
        .await?;
    let application = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"}}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/application/{application}/deploy"),
            json!({}),
        )
        .await?;

    browser.click(".webhook__actions button").await?;
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
    browser.click(".webhook__actions .button--danger").await?;
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
