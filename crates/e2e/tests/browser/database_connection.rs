//! A database's overview shows how to reach it: host, port and user with the built-in variables
//! that hold them, the password named but never shown.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_databases_connection_details_are_on_its_overview() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let database = browser
        .create(
            &format!("/environment/{}/database", place.environment),
            json!({"name": "orders", "type": "MYSQL", "version": "8.0", "mode": "CONTAINER"}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&database)).await?;
    let details = browser
        .wait_for_text("section[aria-labelledby=connection-title]", "3306")
        .await?;
    let short = &place.environment.replace('-', "")[..8];
    assert!(
        details.contains(&format!("orders.{short}.svc.cluster.local")),
        "{details}"
    );
    assert!(
        details.contains("DATABASE_ORDERS_HOST_INTERNAL"),
        "{details}"
    );
    assert!(details.contains("DATABASE_ORDERS_PORT"), "{details}");
    assert!(details.contains("superuser"), "{details}");
    assert!(details.contains("DATABASE_ORDERS_PASSWORD"), "{details}");
    assert!(details.contains("A secret: not shown"), "{details}");
    // The password on request only: held by the page, in a connection string to copy.
    browser.click_button("Reveal the password").await?;
    let revealed = browser
        .wait_for_text(
            "section[aria-labelledby=connection-title]",
            "Connection string",
        )
        .await?;
    assert!(revealed.contains("mysql://superuser:"), "{revealed}");
    assert!(
        revealed.contains(&format!("@orders.{short}.svc.cluster.local:3306")),
        "{revealed}"
    );
    assert!(!revealed.contains("A secret: not shown"), "{revealed}");
    browser.screenshot("database-password").await?;
    browser.click_button("Hide the password").await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=connection-title]",
            "Reveal the password",
        )
        .await?;
    // The engine in words, not the wire's code.
    browser
        .wait_for_text("section[aria-labelledby=settings-title]", "MySQL 8.0")
        .await?;
    browser.screenshot("database-connection").await?;
    browser.close().await
}
