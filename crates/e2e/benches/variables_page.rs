//! A service's variables page with 2,000 variables of its own, in headless Chromium:
//!
//! - `GET /variable` of the service (what the page reads), median request time;
//! - navigation → the first page of rows (100) in the DOM, `performance.now()` of the first frame
//!   that shows them (median of RUNS warm loads);
//! - "Edit as text…" with every line changed: from the text's input event to the frame that shows
//!   every change of the preview (2,000 rows), median of RUNS.
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench variables_page [-- VARIABLES RUNS]`

use std::time::Instant;

use anyhow::{bail, Result};
use e2e::bench::{middle, rows_at};
use e2e::Browser;
use serde_json::{json, Value};

/// Records, in `window.__rowsAt`, the time of the first frame that shows 100 variable rows.
const ROWS_AT: &str = "(() => { const check = () => {
    if (document.querySelectorAll('tbody[data-variable]').length >= 100) { window.__rowsAt = performance.now(); }
    else { requestAnimationFrame(check); } }; requestAnimationFrame(check); })();";

/// Replaces the text of the open "Edit as text" dialog and resolves with the milliseconds until
/// a frame shows `arguments[0]` changes.
const EDIT_ALL: &str = "const [wanted, text, done] = arguments;
    const area = document.querySelector('#as-text');
    const start = performance.now();
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
    const check = () => {
        if (document.querySelectorAll('tr[data-change]').length >= wanted) { done(performance.now() - start); }
        else { requestAnimationFrame(check); } };
    requestAnimationFrame(check);";

#[tokio::main]
async fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let browser = Browser::start(1e9).await?;
    let place = browser
        .create_environment("bench", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    let set: Vec<Value> = (0..count)
        .map(|at| json!({"key": format!("VARIABLE_{at:05}"), "value": format!("value-{at}")}))
        .collect();
    browser
        .api(
            "POST",
            &format!("/application/{web}/environmentVariable/bulk"),
            json!({ "set": set }),
        )
        .await?;

    let list = format!("/variable?parent_id={web}&scope=APPLICATION");
    let mut reads = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let answer = browser.api("GET", &list, Value::Null).await?;
        reads.push(started.elapsed().as_secs_f64() * 1e3);
        if answer["results"].as_array().map_or(0, Vec::len) < count {
            bail!("the list holds fewer than {count} variables");
        }
    }

    browser
        .devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": ROWS_AT }),
        )
        .await?;
    browser.sign_in().await?;
    let url = browser.url(&place.service_tab(&web, "variables"));
    let mut loads = Vec::new();
    for _ in 0..runs {
        loads.push(rows_at(&browser, &url).await?);
    }

    browser.open_new("Edit as text…").await?;
    browser.wait_for_value("#as-text", "VARIABLE_00000").await?;
    let mut edits = Vec::new();
    for run in 0..runs {
        let text: String = (0..count)
            .map(|at| format!("VARIABLE_{at:05}=changed-{run}-{at}\n"))
            .collect();
        let took = browser
            .client
            .execute_async(EDIT_ALL, vec![json!(count), json!(text)])
            .await?;
        edits.push(took.as_f64().unwrap_or(f64::NAN));
    }

    println!("variables page, {count} variables of one service, median of {runs} runs");
    println!(
        "{:<52} {:>10.1} ms",
        "GET /variable (the page's read)",
        middle(reads)
    );
    println!(
        "{:<52} {:>10.1} ms",
        "navigation → first 100 rows in the DOM",
        middle(loads)
    );
    println!(
        "{:<52} {:>10.1} ms",
        format!("edit as text: {count} lines changed → preview shown"),
        middle(edits)
    );
    browser.close().await
}
