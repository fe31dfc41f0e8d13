//! The queue made visible: a deployment waiting behind every worker shows its place in line on
//! its service's page, and the place counts down as the actions ahead end (canceled here, each
//! stopping at once inside a step that would never end), until it runs.

use e2e::Browser;
use serde_json::json;

/// The server's workers (`Browser::start` leaves the server's default).
const WORKERS: usize = 16;

#[tokio::test(flavor = "multi_thread")]
async fn a_queued_deployment_counts_down_its_place_in_line() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    // Every worker held by a deployment that never ends its build, and two more waiting.
    let busy = browser
        .create_environment("batch", "busy", "DEVELOPMENT")
        .await?;
    browser
        .api(
            "POST",
            "/variable",
            json!({"key": "PLATFORM_HANG_AT", "value": "BUILD", "variable_scope": "ENVIRONMENT",
                   "variable_parent_id": busy.environment}),
        )
        .await?;
    let mut holding = Vec::new();
    for at in 0..WORKERS + 2 {
        let id = browser
            .create_application(&busy.environment, &format!("hold-{at}"))
            .await?;
        browser
            .api("POST", &format!("/application/{id}/deploy"), json!({}))
            .await?;
        holding.push(id);
    }
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    browser
        .api("POST", &format!("/application/{web}/deploy"), json!({}))
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&web)).await?;
    let said = browser
        .wait_for_text(".queue-place", "number 3 in line")
        .await?;
    assert!(
        said.contains("2 actions ahead, none of this environment (16 of 16 workers busy)"),
        "{said}"
    );
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("queue-place").await?;

    // Each action ended ahead moves it up one place, then it runs.
    for (ended, next) in ["number 2 in line", "number 1 in line", "Deployed"]
        .iter()
        .enumerate()
    {
        browser
            .api(
                "POST",
                &format!("/application/{}/cancel", holding[ended]),
                json!({}),
            )
            .await?;
        if *next == "Deployed" {
            browser.wait_for_text("[data-state]", "Deployed").await?;
            browser.wait_until_gone(".queue-place").await?;
        } else {
            browser.wait_for_text(".queue-place", next).await?;
        }
    }
    let canceled = browser
        .api(
            "GET",
            &format!("/application/{}/status", holding[0]),
            json!(null),
        )
        .await?;
    assert_eq!(canceled["state"], "CANCELED");
    browser.close().await
}
