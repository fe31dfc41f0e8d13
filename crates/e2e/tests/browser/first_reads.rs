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
