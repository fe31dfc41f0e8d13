//! The review before a deploy, in headless Chromium:
//!
//! - a service whose branch is COMMITS commits ahead of what it runs, with CHANGES audit entries
//!   (its variables) since its deployment: from the click on Deploy to the frame that shows the
//!   code part (the commits), and to the frame that shows every part, median of RUNS; and the API
//!   requests the review sent;
//! - an environment of SERVICES services: from the click on Deploy all to the frame that lists
//!   every service, and the requests sent (none per service until a line is opened).
//!
//! Needs the built console (`scripts/build-console.sh`) and chromium/chromedriver (scripts/setup.sh).
//! `cargo bench -p e2e --bench deploy_review [-- COMMITS CHANGES SERVICES RUNS]`

use anyhow::Result;
use e2e::bench::middle;
use e2e::{Browser, Repository};
use platform_server::git;
use serde_json::{json, Value};

/// Clicks the button of the actions labelled `arguments[0]`, then resolves with the milliseconds
/// until a frame shows `arguments[1]` in the open review, and until one shows no part loading.
const REVIEW: &str = "const [label, first, done] = arguments;
    const button = [...document.querySelectorAll('.actions > button')].find(b => b.textContent.trim() === label);
    const start = performance.now();
    let shown = null;
    button.click();
    const check = () => {
        const dialog = document.querySelector('dialog.deploy-review[open]');
        const text = dialog ? dialog.textContent : '';
        if (shown === null && text.includes(first)) { shown = performance.now() - start; }
        if (shown !== null && dialog && !dialog.querySelector('.skeleton')) {
            done([shown, performance.now() - start]);
        } else { requestAnimationFrame(check); } };
    requestAnimationFrame(check);";

async fn settle(browser: &Browser, service: &str) -> Result<()> {
    let status = format!("/application/{service}/status");
    while browser.api("GET", &status, Value::Null).await?["state"] != "DEPLOYED" {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    Ok(())
}

/// Clicks `label`, times the review, closes it; the requests it sent.
async fn review(browser: &Browser, label: &str, first: &str) -> Result<(f64, f64, Vec<String>)> {
    // Past the second for which the console shares an answer just read: every run reads anew.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    browser.forget_requests().await?;
    let times = browser
        .client
        .execute_async(REVIEW, vec![json!(label), json!(first)])
        .await?;
    let requests = browser.api_requests().await?;
    browser
        .click("dialog.deploy-review[open] .confirm__actions .button--secondary")
        .await?;
    let time = |at: usize| times[at].as_f64().unwrap_or(f64::NAN);
    Ok((time(0), time(1), requests))
}

#[tokio::main]
async fn main() -> Result<()> {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let mut next = |default: usize| args.next().and_then(|a| a.parse().ok()).unwrap_or(default);
    let (commits, changes, services, runs) = (next(200), next(300), next(100), next(5));

    let repository = Repository::with(&[("First", &[("file.txt", "0")])])?;
    let browser = Browser::start(1e9).await?;
    let place = browser
        .create_environment("bench", "production", "PRODUCTION")
        .await?;
    let url = repository.url();
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await?;
    browser
        .api("POST", &format!("/application/{web}/deploy"), json!({}))
        .await?;
    settle(&browser, &web).await?;
    // The branch moves on, COMMITS commits past what runs.
    for at in 1..=commits {
        let (file, content) = (format!("file-{}.txt", at % 10), at.to_string());
        git::commit(
            repository.path(),
            &format!("Change {at}"),
            &[(&file, &content)],
        )?;
    }
    for at in 0..changes {
        browser
            .api(
                "POST",
                &format!("/application/{web}/environmentVariable"),
                json!({"key": format!("CHANGE_{at:04}"), "value": at.to_string()}),
            )
            .await?;
    }
    for at in 1..services {
        browser
            .create_application(&place.environment, &format!("service-{at:03}"))
            .await?;
    }

    browser.sign_in().await?;
    browser.review_deploys().await?;
    browser.open(&place.service_page(&web)).await?;
    browser.action_button("Deploy").await?;
    let (mut firsts, mut alls, mut sent) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let (first, all, requests) = review(&browser, "Deploy", "commits ahead").await?;
        firsts.push(first);
        alls.push(all);
        sent = requests;
    }
    browser.open(&place.page()).await?;
    browser.action_button("Deploy all").await?;
    let (mut listed_at, mut environment_sent) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let (shown, _, requests) = review(&browser, "Deploy all", "out of date.").await?;
        listed_at.push(shown);
        environment_sent = requests;
    }

    println!(
        "review before a deploy, median of {runs} runs ({commits} commits ahead, {changes} audit entries; {services} services)"
    );
    println!(
        "{:<60} {:>10.1} ms",
        "service: Deploy → the commits shown",
        middle(firsts)
    );
    println!(
        "{:<60} {:>10.1} ms",
        "service: Deploy → every part shown",
        middle(alls)
    );
    println!(
        "{:<60} {:>10}",
        "service: requests sent by the review",
        sent.len()
    );
    for request in &sent {
        println!("    {request}");
    }
    println!(
        "{:<60} {:>10.1} ms",
        format!("environment: Deploy all → {services} services listed"),
        middle(listed_at)
    );
    println!(
        "{:<60} {:>10}",
        "environment: requests sent by the review",
        environment_sent.len()
    );
    browser.close().await
}
