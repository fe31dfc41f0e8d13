//! A service's Monitoring tab against the reference server's simulated cluster: an application
//! whose memory was set under what its load needs, deployed 40 minutes ago, is seen restarting in
//! its health tiles and charts; a restart's marker opens the Kubernetes events that say why; a
//! range chosen is kept in the address; and an alert made from a preset, once a receiver exists,
//! fires and reaches the receiver.

use std::time::Duration;

use e2e::{Browser, TestEnvironment};
use serde_json::{json, Value};

use crate::loopback::receiver;

/// An application of two instances serving HTTP publicly, given `memory` MiB.
fn web(memory: i64) -> Value {
    json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"},
           "memory": memory, "cpu": 500, "min_running_instances": 2, "max_running_instances": 2,
           "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true,
                      "protocol": "HTTP"}]})
}

/// Waits until `css` shows `text`, reading the page again every few seconds: what a poll of 30 s
/// would show later.
async fn reload_until(
    browser: &Browser,
    path: &str,
    css: &str,
    text: &str,
) -> anyhow::Result<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    loop {
        browser.open(path).await?;
        match browser.wait_for_text(css, text).await {
            Ok(shown) => return Ok(shown),
            Err(error) if tokio::time::Instant::now() > deadline => return Err(error),
            Err(_) => tokio::time::sleep(Duration::from_secs(2)).await,
        }
    }
}

