//! The environment page's first reads leave with the address: its services and their statuses
//! are asked for as soon as the router knows the page, while the page's code is on its way, and
//! the page takes those answers rather than asking again; it asks each record once and then polls
//! at one rhythm.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn the_environment_page_asks_for_its_services_while_its_code_arrives() -> anyhow::Result<()> {
    let browser = Browser::start(1000.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser
        .create_application(&place.environment, "api")
        .await?;
    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser
        .wait_for_text("tr[data-service=api]", "Not deployed")
        .await?;

    let requests = browser
        .client
        .execute(
            "const all = performance.getEntriesByType('resource');
             const of = part => all.filter(e => e.name.includes(part))
                 .map(e => ({start: e.startTime, end: e.responseEnd}));
             return {services: of('/services'), statuses: of('/statuses'),
                     code: of('split_environment.bin')};",
            vec![],
        )
        .await?;
    let first = |what: &str, field: &str| requests[what][0][field].as_f64();
    assert_eq!(
        requests["services"].as_array().map(Vec::len),
        Some(1),
        "the services asked for once: {requests}"
    );
    let code_arrived = first("code", "end").expect("the page's code was fetched");
    for what in ["services", "statuses"] {
        let asked = first(what, "start").unwrap_or(f64::INFINITY);
        assert!(
            asked < code_arrived,
            "{what} asked for before the page's code arrived: {requests}"
        );
    }
    browser.close().await
}

/// With a session stored, the frame of every signed-in page (the shell's code) is asked for by
/// the script that starts the console, beside the main module: before the main module has
/// started and sent its first request.
#[tokio::test(flavor = "multi_thread")]
async fn a_signed_in_page_asks_for_its_frame_before_the_console_starts() -> anyhow::Result<()> {
    let browser = Browser::start(1000.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser
        .wait_for_text("main h2", "Services of this environment")
        .await?;

    let requests = browser
        .client
        .execute(
            "const all = performance.getEntriesByType('resource');
             const of = part => all.filter(e => e.name.includes(part)).map(e => e.startTime);
             return {frame: of('split_shell.bin'), api: of('/api/')};",
            vec![],
        )
        .await?;
    let asked = |what: &str| {
        requests[what]
            .as_array()
            .and_then(|all| all.first()?.as_f64())
    };
    let frame = asked("frame").expect("the shell's code was fetched");
    let first_read = asked("api").expect("the page read the API");
    assert_eq!(
        requests["frame"].as_array().map(Vec::len),
        Some(1),
        "the shell's code fetched once: {requests}"
    );
    assert!(
        frame < first_read,
        "the shell's code asked for before the console's first request: {requests}"
    );
    browser.close().await
}

/// One load of an environment's page asks each record once, and while it stays open one poll
/// reads what must stay fresh: its statuses (and its previews, at the same rhythm), every 15 s
/// when all is settled.
#[tokio::test(flavor = "multi_thread")]
async fn an_environment_page_asks_each_record_once_and_polls_at_one_rhythm() -> anyhow::Result<()> {
    let browser = Browser::start(1000.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser
        .create_application(&place.environment, "api")
        .await?;
    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser
        .wait_for_text("tr[data-service=api]", "Not deployed")
        .await?;
    // What is drawn after the table (new service, links) has asked too.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let load = browser.api_requests().await?;
    let mut counted = std::collections::BTreeMap::<&str, usize>::new();
    for path in &load {
        *counted.entry(path.as_str()).or_default() += 1;
    }
    let twice: Vec<_> = counted.iter().filter(|(_, asked)| **asked > 1).collect();
    assert!(
        twice.is_empty(),
        "asked more than once in one load: {twice:?} of {load:?}"
    );

    browser.forget_requests().await?;
    tokio::time::sleep(std::time::Duration::from_secs(60)).await;
    let minute = browser
        .client
        .execute(
            "return performance.getEntriesByType('resource')
                .map(e => ({path: new URL(e.name).pathname, start: e.startTime}))
                .filter(e => e.path.startsWith('/api/'))",
            vec![],
        )
        .await?;
    let minute: Vec<(String, f64)> = minute
        .as_array()
        .expect("a list")
        .iter()
        .map(|entry| {
            let path = entry["path"].as_str().unwrap_or_default().to_string();
            (path, entry["start"].as_f64().unwrap_or_default())
        })
        .collect();
    let statuses = format!("/api/environment/{}/statuses", place.environment);
    let ticks: Vec<f64> = minute
        .iter()
        .filter(|(path, _)| *path == statuses)
        .map(|(_, start)| *start)
        .collect();
    assert!(
        (3..=5).contains(&ticks.len()),
        "statuses asked {} times in a minute, settled: {minute:?}",
        ticks.len()
    );
    // Whatever else is read (the previews, what needs attention) leaves at a tick of the poll.
    let apart: Vec<_> = minute
        .iter()
        .filter(|(_, start)| {
            !ticks
                .iter()
                .any(|tick| (0.0..1500.0).contains(&(start - tick)))
        })
        .collect();
    assert!(
        apart.is_empty(),
        "asked apart from the page's poll: {apart:?}"
    );
    browser.close().await
}

/// A project's page shows each environment's state from one request for all of them, and the
/// organization's page what each project holds from one request, rather than one per record.
#[tokio::test(flavor = "multi_thread")]
async fn lists_show_states_and_counts_from_one_request_each() -> anyhow::Result<()> {
    let browser = Browser::start(1000.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let api = browser
        .create_application(&place.environment, "api")
        .await?;
    browser.deployed(&api).await?;
    browser
        .create(
            &format!("/project/{}/environment", place.project),
            serde_json::json!({"name": "empty", "mode": "DEVELOPMENT"}),
        )
        .await?;
    browser.sign_in().await?;
    browser.forget_requests().await?;
    browser
        .open(&format!(
            "/organization/{}/project/{}/overview",
            place.organization, place.project
        ))
        .await?;
    browser.wait_for_text("main table", "Deployed").await?;
    browser.wait_for_text("main table", "Ready").await?;
    let asked = browser.api_requests().await?;
    let states = format!("/api/project/{}/environment/status", place.project);
    assert_eq!(
        asked.iter().filter(|path| **path == states).count(),
        1,
        "{asked:?}"
    );
    assert!(
        !asked.iter().any(|path| path.ends_with("/statuses")),
        "an environment's statuses asked one by one: {asked:?}"
    );

    browser.forget_requests().await?;
    browser
        .open(&format!("/organization/{}/overview", place.organization))
        .await?;
    browser
        .wait_for_text("tr[data-project=shop]", "2 environments · 1 service")
        .await?;
    let asked = browser.api_requests().await?;
    assert!(
        !asked.iter().any(|path| path.contains("/environment")),
        "environments read one project at a time: {asked:?}"
    );
    browser.close().await
}
