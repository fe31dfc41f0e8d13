//! The environment page's first reads leave with the address: its services and their statuses
//! are asked for as soon as the router knows the page, while the page's code is on its way, and
//! the page takes those answers rather than asking again.

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
    browser.wait_for_text("h1", "Services").await?;

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