/// An application deployed healthy three hours ago, then given 16 MiB and deployed again 40
/// minutes ago: killed for memory since. Its environment and id.
async fn restarting_application(browser: &Browser) -> anyhow::Result<(TestEnvironment, String)> {
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let application = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            web(512),
        )
        .await?;
    browser.deployed(&application).await?;
    browser.backdate(&application, 600, 3 * 3600).await?;
    browser
        .api("PUT", &format!("/application/{application}"), web(16))
        .await?;
    browser.deployed(&application).await?;
    browser.backdate(&application, 600, 40 * 60).await?;
    Ok((place, application))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_restarting_for_memory_is_seen_explained_and_alerted_on() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let (place, application) = restarting_application(&browser).await?;

    browser.sign_in().await?;
    let monitoring = place.service_tab(&application, "monitoring");
    browser.open(&monitoring).await?;
    // Health: restarts and out-of-memory kills in the hour, coloured for attention.
    let attention = browser
        .wait_for_text(".health__tile--attention", "Restarts")
        .await?;
    assert!(attention.contains("on the 1 h before"), "{attention}");
    browser
        .wait_for_text(".health__tile--attention", "Out-of-memory kills")
        .await?;
    // The charts: an instance a line, against its request and limit.
    let cpu = browser
        .wait_for_text("figure.chart", "CPU per instance")
        .await?;
    assert!(cpu.contains("request") && cpu.contains("limit"), "{cpu}");
    let key = browser.find("figure.chart .chart__key").await?;
    key.click().await?;
    assert_eq!(key.attr("aria-pressed").await?.as_deref(), Some("false"));
    browser
        .wait_for_text("figure.chart", "Requests by status")
        .await?;
    browser.screenshot("monitoring-restarting").await?;

    // A restart's marker opens what Kubernetes said around it.
    browser
        .find(".chart__markers button.chart__marker--restart")
        .await?
        .click()
        .await?;
    let events = browser.wait_for_text(".k8s-events", "OOMKilled").await?;
    assert!(
        events.contains("What Kubernetes said about app-z"),
        "{events}"
    );

    // A range chosen is in the address, and the address shows it again.
    browser.click_text(".segmented button", "6h").await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !browser.query().await?.contains("range=6h") {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the range never reached the address"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    browser.open(&format!("{monitoring}?range=6h")).await?;
    let chosen = browser.find(".segmented button[aria-pressed=true]").await?;
    assert_eq!(chosen.text().await?, "6h");
    browser
        .wait_for_text(".health__tile--attention", "the 6 h before")
        .await?;

    // An alert needs a receiver: the form says where to make one.
    browser
        .click_text(".presets button", "An instance restarted")
        .await?;
    browser
        .wait_for_text(".notice", "has no alert receiver yet")
        .await?;
    let organization = browser.organization_id().await?;
    let (received, url) = receiver("/slack").await;
    browser
        .api(
            "POST",
            "/alert-receivers",
            json!({"organization_id": organization, "name": "oncall", "description": "",
                   "type": "SLACK", "send_resolved": true, "webhook_url": url}),
        )
        .await?;
    browser.open(&monitoring).await?;
    browser
        .click_text(".presets button", "An instance restarted")
        .await?;
    browser.find("input[name='condition.threshold']").await?;
    browser
        .click_text("form button", "Create the alert")
        .await?;
    browser
        .wait_for_text(
            "ul[aria-label=\"This service's alert rules\"]",
            "Instance restarted",
        )
        .await?;

    // Evaluated every 2 s here: it fires and its receiver hears of it; the organization's page
    // lists it with the service it watches.
    let alerts = format!("/organization/{organization}/alerts");
    let row = reload_until(&browser, &alerts, "tr[data-rule]", "Notified").await?;
    assert!(row.contains("web"), "{row}");
    assert!(received.count() >= 1);
    assert!(
        received.bodies()[0].contains("Instance restarted"),
        "{:?}",
        received.bodies()
    );
    browser.screenshot("alerts-notified").await?;
    browser.click_text("tr[data-rule] a", "web").await?;
    browser
        .wait_for_path(|path| path.ends_with("/monitoring"))
        .await?;

    // Where things are unwell: the environment's page and the organization's overview name it,
    // with why, a link to its Monitoring tab.
    browser.open(&place.page()).await?;
    let unwell = browser
        .wait_for_text(".unwell", "restarts in the last hour")
        .await?;
    assert!(
        unwell.contains("web — “Instance restarted” notified"),
        "{unwell}"
    );
    browser
        .open(&format!("/organization/{organization}/overview"))
        .await?;
    browser.wait_for_text(".unwell", "web").await?;
    let link = browser.find(".unwell a").await?;
    assert!(link
        .attr("href")
        .await?
        .unwrap_or_default()
        .ends_with("/monitoring"));
    browser.close().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_services_logs_are_filtered_paged_and_downloaded() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let (place, application) = restarting_application(&browser).await?;
    browser.sign_in().await?;
    let logs = place.service_tab(&application, "logs");
    browser.open(&logs).await?;
    // An hour of two instances' lines: a page of 200, newest first, and older ones asked for.
    browser
        .wait_for_text(".log-summary", "200 lines, newest first")
        .await?;
    browser.click_text("button", "Older lines").await?;
    browser
        .wait_for_text(".log-summary", "400 lines, newest first")
        .await?;
    // Only the rows on screen are in the page.
    let drawn = browser
        .client
        .find_all(fantoccini::Locator::Css(".log-search__row"))
        .await?
        .len();
    assert!(drawn < 100, "{drawn} rows drawn of 400");

    // At level error, the out-of-memory kills; then a text of any case among them.
    browser.choose("#log-filter-level", "error").await?;
    let rows = browser
        .wait_for_text(".log-search__rows", "out of memory")
        .await?;
    assert!(rows.lines().all(|line| !line.contains(" info ")), "{rows}");
    assert!(browser.query().await?.contains("level=error"));
    browser.fill("#log-filter-text", "FATAL: OUT").await?;
    browser
        .click_text("form[role=search] button", "Search")
        .await?;
    let summary = browser.wait_for_text(".log-summary", "matching").await?;
    let (name, text) = browser.downloaded("Download the lines shown").await?;
    assert!(
        name.starts_with("logs-") && name.ends_with(".txt"),
        "{name}"
    );
    let count: usize = summary
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .parse()?;
    assert_eq!(text.lines().count(), count, "{summary}");
    assert!(
        text.lines()
            .all(|line| line.contains(" error ") && line.contains("FATAL: out of memory")),
        "{text}"
    );
    browser.screenshot("logs-filtered").await?;

    // A filter no line matches says so.
    browser
        .fill("#log-filter-text", "no such words anywhere")
        .await?;
    browser
        .click_text("form[role=search] button", "Search")
        .await?;
    browser
        .wait_for_text(".log-summary", "No line matches the filter")
        .await?;
    browser.close().await
}
