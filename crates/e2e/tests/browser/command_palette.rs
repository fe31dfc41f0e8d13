//! Ctrl-K finds a service by what a person types and runs its deploy without opening it; it
//! also goes to a service's logs and to a settings page.

use e2e::Browser;
use fantoccini::key::Key;

#[tokio::test(flavor = "multi_thread")]
async fn the_palette_finds_goes_and_deploys() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    browser
        .create(
            &format!("/environment/{}/application", place.environment),
            serde_json::json!({
                "name": "shopfront",
                "git_repository": {"url": "https://git.example.com/acme/shop.git"},
                "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}],
            }),
        )
        .await?;
    browser.sign_in().await?;
    // The header (with the palette) is fetched with the first signed-in page.
    browser.find(".header__search").await?;

    // The keyboard shortcut opens it, focused on its search field.
    browser
        .find("body")
        .await?
        .send_keys(&format!("{}k", char::from(Key::Control)))
        .await?;
    browser
        .wait_for_text(".palette__empty, .palette__option", "")
        .await?;
    let input = browser.find("dialog.palette[open] .palette__input").await?;
    input.send_keys("dep web").await?;
    browser
        .wait_for_text(".palette__option[aria-selected=true]", "Deploy web")
        .await?;
    browser.screenshot("command-palette").await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "axe: {violations:?}");
    input.send_keys(&char::from(Key::Enter).to_string()).await?;
    browser
        .wait_for_text(".toast", "Deployment queued.")
        .await?;
    // The page with its toast showing passes axe-core too.
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "axe with a toast: {violations:?}");
    // It deployed the service for real.
    browser.open(&place.service_page(&web)).await?;
    browser.wait_for_text(".badge", "Deployed").await?;

    // Going somewhere: a service's logs, by the search button.
    browser.click(".header__search").await?;
    let input = browser.find("dialog.palette[open] .palette__input").await?;
    input.send_keys("logs of web").await?;
    browser
        .wait_for_text(".palette__option[aria-selected=true]", "Logs of web")
        .await?;
    input.send_keys(&char::from(Key::Enter).to_string()).await?;
    browser
        .wait_for_path(|path| path.ends_with(&format!("/service/{web}/logs")))
        .await?;

    // A service's address, opened in a new tab; a service without a public port has none.
    browser.click(".header__search").await?;
    let input = browser.find("dialog.palette[open] .palette__input").await?;
    input.send_keys("open").await?;
    browser
        .wait_for_text(".palette__option[aria-selected=true]", "Open shopfront")
        .await?;
    let offered = browser.find("#palette-options").await?.text().await?;
    assert!(!offered.contains("Open web"), "{offered}");
    let tabs = browser.client.windows().await?.len();
    input.send_keys(&char::from(Key::Enter).to_string()).await?;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    let opened = loop {
        let windows = browser.client.windows().await?;
        if windows.len() > tabs {
            break windows.last().cloned().expect("a new tab");
        }
        anyhow::ensure!(tokio::time::Instant::now() < deadline, "no tab opened");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let console = browser.client.window().await?;
    browser.client.switch_to_window(opened).await?;
    browser
        .wait_for_text("main h1", "shopfront is not running")
        .await?;
    browser.client.close_window().await?;
    browser.client.switch_to_window(console).await?;

    // And a settings page, chosen with the arrow keys.
    browser.click(".header__search").await?;
    let input = browser.find("dialog.palette[open] .palette__input").await?;
    input.send_keys("api tokens").await?;
    browser
        .wait_for_text(".palette__option[aria-selected=true]", "API tokens")
        .await?;
    input.send_keys(&char::from(Key::Enter).to_string()).await?;
    browser
        .wait_for_path(|path| path.ends_with("/settings/api-tokens"))
        .await?;
    browser.close().await
}

/// The palette's dialog is fetched when first reached for: when its code cannot be fetched, a
/// toast says so, and the next reach fetches it.
#[tokio::test(flavor = "multi_thread")]
async fn a_palette_whose_code_cannot_be_fetched_says_so_and_comes_on_the_next_try(
) -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.block_urls(&["*split_palette.bin"]).await?;
    browser.sign_in().await?;
    browser.click(".header__search").await?;
    browser
        .wait_for_text(".toast--error", "could not fetch the search")
        .await?;
    assert!(
        browser.find_now("dialog.palette[open]").await.is_err(),
        "no dialog without its code"
    );

    browser.block_urls(&[]).await?;
    browser.click(".header__search").await?;
    browser.find("dialog.palette[open] .palette__input").await?;
    browser.close().await
}
