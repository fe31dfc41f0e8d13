//! A service's and a cluster's advanced settings changed, found by name, refused when a value is
//! not of its type, and reset to their defaults, as a person does it.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn advanced_settings_are_changed_and_reset() -> anyhow::Result<()> {
    let browser = Browser::start(50.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    let api_path = format!("/application/{web}/advancedSettings");
    browser.sign_in().await?;
    browser
        .open(&format!(
            "/organization/{}/project/{}/environment/{}/service/{web}/advanced-settings",
            place.organization, place.project, place.environment
        ))
        .await?;
    let timeout = "#field-build-timeout_max_sec";
    browser.wait_for_value(timeout, "1800").await?;

    // Found by name: the other settings step aside.
    browser
        .fill("#field-advanced-settings-find", "timeout_max")
        .await?;
    let cors = browser
        .find_now("[data-key='network.ingress.enable_cors']")
        .await?;
    assert!(!cors.is_displayed().await?);
    browser.fill("#field-advanced-settings-find", "").await?;

    // A value not of its type is named before anything is sent.
    browser.fill(timeout, "ten minutes").await?;
    browser
        .click("form.advanced-settings button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "#field-build-timeout_max_sec-error",
            "must be a whole number",
        )
        .await?;
    browser.fill(timeout, "600").await?;
    browser
        .choose("#field-deployment-update_strategy-type", "Recreate")
        .await?;
    browser
        .click("#field-security-read_only_root_filesystem")
        .await?;
    browser
        .wait_for_text(
            "form.advanced-settings button[type=submit]",
            "Save 3 changes",
        )
        .await?;
    browser
        .click("form.advanced-settings button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "form.advanced-settings button[type=submit]",
            "Nothing to save",
        )
        .await?;
    let saved = browser.api("GET", &api_path, json!(null)).await?;
    assert_eq!(saved["build.timeout_max_sec"], 600);
    assert_eq!(saved["deployment.update_strategy.type"], "Recreate");
    assert_eq!(saved["security.read_only_root_filesystem"], true);
    browser
        .wait_for_text(".advanced-settings .checkbox", "Only the 3 changed")
        .await?;
    browser.click(".advanced-settings .checkbox input").await?;
    browser
        .screenshot("service-advanced-settings-changed")
        .await?;

    // Reset to its default, and saved so.
    browser
        .click("[data-key='build.timeout_max_sec'] .setting__value button")
        .await?;
    browser.wait_for_value(timeout, "1800").await?;
    browser
        .wait_for_text(".advanced-settings .checkbox", "Only the 2 changed")
        .await?;
    browser
        .click("form.advanced-settings button[type=submit]")
        .await?;
    // Saved once the form has nothing left to save.
    browser
        .wait_for_text(
            "form.advanced-settings button[type=submit]",
            "Nothing to save",
        )
        .await?;
    let reset = browser.api("GET", &api_path, json!(null)).await?;
    assert_eq!(reset["build.timeout_max_sec"], 1800);

    // A cluster's, from its overview.
    let cluster = browser
        .create(
            &format!("/organization/{}/cluster", place.organization),
            json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-3"}),
        )
        .await?;
    browser
        .open(&format!(
            "/organization/{}/cluster/{cluster}/overview",
            place.organization
        ))
        .await?;
    browser
        .click_text(".page__lead a", "Advanced settings")
        .await?;
    let retention = "#field-loki-log_retention_in_week";
    browser.wait_for_value(retention, "12").await?;
    browser.fill(retention, "4").await?;
    browser
        .click("form.advanced-settings button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "form.advanced-settings button[type=submit]",
            "Nothing to save",
        )
        .await?;
    browser.screenshot("cluster-advanced-settings").await?;
    let saved = browser
        .api(
            "GET",
            &format!(
                "/organization/{}/cluster/{cluster}/advancedSettings",
                place.organization
            ),
            json!(null),
        )
        .await?;
    assert_eq!(saved["loki.log_retention_in_week"], 4);
    browser.close().await
}
