//! The network drops while the console is open: a banner says the API cannot be reached and the
//! console keeps trying; when the network is back, the banner goes and the page shows its data
//! without the person doing anything.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_lost_connection_is_shown_and_recovered_from() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    browser.wait_for_text("main h1", "Projects").await?;

    browser.set_offline(true).await?;
    browser.click("a[href$='/clusters']").await?;
    browser
        .wait_for_text("[role=alert]", "Cannot reach the API at")
        .await?;
    browser.screenshot("connection-lost").await?;

    browser.set_offline(false).await?;
    browser.wait_until_gone(".banner--error").await?;
    browser.wait_for_text(".empty", "No cluster yet").await?;
    browser.close().await
}

/// A page opened while the API cannot be reached names its place once the API is back, without
/// waiting for the next page: the breadcrumb reads its names again with everything else.
#[tokio::test(flavor = "multi_thread")]
async fn the_breadcrumb_names_the_page_once_the_api_is_back() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let organization = browser.organization_id().await?;
    browser
        .create(
            &format!("/organization/{organization}/project"),
            serde_json::json!({"name": "outage-survivor"}),
        )
        .await?;
    browser.sign_in().await?;
    browser.wait_for_text("main a", "outage-survivor").await?;

    browser.set_offline(true).await?;
    browser.click_text("main a", "outage-survivor").await?;
    browser
        .wait_for_text("[role=alert]", "Cannot reach the API at")
        .await?;

    browser.set_offline(false).await?;
    browser.wait_until_gone(".banner--error").await?;
    browser
        .wait_for_text(".breadcrumbs [aria-current=page]", "outage-survivor")
        .await?;
    browser
        .wait_for_title("outage-survivor — Platform console")
        .await?;
    browser.close().await
}
