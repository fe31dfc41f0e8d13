//! Once a signed-in person's first page is shown and the browser is idle, the code of every page
//! is fetched: moving to a page of each other group, or opening a dialog whose code is fetched
//! when it opens, afterwards fetches no code.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn later_pages_fetch_no_code_once_the_browser_was_idle() -> anyhow::Result<()> {
    let browser = Browser::start(50.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    browser.sign_in().await?;
    let organization = &place.organization;
    browser
        .open(&format!("/organization/{organization}/overview"))
        .await?;
    browser.find("html[data-prefetched=true]").await?;
    browser.forget_requests().await?;

    // Each a page of another group, reached as a link would (no reload), and what shows it.
    let pages = [
        (place.page(), "tbody tr", ""),
        (
            place.service_tab(&web, "overview"),
            "nav[aria-label='Service pages']",
            "",
        ),
        (
            place.service_tab(&web, "advanced-settings"),
            "form.advanced-settings",
            "",
        ),
        (
            format!("/organization/{organization}/audit-log"),
            "main h1",
            "Audit log",
        ),
    ];
    for (path, shown, text) in &pages {
        browser.follow(path).await?;
        browser.wait_for_text(shown, text).await?;
    }
    // A dialog's code too: "Deploy a commit…"'s list comes with the deploy review's.
    browser.follow(&place.service_tab(&web, "overview")).await?;
    browser.click_button("Deploy a commit…").await?;
    browser
        .wait_for_text("dialog[open]", "cannot reach the repository")
        .await?;
    let fetched = browser.code_fetched().await?;
    assert!(
        fetched.is_empty(),
        "code fetched after the prefetch: {fetched:?}"
    );
    browser.close().await
}
