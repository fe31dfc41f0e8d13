//! The environment page at scale, in headless Chromium, side by side with a static HTML table of
//! the same rows (served from memory by a bare axum server, its statuses refreshed by plain JS):
//!
//! - navigation → every row shown with its status: `performance.now()` when a frame first sees
//!   all rows and their statuses (its animation-frame callbacks run, before its style and
//!   layout), recorded by a script Chromium runs before the page's own, each load from a blank
//!   page (median of RUNS warm loads, every run printed, and the first, cold one);
//! - navigation → that frame drawn: the same frame once its style, layout and paint are done
//!   (the first task after it), what a person waits for;
//! - one status refresh where every status changes: the script time (DevTools
//!   `Performance.getMetrics` ScriptDuration) from the change in the database until every row
//!   shows it, and the same for a poll where nothing changed.
//!
//! With LATENCY (ms), both pages load over a network Chromium emulates: that latency on every
//! request and 50 Mbit/s down (loopback hides what fetching one file after another costs).
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench environment_page [-- SERVICES RUNS LATENCY]`
//! With `PROFILE=FILE`, a CPU profile of one load of the console's page is written there (its wasm
//! functions named when the console was built with `CONSOLE_WASM_NAMES=1`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Result};
use axum::routing::get;
use axum::Router;
use e2e::bench::{middle, times_after_opening};
use e2e::Browser;
use serde_json::{json, Value};

/// Records, in `window.__rowsAt`, the time of the first frame that shows `rows` services' rows
/// with their statuses (`data-service` rows, which the console's and the static table's are,
/// holding a `data-state` badge): a row without its status is not what a person came to see.
/// And in `window.__drawnAt`, when that frame has been laid out and painted: a message posted
/// from its callbacks is handled in the first task after it.
const ROWS_AT: &str = "(() => { const wanted = ROWS; const drawn = new MessageChannel();
    drawn.port1.onmessage = () => { window.__drawnAt = performance.now(); };
    const check = () => {
    if (document.querySelectorAll('tr[data-service] [data-state]').length >= wanted) {
        window.__rowsAt = performance.now(); drawn.port2.postMessage(null); }
    else { requestAnimationFrame(check); } }; requestAnimationFrame(check); })();";

/// The two times a load records.
const TIMES: [&str; 2] = ["__rowsAt", "__drawnAt"];

/// A window of time holding one of the console's polls (every two seconds while work runs).
const POLL_WINDOW: Duration = Duration::from_millis(2500);

/// The states a refresh switches every service between: all in progress, so that the console
/// polls every two seconds.
const STATES: [&str; 2] = ["BUILDING", "DEPLOYING"];

#[tokio::main]
async fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let services: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let latency: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let browser = Browser::start(1e9).await?;
    let place = browser
        .create_environment("bench", "production", "PRODUCTION")
        .await?;
    for index in 0..services {
        browser
            .create(
                &format!("/environment/{}/application", place.environment),
                json!({"name": format!("app-{index:05}"),
                       "git_repository": {"url": "https://git.example.com/a.git"}}),
            )
            .await?;
    }
    let statuses_path = format!("/environment/{}/statuses", place.environment);
    browser
        .api(
            "POST",
            &format!("/environment/{}/deploy", place.environment),
            json!({}),
        )
        .await?;
    eprintln!("{services} services created; deploying them");
    loop {
        let statuses = browser.api("GET", &statuses_path, Value::Null).await?;
        match statuses["environment"]["state"].as_str() {
            Some("DEPLOYED") => break,
            Some(state) if state.ends_with("_ERROR") => {
                bail!("the environment's deploy ended {state}: {statuses}")
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    eprintln!("deployed; measuring");
    let statuses = browser.api("GET", &statuses_path, Value::Null).await?;
    let names = browser
        .api(
            "GET",
            &format!("/environment/{}/services", place.environment),
            Value::Null,
        )
        .await?;

    let static_statuses = Arc::new(Mutex::new(statuses.to_string()));
    let static_url = static_table(static_page(&names, &statuses), static_statuses.clone()).await?;
    browser
        .devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": ROWS_AT.replace("ROWS", &services.to_string())}),
        )
        .await?;

    browser.sign_in().await?;
    if latency > 0 {
        browser.devtools("Network.enable", json!({})).await?;
        browser
            .devtools(
                "Network.emulateNetworkConditions",
                json!({"offline": false, "latency": latency,
                       "downloadThroughput": 50e6 / 8.0, "uploadThroughput": 10e6 / 8.0}),
            )
            .await?;
    }
    let console_url = browser.url(&place.page());
    let console_cold = times_after_opening(&browser, &console_url, TIMES).await?;
    if let Ok(path) = std::env::var("PROFILE") {
        write_profile(&browser, &console_url, &path).await?;
    }
    let ([console_load, static_load], [console_fastest, static_fastest]) =
        medians(&browser, [&console_url, &static_url], runs).await?;

    // The loads are timed as a person's browser runs them, without DevTools' performance
    // metrics, which the refresh's script time below needs (with them on, 11 interleaved loads
    // of the console: 420 ms against 400, within the machine's noise).
    browser.devtools("Performance.enable", json!({})).await?;
    // The console's page, open and settled, sees every status change at once, several times.
    browser.client.goto(&console_url).await?;
    shown_everywhere(&browser, "DEPLOYED", services).await?;
    let mut console_refresh = Vec::new();
    for run in 0..=runs {
        let state = STATES[run % 2];
        set_every_state(&browser, state).await?;
        if run == 0 {
            // The first change waits out the settled poll; from then on the page polls every
            // two seconds, and each window below holds one poll.
            shown_everywhere(&browser, state, services).await?;
            continue;
        }
        console_refresh.push(script_during(&browser, POLL_WINDOW).await?);
        shown_everywhere(&browser, state, services).await?;
    }
    let console_unchanged = script_during(&browser, POLL_WINDOW).await?;
    let loading = browser
        .client
        .execute(
            "return performance.getEntriesByType('resource')
               .map(e => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd)])",
            vec![],
        )
        .await?;

    browser.client.goto(&static_url).await?;
    browser.devtools("Performance.enable", json!({})).await?;
    let mut static_refresh = Vec::new();
    for run in 0..runs {
        let state = STATES[run % 2];
        set_every_state(&browser, state).await?;
        *static_statuses.lock().unwrap() = browser
            .api("GET", &statuses_path, Value::Null)
            .await?
            .to_string();
        // The answer fetched first, then read and applied in one task of the page's own timer
        // (script a WebDriver call runs, or a fetch's continuation, is not all counted in
        // ScriptDuration).
        browser
            .client
            .execute_async("fetchStatuses().then(arguments[0])", vec![])
            .await?;
        let before = script_seconds(&browser).await?;
        browser
            .client
            .execute("setTimeout(refresh, 0)", vec![])
            .await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        static_refresh.push((script_seconds(&browser).await? - before) * 1e3);
        shown_everywhere(&browser, state, services).await?;
    }

    println!("environment page, {services} services, median of {runs} runs, {latency} ms latency");
    println!("{:<48} {:>10} {:>14}", "", "console", "static table");
    println!(
        "{:<48} {:>10.0} {:>14.0}   (console cold: {:.0} ms)",
        "navigation → every row and status shown (ms)",
        console_load[0],
        static_load[0],
        console_cold[0]
    );
    // A short page suffers the machine's hiccups most: on a noisy day the static table's median
    // grows more than the console's, and their ratio shrinks. The fastest runs are the least
    // touched by noise.
    let fastest = |time: usize| {
        println!(
            "{:<48} {:>10.0} {:>14.0}   ({:.2}×; medians {:.2}×)",
            "  fastest run of each",
            console_fastest[time],
            static_fastest[time],
            console_fastest[time] / static_fastest[time],
            console_load[time] / static_load[time]
        )
    };
    fastest(0);
    println!(
        "{:<48} {:>10.0} {:>14.0}   (console cold: {:.0} ms)",
        "navigation → that frame drawn (ms)", console_load[1], static_load[1], console_cold[1]
    );
    // The static table's rows are sometimes all parsed before its first frame, which then lays
    // them out whole: its fastest "shown" can fall far below its usual one, not its "drawn".
    fastest(1);
    println!(
        "{:<48} {:>10.1} {:>14.1}",
        "script of a refresh changing every status (ms)",
        middle(console_refresh),
        middle(static_refresh)
    );
    println!(
        "{:<48} {:>10.1}",
        "script of a poll changing nothing (ms)", console_unchanged
    );
    println!("the console's requests (path, start and end in ms after navigation): {loading}");
    browser.close().await?;
    Ok(())
}

/// The median of each of the two times of each page over `runs` loads, the pages loaded in turn
/// so that the machine's noise falls on both alike; and each page's fastest of each time.
async fn medians(
    browser: &Browser,
    urls: [&str; 2],
    runs: usize,
) -> Result<([[f64; 2]; 2], [[f64; 2]; 2])> {
    let mut loads = [Vec::new(), Vec::new()];
    for _ in 0..runs {
        for (url, loads) in urls.iter().zip(&mut loads) {
            loads.push(times_after_opening(browser, url, TIMES).await?);
        }
    }
    // Every run, for the noise to be seen.
    for (url, loads) in urls.iter().zip(&loads) {
        eprintln!("{url}: (shown, drawn) {loads:.0?} ms");
    }
    let medians = loads
        .each_ref()
        .map(|loads| [0, 1].map(|time| middle(loads.iter().map(|load| load[time]).collect())));
    let fastest = loads.map(|loads| {
        [0, 1].map(|time| {
            loads
                .iter()
                .map(|load| load[time])
                .fold(f64::INFINITY, f64::min)
        })
    });
    Ok((medians, fastest))
}

/// The page's script time so far, in seconds.
async fn script_seconds(browser: &Browser) -> Result<f64> {
    let metrics = browser
        .devtools("Performance.getMetrics", json!({}))
        .await?;
    metrics["metrics"]
        .as_array()
        .and_then(|all| all.iter().find(|m| m["name"] == "ScriptDuration"))
        .and_then(|m| m["value"].as_f64())
        .ok_or_else(|| anyhow::anyhow!("no ScriptDuration in {metrics}"))
}

/// The page's script time, in ms, over `window`, nothing else asking it to run script.
async fn script_during(browser: &Browser, window: Duration) -> Result<f64> {
    let before = script_seconds(browser).await?;
    tokio::time::sleep(window).await;
    Ok((script_seconds(browser).await? - before) * 1e3)
}

/// Every service's state changed in the database, as the engine would.
async fn set_every_state(browser: &Browser, state: &str) -> Result<()> {
    sqlx::query("UPDATE service_statuses SET state = ?")
        .bind(state)
        .execute(&browser.server.state.db)
        .await?;
    Ok(())
}

async fn shown_everywhere(browser: &Browser, state: &str, services: usize) -> Result<()> {
    let count = format!(
        "return document.querySelectorAll('tr[data-service] [data-state=\"{state}\"]').length"
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while browser.client.execute(&count, vec![]).await?.as_u64() != Some(services as u64) {
        if tokio::time::Instant::now() > deadline {
            let shown = browser
                .client
                .execute(
                    "return [document.querySelectorAll('tr[data-service]').length,
                             [...document.querySelectorAll('tr[data-service] [data-state]')].map(e => e.dataset.state).slice(0, 5),
                             document.querySelector('main')?.innerText.slice(0, 300)]",
                    vec![],
                )
                .await?;
            bail!(
                "the page never showed {state} on every row; it shows (rows, states, text) {shown}"
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// The same rows as the console's table, as static HTML, with a plain-JS `refresh()` that reads
/// the statuses and updates each row's cells.
fn static_page(names: &Value, statuses: &Value) -> String {
    let mut rows = String::new();
    let state_of = |id: &Value| {
        [
            "applications",
            "containers",
            "jobs",
            "databases",
            "helms",
            "terraforms",
        ]
        .iter()
        .flat_map(|kind| statuses[kind].as_array().cloned().unwrap_or_default())
        .find(|status| &status["id"] == id)
        .unwrap_or(Value::Null)
    };
    for service in names["results"].as_array().unwrap() {
        let status = state_of(&service["id"]);
        rows.push_str(&format!(
            "<tr id=\"s-{id}\" data-service=\"{name}\"><td><a href=\"#{id}\">{name}</a></td><td>Application</td>\
             <td><span class=\"badge\" data-state=\"{state}\">{state}</span></td>\
             <td>{deployment}</td><td>{date}</td></tr>",
            id = service["id"].as_str().unwrap(),
            name = service["name"].as_str().unwrap(),
            state = status["state"].as_str().unwrap_or(""),
            deployment = status["service_deployment_status"].as_str().unwrap_or(""),
            date = status["last_deployment_date"].as_str().unwrap_or(""),
        ));
    }
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Static table</title>\
         </head><body><table><thead><tr><th>Name</th><th>Kind</th><th>Status</th><th>Deployment</th>\
         <th>Last deployed</th></tr></thead><tbody>{rows}</tbody></table><script>\
         let fetched = '{{}}';\
         async function fetchStatuses() {{ fetched = await (await fetch('/statuses')).text(); }}\
         function refresh() {{\
           const statuses = JSON.parse(fetched);\
           for (const kind of ['applications','containers','jobs','databases','helms','terraforms']) {{\
             for (const s of statuses[kind] || []) {{\
               const row = document.getElementById('s-' + s.id); if (!row) continue;\
               const badge = row.cells[2].firstChild;\
               if (badge.dataset.state !== s.state) {{ badge.dataset.state = s.state; badge.textContent = s.state; }}\
               if (row.cells[3].textContent !== s.service_deployment_status) row.cells[3].textContent = s.service_deployment_status;\
             }}\
           }}\
         }}</script></body></html>"
    )
}

/// Serves `page` at `/` and the current `statuses` at `/statuses`; returns the page's address.
async fn static_table(page: String, statuses: Arc<Mutex<String>>) -> Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/", listener.local_addr()?);
    let router = Router::new()
        .route(
            "/",
            get(move || {
                let page = page.clone();
                async move { axum::response::Html(page) }
            }),
        )
        .route(
            "/statuses",
            get(move || {
                let body = statuses.lock().unwrap().clone();
                async move { ([("content-type", "application/json")], body) }
            }),
        );
    // Served as the console's server serves.
    let listener = platform_server::without_nagle(listener);
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(url)
}

/// A CPU profile of one load of `url` (DevTools' sampling profiler, a sample each 100 µs), written
/// to `path` as DevTools' `.cpuprofile` JSON, which Chromium's DevTools opens.
async fn write_profile(browser: &Browser, url: &str, path: &str) -> Result<()> {
    browser.devtools("Profiler.enable", json!({})).await?;
    browser
        .devtools("Profiler.setSamplingInterval", json!({"interval": 100}))
        .await?;
    // The last page torn down before the profile starts (the load below leaves a blank page again).
    browser.client.goto("about:blank").await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    browser.devtools("Profiler.start", json!({})).await?;
    times_after_opening(browser, url, TIMES).await?;
    let profile = browser.devtools("Profiler.stop", json!({})).await?;
    std::fs::write(path, profile["profile"].to_string())?;
    eprintln!("a CPU profile of one load written to {path}");
    Ok(())
}
