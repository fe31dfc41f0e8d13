//! An environment's recent deployments name a few of each deployment's services and list the
//! rest when asked (a deployment of a whole environment can hold a thousand); the rest stays
//! listed while the list is read again as the deployment runs.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_deployment_of_many_services_names_five_and_lists_the_rest_when_opened(
) -> anyhow::Result<()> {
    // Slow enough for the deployment to be running when its list is opened.
    let browser = Browser::start(5.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let names: Vec<String> = (1..=8).map(|n| format!("svc-{n}")).collect();
    for name in &names {
        browser.create_application(&place.environment, name).await?;
    }

    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser
        .wait_for_text("tr[data-service=svc-8]", "Not deployed")
        .await?;
    browser.click_button("Deploy all").await?;
    browser.click("a.tabs__tab[href$='/deployments']").await?;
    let row = browser
        .wait_for_text("tr[data-execution] .built-when-open summary", "3 more")
        .await?;
    assert_eq!(row.trim(), "3 more");
    let services = "tr[data-execution] td:nth-child(3)";
    let named = browser.find(services).await?.text().await?;
    // Five are named; the other three wait behind "3 more", not yet in the page.
    let shown = names.iter().filter(|name| names_line(&named, name)).count();
    assert_eq!(shown, 5, "{named}");
    let built = browser
        .client
        .execute(
            "return document.querySelectorAll('tr[data-execution] .built-when-open li').length",
            vec![],
        )
        .await?;
    assert_eq!(built, json!(0));

    let status = "tr[data-execution] td:first-child";
    let running = browser.find(status).await?.text().await?;
    assert!(!running.contains("Deployed"), "{running}");
    browser
        .click("tr[data-execution] .built-when-open summary")
        .await?;
    // The end of the deployment reads the list again: it is still open.
    browser.wait_for_text(status, "Deployed").await?;
    let all = browser
        .wait_for_text("tr[data-execution] .built-when-open ul", "svc")
        .await?;
    let listed = format!("{named}\n{all}");
    for name in &names {
        assert!(
            names_line(&listed, name),
            "{name} is not listed once opened: {listed}"
        );
    }
    browser.screenshot("environment-deployment-more").await?;
    browser.close().await
}

/// Whether a line of `text` is the service `name`'s (its name, then what it deployed).
fn names_line(text: &str, name: &str) -> bool {
    text.lines()
        .any(|line| line.split_whitespace().next() == Some(name))
}
