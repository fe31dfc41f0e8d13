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

#[tokio::test(flavor = "multi_thread")]
async fn a_databases_backup_is_taken_and_deleted() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let database = browser
        .create(
            &format!("/environment/{}/database", place.environment),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await?;
    browser.sign_in().await?;
    browser.open(&place.service_page(&database)).await?;
    browser
        .wait_for_text("section[aria-labelledby=backups-title]", "No backup yet")
        .await?;

    // Not running yet: the rule says why.
    browser.open_new("Take a backup").await?;
    browser.fill("#field-name", "before-v2").await?;
    browser
        .fill("#field-message", "before the migration to v2")
        .await?;
    browser
        .click("form[aria-label='Take a backup'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(".toast--error", "is not running")
        .await?;
    browser
        .client
        .execute("document.querySelector('dialog[open]').close()", vec![])
        .await?;

    browser.click_button("Deploy").await?;
    browser
        .find("section[aria-labelledby=status-title] [data-state=DEPLOYED]")
        .await?;
    browser.open_new("Take a backup").await?;
    browser
        .save_form(
            "form[aria-label='Take a backup']",
            "Backup before-v2 asked for",
        )
        .await?;
    browser
        .wait_for_text("[data-backup=before-v2]", "Taken")
        .await?;
    browser.screenshot("database-backups").await?;

    // Out from under the toasts in the corner.
    browser
        .client
        .execute(
            "document.querySelector('[data-backup=before-v2]').scrollIntoView({block: 'center'})",
            vec![],
        )
        .await?;
    browser
        .click("[data-backup=before-v2] .button--danger")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_for_text("section[aria-labelledby=backups-title]", "No backup yet")
        .await?;
    browser.close().await
}
