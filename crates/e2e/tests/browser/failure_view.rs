//! A deployment that fails, as the person watching it sees it: the error state in the badge, the
//! failed step in the timeline, the steps before it done, the log saying why, and Deploy offered
//! again.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_deployment_shows_the_step_that_failed() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let application = browser
        .create_application(&place.environment, "web")
        .await?;
    // The documented way to make a service fail on purpose (docs/decisions.md).
    browser
        .api(
            "POST",
            &format!("/application/{application}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "BUILD"}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&application)).await?;
    browser.wait_for_text("main h1", "web").await?;
    browser.click_button("Deploy").await?;
    browser.wait_for_text("[data-state]", "Build error").await?;
    let timeline = browser.wait_for_text(".timeline", "Build").await?;
    for done in ["Registry create repository", "Git clone", "Build queueing"] {
        assert!(timeline.contains(done), "{done} missing from {timeline}");
    }
    assert!(
        !timeline.contains("Deployment queueing"),
        "nothing runs after the failed step: {timeline}"
    );
    assert!(!timeline.contains("in progress"), "{timeline}");
    let failed = browser.find(".timeline .step--failure").await?;
    assert_eq!(failed.attr("data-step").await?.as_deref(), Some("BUILD"));
    assert!(failed.text().await?.contains("error"));
    // The log says why, in words.
    let log = browser
        .wait_for_text(".log", "failed on purpose (PLATFORM_FAIL_AT=BUILD)")
        .await?;
    assert!(log.contains("Build: started."), "{log}");
    let deploy = browser.action_button("Deploy").await?;
    assert!(deploy.is_enabled().await?, "Deploy is offered again");
    browser.screenshot("service-failed").await?;

    // The logs page has the failed deployment's lines under its name and outcome, and a search
    // keeps only the lines that say why.
    browser.click(".tabs a[href$='/logs']").await?;
    let execution = browser
        .wait_for_text(".execution", "failed on purpose")
        .await?;
    assert!(execution.contains("Deploy"), "{execution}");
    assert!(execution.contains("Build error"), "{execution}");
    assert!(execution.contains("Git clone: started."), "{execution}");
    browser.fill("#log-search", "ON PURPOSE").await?;
    let summary = browser
        .wait_for_text(".log-summary", "contain “ON PURPOSE”")
        .await?;
    assert!(summary.starts_with("1 of "), "{summary}");
    let shown = browser.find(".execution .log").await?.text().await?;
    assert!(!shown.contains("Git clone"), "{shown}");
    browser.screenshot("service-logs").await?;
    // An application's instances never started: their log search says it found no line.
    browser
        .wait_for_text(
            "section[aria-labelledby=instances-title]",
            "No line printed in this range.",
        )
        .await?;
    browser.close().await
}
