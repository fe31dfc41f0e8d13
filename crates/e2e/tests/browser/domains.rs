//! A service's custom domains, from its overview: one added (its rules checked before sending),
//! the CNAME to set copied, a name whose DNS is not set shown failing its check with the reason;
//! the deployment after it says so in its log.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_domain_is_added_its_cname_copied_and_its_failing_check_shown() -> anyhow::Result<()> {
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
                "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}],
            }),
        )
        .await?;
    browser.sign_in().await?;
    browser.open(&place.service_page(&application)).await?;
    browser
        .wait_for_text("section[aria-labelledby=domains-title]", "None")
        .await?;

    // The platform's own domain is refused before anything is sent.
    browser.open_new("Add a custom domain").await?;
    browser
        .fill("#field-domain", "shop.platform-apps.example")
        .await?;
    browser
        .click("form[aria-label='Add a custom domain'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-domain-error", "the platform's own domain")
        .await?;
    browser.fill("#field-domain", "shop.invalid").await?;
    browser
        .click("form[aria-label='Add a custom domain'] button[type=submit]")
        .await?;
    let item = browser
        .wait_for_text("[data-domain='shop.invalid']", "Not configured")
        .await?;
    assert!(item.contains("No DNS record answers"), "{item}");
    assert!(item.contains("CNAME z"), "{item}");
    assert!(item.contains(".platform-apps.example"), "{item}");

    // The CNAME target, to paste at the DNS provider.
    browser
        .click("[data-domain='shop.invalid'] button[aria-label='Copy the CNAME target']")
        .await?;
    browser
        .wait_for_text(
            "[data-domain='shop.invalid'] button[aria-label='Copy the CNAME target']",
            "Copied",
        )
        .await?;
    browser.screenshot("custom-domains").await?;

    // The deployment routes it and says it failed its check.
    browser.click_button("Deploy").await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=log-title]",
            "custom domain shop.invalid failed its check",
        )
        .await?;
    let domains = browser
        .api(
            "GET",
            &format!("/application/{application}/customDomain"),
            json!(null),
        )
        .await?;
    assert_eq!(domains["results"][0]["status"], "VALIDATION_PENDING");
    browser.close().await
}
