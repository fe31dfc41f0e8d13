//! The console's bytes before a page is interactive, page by page: the console is split by page
//! (scripts/build-wasm.sh), so a first visit loads the shell's code and that page's. Headless
//! Chromium opens each page with an empty cache and lists what it fetched from the console (the
//! API's answers left out, config.json kept) until the page shows and nothing more is fetched for
//! a second; each of those files is then fetched again as sent raw, gzip- and brotli-compressed.
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench first_load`

use std::io::Read;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use e2e::Browser;
use serde_json::json;

/// How long the page must fetch no more of the console to count as loaded (the API's answers, a
/// page's polls among them, do not count; the prefetch of the other pages waits longer).
const QUIET: Duration = Duration::from_secs(1);

#[tokio::main]
async fn main() -> Result<()> {
    let browser = Browser::start(1e9).await?;
    let place = browser
        .create_environment("bench", "production", "PRODUCTION")
        .await?;
    let service = browser
        .create_application(&place.environment, "web")
        .await?;
    let organization = &place.organization;

    let signed_in = [
        (
            "Organization (after sign-in)",
            format!("/organization/{organization}/overview"),
            "main h1",
        ),
        (
            "Project",
            format!(
                "/organization/{organization}/project/{}/overview",
                place.project
            ),
            "main h1",
        ),
        ("Environment", place.page(), "tbody tr"),
        ("Service", place.service_page(&service), "main h1"),
        // The heaviest groups (each waits until its tab's own code has come: `QUIET`).
        (
            "Service settings",
            place.service_tab(&service, "settings"),
            "main h1",
        ),
        (
            "Service monitoring",
            place.service_tab(&service, "monitoring"),
            "main h1",
        ),
        (
            "Service logs",
            place.service_tab(&service, "logs"),
            "main h1",
        ),
        ("Environment settings", place.tab("settings"), "main h1"),
        ("Environment variables", place.tab("variables"), "main h1"),
        (
            "Service variables",
            place.service_tab(&service, "variables"),
            "main h1",
        ),
        (
            "Service advanced settings",
            place.service_tab(&service, "advanced-settings"),
            "main h1",
        ),
        (
            "Organization settings",
            format!("/organization/{organization}/settings/webhooks"),
            "main h1",
        ),
        (
            "Cloud credentials",
            format!("/organization/{organization}/settings/cloud-credentials"),
            "main h1",
        ),
        (
            "Clusters",
            format!("/organization/{organization}/clusters"),
            "main h1",
        ),
        (
            "Fleet",
            format!("/organization/{organization}/fleet"),
            "main h1",
        ),
        (
            "Alerts",
            format!("/organization/{organization}/alerts"),
            "main h1",
        ),
    ];

    println!(
        "{:<30} {:>6} {:>10} {:>10} {:>10}",
        "page", "files", "raw", "gzip", "brotli"
    );
    report(
        &browser,
        "Sign-in (signed out)",
        "/sign-in",
        "#field-token",
        None,
    )
    .await?;
    browser.sign_in().await?;
    for (title, path, shown) in &signed_in {
        report(&browser, title, path, shown, None).await?;
    }
    // The deploy review, a dialog of its own code, opened from the service page.
    browser.review_deploys().await?;
    report(
        &browser,
        "Service, then its deploy review",
        &place.service_page(&service),
        "main h1",
        Some(("Deploy", "dialog.deploy-review[open]")),
    )
    .await?;
    // Later pages: once the first is shown and the browser idle, every page's code is fetched
    // (`state::prefetch`); moving on, as a link does, fetches none.
    browser
        .devtools("Network.clearBrowserCache", json!({}))
        .await?;
    browser.open(&signed_in[0].1).await?;
    browser.find("html[data-prefetched=true]").await?;
    for (title, path, shown) in &signed_in[1..] {
        browser.forget_requests().await?;
        browser.follow(path).await?;
        browser.find(shown).await?;
        tokio::time::sleep(QUIET).await;
        let code = browser.code_fetched().await?;
        let [raw, gzip, brotli] = sizes(&browser, &code).await?;
        println!(
            "{:<30} {:>6} {raw:>10} {gzip:>10} {brotli:>10}",
            format!("then {title}"),
            code.len()
        );
    }
    browser.close().await
}

/// Prints the bytes `path` fetched before it showed `shown` (and, with `--files`, the files);
/// with `then`, the button clicked there and what it shows, counted too.
async fn report(
    browser: &Browser,
    title: &str,
    path: &str,
    shown: &str,
    then: Option<(&str, &str)>,
) -> Result<()> {
    let files = fetched_before_interactive(browser, path, shown, then).await?;
    let [raw, gzip, brotli] = sizes(browser, &files).await?;
    println!(
        "{title:<30} {:>6} {raw:>10} {gzip:>10} {brotli:>10}",
        files.len()
    );
    if std::env::args().any(|arg| arg == "--files") {
        for file in &files {
            println!("    {file}");
        }
    }
    Ok(())
}

/// The console's files the browser fetched to show `path`, from an empty cache.
async fn fetched_before_interactive(
    browser: &Browser,
    path: &str,
    shown: &str,
    then: Option<(&str, &str)>,
) -> Result<Vec<String>> {
    browser
        .devtools("Network.clearBrowserCache", json!({}))
        .await?;
    browser.open(path).await?;
    browser.find(shown).await?;
    if let Some((button, shown)) = then {
        browser.click_button(button).await?;
        browser.find(shown).await?;
    }
    let list = "return [performance.getEntriesByType('navigation')[0].name]
        .concat(performance.getEntriesByType('resource').map(e => e.name))
        .map(name => new URL(name)).filter(url => url.origin === location.origin)
        .map(url => url.pathname).filter(path => !path.startsWith('/api/'))";
    let mut files: Vec<String> = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        tokio::time::sleep(QUIET).await;
        let now: Vec<String> = serde_json::from_value(browser.client.execute(list, vec![]).await?)?;
        if now.len() == files.len() {
            break;
        }
        files = now;
        if tokio::time::Instant::now() > deadline {
            bail!("{path} kept fetching files");
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// The bytes of `files` as the server sends them: raw, gzip, brotli.
async fn sizes(browser: &Browser, files: &[String]) -> Result<[usize; 3]> {
    let mut totals = [0; 3];
    for file in files {
        for (total, encoding) in totals.iter_mut().zip(["identity", "gzip", "br"]) {
            let url = browser.url(file);
            *total += tokio::task::spawn_blocking(move || -> Result<usize> {
                let answer = ureq::get(&url)
                    .set("Accept-Encoding", encoding)
                    .call()
                    .with_context(|| format!("GET {url}"))?;
                let mut body = Vec::new();
                answer.into_reader().read_to_end(&mut body)?;
                Ok(body.len())
            })
            .await??;
        }
    }
    Ok(totals)
}
