//! Sessions: a signed-out deep link goes through sign-in and back; a kept token the API refuses
//! (401) ends the session and brings the person back to the page after signing in again.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_deep_link_survives_signing_in() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let organization: (String,) = sqlx_query_one(&browser, "SELECT id FROM organizations").await?;
    let deep_link = format!("/organization/{}/overview", organization.0);

    browser.open(&deep_link).await?;
    let path = browser.wait_for_path(|path| path == "/sign-in").await?;
    assert_eq!(path, "/sign-in");
    let next = browser.client.current_url().await?;
    assert!(next.query().unwrap_or_default().contains("next="), "{next}");

    browser.wait_for_value("#field-base_url", "/api").await?;
    browser.fill("#field-token", &browser.token).await?;
    browser.click("button[type=submit]").await?;
    browser.wait_for_path(|path| path == deep_link).await?;
    browser.wait_for_text("main h1", "Projects").await?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_token_ends_the_session_and_returns_after_sign_in() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    let page = browser
        .wait_for_path(|path| path.ends_with("/overview"))
        .await?;

    // The console is left first, so that none of its reads still under way meets the refused
    // token and ends the session before the page is opened again (the tab's storage stays).
    browser.client.goto("about:blank").await?;
    // The token is deleted behind the console's back; the next call answers 401.
    let replacement = platform_server::auth::generate_token();
    sqlx::query("UPDATE api_tokens SET token_hash = ?")
        .bind(platform_server::auth::hash_token(&replacement))
        .execute(&browser.server.state.db)
        .await?;
    browser.open(&page).await?;

    browser.wait_for_path(|path| path == "/sign-in").await?;
    browser
        .wait_for_text("[role=status]", "Your session has ended")
        .await?;
    browser.wait_for_value("#field-base_url", "/api").await?;
    browser.fill("#field-token", &replacement).await?;
    browser.click("button[type=submit]").await?;
    browser.wait_for_path(|path| path == page).await?;
    browser.wait_for_text("main h1", "Projects").await?;
    browser.close().await
}

async fn sqlx_query_one(browser: &Browser, sql: &str) -> anyhow::Result<(String,)> {
    Ok(sqlx::query_as(sql)
        .fetch_one(&browser.server.state.db)
        .await?)
}
