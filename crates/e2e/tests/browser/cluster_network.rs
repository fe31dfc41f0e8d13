//! A cluster's network from its page: the DNS provider chosen with its own fields (its rules
//! checked before sending, its token never shown again), and an AWS cluster's routes written a
//! line each, a bad line named by its number.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_clusters_dns_provider_and_routes_are_set_from_its_page() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let org = browser.organization_id().await?;
    let cluster = browser
        .create(
            &format!("/organization/{org}/cluster"),
            serde_json::json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-1"}),
        )
        .await?;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{org}/cluster/{cluster}/overview"))
        .await?;
    browser.wait_for_text("#network-title", "Network").await?;
    browser
        .wait_for_text("[data-dns-provider=QOVERY]", "platform-apps.example")
        .await?;

    // Cloudflare's fields appear once it is chosen; its token is required.
    let dns = "form[aria-label='Choose the DNS provider']";
    browser
        .choose("#field-dns_provider-provider", "CLOUDFLARE")
        .await?;
    browser
        .fill("#field-dns_provider-domain", "apps.acme.example")
        .await?;
    browser
        .fill("#field-dns_provider-email", "ops@acme.example")
        .await?;
    browser.click(&format!("{dns} button[type=submit]")).await?;
    browser
        .wait_for_text("#field-dns_provider-api_token-error", "is required")
        .await?;
    let token = "cf-token-shown-nowhere";
    browser.fill("#field-dns_provider-api_token", token).await?;
    browser.click("#field-dns_provider-proxied").await?;
    browser
        .save_form(dns, "written by Cloudflare (proxied) from now on")
        .await?;
    browser
        .wait_for_text("[data-dns-provider=CLOUDFLARE]", "apps.acme.example")
        .await?;
    let typed: String = browser
        .find("#field-dns_provider-api_token")
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    assert!(typed.is_empty(), "the token stays in the form: {typed}");
    let source = browser.client.source().await?;
    assert!(!source.contains(token));

    // Routes, a line each; a bad line is named by its number.
    let routes = "form[aria-label='Change the routing table']";
    browser
        .fill(
            "#field-routes",
            "10.1.0.0/16 pcx-0a1b2c3d billing VPC\n172.16.0.0/12 somewhere the office",
        )
        .await?;
    browser
        .click(&format!("{routes} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("#field-routes-error", "Line 2: the target must be")
        .await?;
    // Nor into the cluster's own network (AWS's default range here).
    browser
        .fill("#field-routes", "10.0.5.0/24 pcx-0a1b2c3d the office")
        .await?;
    browser
        .click(&format!("{routes} button[type=submit]"))
        .await?;
    browser
        .wait_for_text(
            "#field-routes-error",
            "Line 1: the destination is inside the cluster's own network, 10.0.0.0/16",
        )
        .await?;
    browser
        .fill(
            "#field-routes",
            "10.1.0.0/16 pcx-0a1b2c3d billing VPC\n172.16.0.0/12 tgw-0f00 the office",
        )
        .await?;
    browser.save_form(routes, "2 routes kept").await?;
    browser.screenshot("cluster-network").await?;

    // Read back as saved when the page opens again.
    browser
        .open(&format!("/organization/{org}/cluster/{cluster}/overview"))
        .await?;
    browser
        .wait_for_text("[data-dns-provider=CLOUDFLARE]", "Cloudflare (proxied)")
        .await?;
    let kept: String = browser
        .find("#field-routes")
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    assert_eq!(
        kept,
        "10.1.0.0/16 pcx-0a1b2c3d billing VPC\n172.16.0.0/12 tgw-0f00 the office"
    );

    // On a phone: the card fits, and the page passes axe with it.
    browser.set_width(375).await?;
    browser
        .client
        .execute(
            "document.getElementById('network-title').scrollIntoView()",
            vec![],
        )
        .await?;
    assert_eq!(browser.overflow().await?, Vec::<String>::new());
    assert_eq!(browser.axe_violations().await?, Vec::<String>::new());
    browser.screenshot("cluster-network-375").await?;
    browser.close().await
}
