//! The platform asks the console to wait, rate limiting (429 with `X-RateLimit-Reset`) or too
//! busy (503 with `Retry-After`): either way the console counts down where the person sees it,
//! sends the same request again, and shows the page.

use std::sync::Arc;

use axum::http::StatusCode;
use contract::{Document, Fields, StandIn};
use e2e::Browser;

use crate::stand_in::{serve_refusing, sign_in, Refusals};

#[tokio::test(flavor = "multi_thread")]
async fn a_busy_or_limiting_api_is_waited_for_and_asked_again() -> anyhow::Result<()> {
    let stand_in = Arc::new(StandIn::new(
        Document::production(),
        Fields::RequiredWithResults,
    ));
    let refusals = Refusals::default();
    let address = serve_refusing(stand_in.clone(), refusals.clone()).await?;
    let browser = Browser::start(20.0).await?;
    sign_in(&browser, address).await?;
    browser.wait_for_text(".table", "sample name").await?;

    refusals.lock().expect("the refusals").extend([
        (
            "/environment",
            StatusCode::SERVICE_UNAVAILABLE,
            "Retry-After",
            2,
        ),
        (
            "/services",
            StatusCode::TOO_MANY_REQUESTS,
            "X-RateLimit-Reset",
            2,
        ),
    ]);
    browser.click(".table a").await?;
    browser
        .wait_for_text("[role=status]", "retrying in")
        .await?;
    browser.screenshot("asked-to-wait").await?;
    browser.wait_for_text("main h1", "Environments").await?;
    browser.wait_for_text(".table", "sample name").await?;
    browser.click(".table a").await?;
    browser
        .wait_for_text("[role=status]", "retrying in")
        .await?;
    browser
        .wait_for_text(".table", "sample application")
        .await?;
    assert!(
        refusals.lock().expect("the refusals").is_empty(),
        "a refusal was never asked for"
    );
    let answered = |end: &str| {
        stand_in
            .seen()
            .iter()
            .filter(|seen| seen.method == "GET" && seen.path.ends_with(end))
            .count()
    };
    // Each refused request was sent again, and reached the platform.
    assert!(answered("/environment") >= 1);
    assert!(answered("/services") >= 1);
    browser.close().await
}
