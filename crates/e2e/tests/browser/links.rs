//! Where a service is reached: "Open" beside its title, every address in its overview and where
//! its ingress stands, the environment's services' addresses on its page; an address opened
//! answers with the service's page on the reference server; the service's address without a tab
//! opens its overview.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_service_is_opened_from_its_link() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let application = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({
                "name": "storefront",
                "git_repository": {"url": "https://git.example.com/acme/web.git"},
                "ports": [
                    {"internal_port": 8080, "external_port": 443, "publicly_accessible": true},
                    {"internal_port": 9090, "external_port": 443, "publicly_accessible": true},
                ],
            }),
        )
        .await?;
    browser
        .create_application(&place.environment, "worker")
        .await?;
    browser.deployed(&application).await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&application)).await?;
    let links = browser
        .wait_for_text("section[aria-labelledby=links-title]", "p9090")
        .await?;
    assert!(links.contains("the root of its address"), "{links}");
    assert!(links.contains("port 8080"), "{links}");
    let open = browser.find(".page__lead a.open-link").await?;
    let url = open.attr("href").await?.unwrap_or_default();
    assert!(url.ends_with(&format!("/run/{application}/")), "{url}");
    // Its ingress, deployed with it, read after the overview is drawn.
    browser
        .wait_for_text("section[aria-labelledby=ingress-title]", "Deployed")
        .await?;
    browser.screenshot("service-links").await?;

    // The environment lists the services that can be opened, and only those.
    browser.open(&place.page()).await?;
    let listed = browser
        .wait_for_text("section[aria-labelledby=links-title]", "storefront")
        .await?;
    assert!(listed.contains(&url), "{listed}");
    assert!(!listed.contains("worker"), "{listed}");

    // The address answers: the service's page, saying what stands for it.
    browser.open_url(&url).await?;
    let page = browser.wait_for_text("main h1", "storefront").await?;
    assert_eq!(page, "storefront");
    browser
        .wait_for_text("main", "answering on port 8080")
        .await?;
    browser
        .wait_for_text("main", "simulates the platform")
        .await?;

    // The service's address without a tab opens its overview.
    let overview = place.service_page(&application);
    let without_tab = overview.trim_end_matches("/overview");
    browser.open(without_tab).await?;
    browser.wait_for_path(|path| path == overview).await?;
    browser
        .wait_for_text("section[aria-labelledby=links-title]", "p9090")
        .await?;
    browser.close().await
}
