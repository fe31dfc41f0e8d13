//! The organization's timeline in headless Chromium: the time from opening it to its first
//! entries drawn, on the demo (`--demo`) and on an organization holding EVENTS events over the
//! last week (written straight into the audit log's table: the API would take them at its rate
//! limit). Median of RUNS, each a fresh page load with the console's code cached; the time
//! includes WebDriver's round trips (a few ms).
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench timeline_page [-- EVENTS RUNS]`

use std::time::Instant;

use anyhow::Result;
use e2e::bench::middle;
use e2e::Browser;

async fn first_entries(browser: &Browser, organization: &str, runs: usize) -> Result<Vec<f64>> {
    let page = format!("/organization/{organization}/timeline");
    // Once to fetch the code, then measured.
    browser.open(&page).await?;
    browser.find(".timeline__entry").await?;
    let mut times = Vec::new();
    for _ in 0..runs {
        browser.open("/").await?;
        browser.find("main h1").await?;
        let started = Instant::now();
        browser.open(&page).await?;
        browser.find(".timeline__entry").await?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(times)
}

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let events: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);

    let demo = Browser::start_demo(20.0).await?;
    let organization = demo.organization_id().await?;
    demo.sign_in().await?;
    let times = first_entries(&demo, &organization, runs).await?;
    println!(
        "demo: first entries in {:.0} ms (median of {runs}; {times:.0?})",
        middle(times.clone())
    );
    demo.close().await?;

    let browser = Browser::start(20.0).await?;
    let organization = browser.organization_id().await?;
    // A minute apart, the newest now: EVENTS changes to 50 services by 5 people.
    sqlx::query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
         INSERT INTO audit_events (id, organization_id, at_nanos, event_type, target_type,
             target_id, target_name, change, origin, triggered_by)
         SELECT printf('00000000-0000-4000-8000-%012d', i), ?1, (CAST(strftime('%s', 'now') AS INTEGER) - i * 60) * 1000000000,
             'UPDATE', 'APPLICATION', NULL, printf('svc-%d', i % 50), '', 'CONSOLE',
             printf('person-%d@example.com', i % 5)
         FROM n",
    )
    .bind(&organization)
    .bind(events)
    .execute(&browser.server.state.db)
    .await?;
    browser.sign_in().await?;
    let times = first_entries(&browser, &organization, runs).await?;
    println!(
        "{events} events: first entries in {:.0} ms (median of {runs}; {times:.0?})",
        middle(times.clone())
    );
    browser.close().await
}
