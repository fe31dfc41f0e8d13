//! Themes: the person picks light or dark in the header, the page turns, and the choice is kept
//! across a reload; back to the system's theme, the choice is gone.

use e2e::Browser;

/// The page's `data-theme` and the body's background colour.
async fn shown_theme(browser: &Browser) -> anyhow::Result<(Option<String>, String)> {
    let shown = browser
        .client
        .execute(
            "return [document.documentElement.getAttribute('data-theme'), \
                     getComputedStyle(document.documentElement).backgroundColor];",
            vec![],
        )
        .await?;
    Ok((
        shown[0].as_str().map(str::to_string),
        shown[1].as_str().unwrap_or_default().to_string(),
    ))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_chosen_theme_is_applied_and_remembered() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    browser.wait_for_text("main h1", "Projects").await?;
    // Headless Chromium prefers light.
    assert_eq!(
        shown_theme(&browser).await?,
        (None, "rgb(246, 247, 249)".to_string())
    );

    browser.click("#theme option[value=dark]").await?;
    assert_eq!(
        shown_theme(&browser).await?,
        (Some("dark".to_string()), "rgb(17, 20, 24)".to_string())
    );
    browser.screenshot("theme-dark").await?;
    browser.client.refresh().await?;
    browser.wait_for_text("main h1", "Projects").await?;
    assert_eq!(shown_theme(&browser).await?.0.as_deref(), Some("dark"));

    browser.click("#theme option[value=system]").await?;
    assert_eq!(
        shown_theme(&browser).await?,
        (None, "rgb(246, 247, 249)".to_string())
    );
    browser.client.refresh().await?;
    browser.wait_for_text("main h1", "Projects").await?;
    assert_eq!(shown_theme(&browser).await?.0, None);
    browser.close().await
}
