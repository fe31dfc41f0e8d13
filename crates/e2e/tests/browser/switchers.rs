//! The breadcrumb's switchers list a crumb's siblings: from one service to another of its
//! environment (of another kind too: the page follows the service in the address), and from one
//! environment to another of its project, in two clicks.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_breadcrumb_switches_between_siblings() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let staging = browser
        .create(
            &format!("/project/{}/environment", place.project),
            json!({"name": "staging", "mode": "STAGING"}),
        )
        .await?;
    let git = json!({"url": "https://git.example.com/acme/shop.git"});
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": git}),
        )
        .await?;
    let api = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "api", "git_repository": git}),
        )
        .await?;
    let orders = browser
        .create(
            &format!("/environment/{}/database", place.environment),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await?;
    browser.sign_in().await?;
    browser.open(&place.service_page(&web)).await?;
    browser
        .wait_for_text(".breadcrumbs [aria-current=page]", "web")
        .await?;

    // From web to api, its sibling.
    browser
        .click(".breadcrumbs summary[aria-label='Switch service (now web)']")
        .await?;
    browser
        .wait_for_text(".switcher[open] .switcher__list", "api")
        .await?;
    browser.screenshot("switcher-services").await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "axe: {violations:?}");
    browser
        .click_text(".switcher[open] .switcher__list a", "api")
        .await?;
    browser
        .wait_for_path(|path| path.contains(&format!("/service/{api}")))
        .await?;
    browser
        .wait_for_text(".breadcrumbs [aria-current=page]", "api")
        .await?;

    // From api, an application, to orders, a database: the page is the database's.
    browser
        .click(".breadcrumbs summary[aria-label='Switch service (now api)']")
        .await?;
    browser
        .click_text(".switcher[open] .switcher__list a", "orders")
        .await?;
    browser
        .wait_for_path(|path| path.contains(&format!("/service/{orders}")))
        .await?;
    browser.wait_for_text("main h1", "orders").await?;
    browser.wait_for_text(".page__lead", "Database").await?;
    browser.wait_for_text("main", "Connection").await?;
    let errors = browser
        .client
        .find_all(fantoccini::Locator::Css(".notice--error, .toast--error"))
        .await?;
    assert!(errors.is_empty(), "the database's page shows an error");

    // From production to staging.
    browser
        .click(".breadcrumbs summary[aria-label='Switch environment (now production)']")
        .await?;
    browser
        .click_text(".switcher[open] .switcher__list a", "staging")
        .await?;
    browser
        .wait_for_path(|path| path.ends_with(&format!("/environment/{staging}/services")))
        .await?;
    browser.close().await
}
