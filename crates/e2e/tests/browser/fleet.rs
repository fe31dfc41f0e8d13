//! The fleet: every service of the organization with its status and where it runs, from the
//! organization's page; the failing one said first and followed to its page; the list narrowed
//! by status, project and kind.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_fleet_says_what_fails_and_narrows_to_it() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let shop = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser.create_application(&shop.environment, "web").await?;
    browser.create_application(&shop.environment, "api").await?;
    let billing = browser
        .create_environment("billing", "production", "PRODUCTION")
        .await?;
    let invoices = browser
        .create_application(&billing.environment, "invoices")
        .await?;
    browser.deployed(&invoices).await?;
    // The documented way to make a service fail on purpose (docs/decisions.md).
    browser
        .api(
            "POST",
            &format!("/application/{web}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "BUILD"}),
        )
        .await?;
    browser
        .api("POST", &format!("/application/{web}/deploy"), json!({}))
        .await?;

    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{}/overview", shop.organization))
        .await?;
    browser.click("a[href$='/fleet']").await?;
    browser.wait_for_text("main h1", "Fleet").await?;
    // Read again while web builds, until it has failed.
    browser
        .wait_for_text(
            "[data-fleet-summary]",
            "3 services in 2 environments; 1 failing.",
        )
        .await?;
    let failing = browser
        .wait_for_text("[data-failing=web]", "Build error")
        .await?;
    assert!(failing.contains("shop / staging"), "{failing}");
    let row = browser
        .wait_for_text("tr[data-service=invoices]", "Deployed")
        .await?;
    for shown in ["billing / production", "Production", "Application"] {
        assert!(row.contains(shown), "{shown} missing from {row}");
    }
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("fleet").await?;

    // Failing only (the second choice), then every status of the project billing.
    browser.choose("#field-status", "1").await?;
    browser
        .wait_for_text("main .muted[aria-live]", "1 of 3 shown")
        .await?;
    browser.find("tr[data-service=web]").await?;
    browser.choose("#field-status", "0").await?;
    browser.choose("#field-project", "1").await?;
    browser
        .wait_for_text("main .muted[aria-live]", "1 of 3 shown")
        .await?;
    browser.find("tr[data-service=invoices]").await?;
    // No database anywhere: nothing matches, and the page says how to see more.
    browser.choose("#field-project", "0").await?;
    browser.choose("#field-kind", "3").await?;
    browser
        .wait_for_text(".empty", "No service matches")
        .await?;

    browser.click("[data-failing=web] a").await?;
    browser.wait_for_text("main h1", "web").await?;
    browser.close().await
}
