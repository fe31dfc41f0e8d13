//! A service of INSTANCES instances deployed a week ago, in headless Chromium:
//!
//! - its Monitoring tab over 7 days, opened from its overview: the time until every chart shows
//!   its lines (the CPU chart one per instance) and the main thread's script time meanwhile
//!   (DevTools' `ScriptDuration`: the answers decoded and the SVG built), median of RUNS;
//! - its logs page over 7 days holding LINES lines ("Older lines" until it does): the rows in the
//!   DOM, the JavaScript heap, and the frames of a scroll from the newest line to the oldest at
//!   a row per millisecond (p50, p99 and the longest frame; 16.7 ms is 60 frames a second).
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench monitoring_page [-- INSTANCES LINES RUNS]`

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use e2e::bench::middle;
use e2e::Browser;
use serde_json::{json, Value};

/// Resolves with the milliseconds from now until a frame shows `arguments[0]` lines in the CPU
/// chart and every other chart drawn, once the Monitoring tab is clicked.
const CHARTS_DRAWN: &str = "const [instances, done] = arguments;
    const start = performance.now();
    document.querySelector(\"a.tabs__tab[href$='/monitoring']\").click();
    const check = () => {
        const charts = [...document.querySelectorAll('figure.chart')];
        const cpu = charts.find(c => c.textContent.includes('CPU per instance'));
        const drawn = cpu && cpu.querySelectorAll('path.chart__line').length >= instances
            && charts.length >= 4
            && charts.every(c => c.querySelector('path.chart__line') || c.querySelector('.chart__plot[hidden]'));
        if (drawn) { done(performance.now() - start); } else { requestAnimationFrame(check); }
    };
    requestAnimationFrame(check);";

/// Scrolls the log from top to bottom, `arguments[0]` rows a millisecond, and resolves with the
/// time between each two frames.
const SCROLL: &str = "const [rowsPerMs, done] = arguments;
    const scroller = document.querySelector('.log-search__scroller');
    const frames = [];
    let last = performance.now();
    const step = (now) => {
        frames.push(now - last);
        scroller.scrollTop += (now - last) * rowsPerMs * 22;
        last = now;
        if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1 || frames.length > 5000) {
            done(frames);
        } else { requestAnimationFrame(step); }
    };
    requestAnimationFrame(step);";

/// The lines the logs page holds, from its summary ("200 lines, newest first.").
async fn lines_held(browser: &Browser) -> Result<usize> {
    let summary = browser.find(".log-summary").await?.text().await?;
    Ok(summary
        .split_whitespace()
        .next()
        .and_then(|count| count.parse().ok())
        .unwrap_or(0))
}

async fn script_seconds(browser: &Browser) -> Result<f64> {
    let metrics = browser
        .devtools("Performance.getMetrics", json!({}))
        .await?;
    metric(&metrics, "ScriptDuration")
}

fn metric(metrics: &Value, name: &str) -> Result<f64> {
    metrics["metrics"]
        .as_array()
        .and_then(|all| all.iter().find(|m| m["name"] == name))
        .and_then(|m| m["value"].as_f64())
        .ok_or_else(|| anyhow::anyhow!("no metric {name}"))
}

fn percentile(mut values: Vec<f64>, share: usize) -> f64 {
    values.sort_by(f64::total_cmp);
    values[(values.len() * share / 100).min(values.len() - 1)]
}

#[tokio::main]
async fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let instances: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let lines: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let browser = Browser::start(1e9).await?;
    let place = browser
        .create_environment("bench", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"},
                   "memory": 512, "cpu": 500,
                   "min_running_instances": instances, "max_running_instances": instances,
                   "ports": [{"internal_port": 8080, "external_port": 443,
                              "publicly_accessible": true, "protocol": "HTTP"}]}),
        )
        .await?;
    browser.deployed(&web).await?;
    browser.backdate(&web, 600, 7 * 86_400).await?;
    browser.devtools("Performance.enable", json!({})).await?;
    browser.sign_in().await?;

    let overview = place.service_page(&web);
    let mut drawn = Vec::new();
    let mut scripts = Vec::new();
    for _ in 0..runs {
        // The 7-day range is the address's: the tab's link keeps it from the overview's query.
        browser.open(&format!("{overview}?range=7d")).await?;
        browser.find("a.tabs__tab[href$='/monitoring']").await?;
        let before = script_seconds(&browser).await?;
        let took = browser
            .client
            .execute_async(CHARTS_DRAWN, vec![json!(instances)])
            .await?;
        scripts.push((script_seconds(&browser).await? - before) * 1e3);
        drawn.push(took.as_f64().unwrap_or(f64::NAN));
    }
    if !browser.query().await?.contains("range=7d") {
        bail!("the Monitoring tab did not open over 7 days");
    }

    browser
        .open(&format!("{}?range=7d", place.service_tab(&web, "logs")))
        .await?;
    browser.find(".log-search__scroller").await?;
    let mut pages = 0;
    let mut held = lines_held(&browser).await?;
    while held < lines {
        if pages > lines / 200 + 5 {
            bail!("{held} lines after {pages} pages: the range holds fewer than {lines}");
        }
        browser.click_text("button", "Older lines").await?;
        pages += 1;
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let now_held = lines_held(&browser).await?;
            if now_held > held {
                held = now_held;
                break;
            }
            if Instant::now() > deadline {
                bail!("no older lines after {held}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let rows = browser
        .client
        .execute(
            "return document.querySelectorAll('.log-search__row').length",
            vec![],
        )
        .await?;
    let heap = metric(
        &browser.devtools("Performance.getMetrics", json!({})).await?,
        "JSHeapUsedSize",
    )?;
    let frames: Vec<f64> = serde_json::from_value(
        browser
            .client
            .execute_async(SCROLL, vec![json!(1.0)])
            .await?,
    )?;
    let longest = frames.iter().copied().fold(0.0, f64::max);

    println!("a service of {instances} instances deployed a week ago, median of {runs} runs");
    println!(
        "{:<60} {:>10.1} ms",
        "Monitoring tab over 7 days: clicked → every chart drawn",
        middle(drawn)
    );
    println!(
        "{:<60} {:>10.1} ms",
        "  of which script (decoding, building the SVG)",
        middle(scripts)
    );
    println!(
        "logs over 7 days: {held} lines held after {pages} pages of older lines; {} rows in the DOM; \
         JS heap {:.1} MB",
        rows,
        heap / 1e6
    );
    println!(
        "{:<60} {:>10.1} ms p50, {:.1} ms p99, {:.1} ms longest, {} frames",
        "  scrolled top to bottom, a row a millisecond: frame time",
        percentile(frames.clone(), 50),
        percentile(frames.clone(), 99),
        longest,
        frames.len()
    );
    browser.close().await
}
