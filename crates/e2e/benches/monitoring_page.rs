//! A service of INSTANCES instances deployed a week ago, in headless Chromium:
//!
//! - its Monitoring tab at 24 hours, "7d" clicked: the time until every chart shows the 7 days
//!   (the CPU chart a line per instance) and the main thread's script time meanwhile (DevTools'
//!   `ScriptDuration`: the answers decoded and the SVG built), median of RUNS;
//! - its logs page over 7 days holding LINES lines ("Older lines" until it does): the rows in the
//!   DOM, the JavaScript heap, and the frames of a scroll from the newest line towards the
//!   oldest at ten rows a millisecond (p50, p99 and the longest frame; 16.7 ms is 60 a second).
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench monitoring_page [-- INSTANCES LINES RUNS]`

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use e2e::bench::middle;
use e2e::Browser;
use serde_json::{json, Value};

/// Chooses the 7-day range on the Monitoring tab shown at 24 hours, and resolves with the
/// milliseconds until a frame shows every chart over 7 days: each chart's time axis changed and
/// the CPU chart's `arguments[0]` lines each drawn anew.
const SEVEN_DAYS_DRAWN: &str = "const [instances, done] = arguments;
    const charts = () => [...document.querySelectorAll('figure.chart')]
        .filter(c => !c.querySelector('.chart__plot[hidden]'));
    const title = (c) => c.querySelector('h3').textContent;
    const axis = (c) => [...c.querySelectorAll('text.chart__tick[text-anchor=middle]')].map(t => t.textContent).join();
    const cpu = () => charts().find(c => title(c).includes('CPU per instance'));
    const lines = (c) => c ? [...c.querySelectorAll('path.chart__line')].map(p => p.getAttribute('d')) : [];
    const axes = new Map(charts().map(c => [title(c), axis(c)]));
    const before = new Set(lines(cpu()));
    const start = performance.now();
    [...document.querySelectorAll('button')].find(b => b.textContent.trim() === '7d').click();
    const check = () => {
        const now = lines(cpu());
        const drawn = now.length >= instances && now.every(d => !before.has(d))
            && charts().every(c => !axes.has(title(c)) || axis(c) !== axes.get(title(c)));
        if (drawn) { done(performance.now() - start); } else { requestAnimationFrame(check); }
    };
    requestAnimationFrame(check);";

/// Scrolls the log from the top, `arguments[0]` rows a millisecond, for 600 frames or to the
/// bottom, and resolves with the time between each two frames.
const SCROLL: &str = "const [rowsPerMs, done] = arguments;
    const scroller = document.querySelector('.log-search__scroller');
    const frames = [];
    let last = performance.now();
    const step = (now) => {
        frames.push(now - last);
        scroller.scrollTop += (now - last) * rowsPerMs * 22;
        last = now;
        if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1 || frames.length >= 600) {
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

    let monitoring = place.service_tab(&web, "monitoring");
    let mut drawn = Vec::new();
    let mut scripts = Vec::new();
    for _ in 0..runs {
        browser.open(&format!("{monitoring}?range=24h")).await?;
        browser
            .wait_for_text("figure.chart", "CPU per instance")
            .await?;
        // Every chart of the 24 hours drawn before the range changes.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let before = script_seconds(&browser).await?;
        let took = match browser
            .client
            .execute_async(SEVEN_DAYS_DRAWN, vec![json!(instances)])
            .await
        {
            Ok(took) => took,
            Err(error) => {
                browser.screenshot("bench-monitoring-7d").await?;
                bail!("the charts were not drawn over 7 days: {error}");
            }
        };
        scripts.push((script_seconds(&browser).await? - before) * 1e3);
        drawn.push(took.as_f64().unwrap_or(f64::NAN));
    }
    if !browser.query().await?.contains("range=7d") {
        bail!("the Monitoring tab did not change to 7 days");
    }
    println!("a service of {instances} instances deployed a week ago, median of {runs} runs");
    println!(
        "{:<60} {:>10.1} ms",
        "Monitoring tab, 24 h → 7 days: clicked → every chart drawn",
        middle(drawn)
    );
    println!(
        "{:<60} {:>10.1} ms",
        "  of which script (decoding, building the SVG)",
        middle(scripts)
    );

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
        &browser
            .devtools("Performance.getMetrics", json!({}))
            .await?,
        "JSHeapUsedSize",
    )?;
    let frames: Vec<f64> = serde_json::from_value(
        browser
            .client
            .execute_async(SCROLL, vec![json!(10.0)])
            .await?,
    )?;
    let longest = frames.iter().copied().fold(0.0, f64::max);

    println!(
        "logs over 7 days: {held} lines held after {pages} pages of older lines; {} rows in the DOM; \
         JS heap {:.1} MB",
        rows,
        heap / 1e6
    );
    println!(
        "{:<60} {:>10.1} ms p50, {:.1} ms p99, {:.1} ms longest, {} frames",
        "  scrolled 10 rows a millisecond for 600 frames: frame time",
        percentile(frames.clone(), 50),
        percentile(frames.clone(), 99),
        longest,
        frames.len()
    );
    browser.close().await
}
