//! The environment page's statuses refresh row by row: a poll that changes nothing touches no
//! row, and a poll that changes one service's status touches that service's row alone (counted
//! by a MutationObserver on the table).

use std::time::Duration;

use e2e::Browser;
use serde_json::json;

/// Counts, in `window.__touched`, the rows of the services table a mutation reached.
const OBSERVE: &str = "window.__touched = [];
    new MutationObserver(records => records.forEach(record => {
        const row = (record.target.nodeType === 1 ? record.target : record.target.parentElement)
            .closest('tr[data-service]');
        window.__touched.push(row ? row.dataset.service : '(outside a row)');
    })).observe(document.querySelector('table tbody'),
        {subtree: true, childList: true, characterData: true, attributes: true});";

#[tokio::test(flavor = "multi_thread")]
async fn a_poll_touches_only_the_rows_whose_status_changed() -> anyhow::Result<()> {
    let browser = Browser::start(1000.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    for name in ["api", "web", "worker"] {
        browser.create_application(&place.environment, name).await?;
    }
    // Every service in progress, so that the page polls every two seconds.
    let set_state = |state: &'static str, name: &'static str| {
        let db = browser.server.state.db.clone();
        async move {
            sqlx::query(
                "UPDATE service_statuses SET state = ?
                 WHERE service_id IN (SELECT id FROM services WHERE name LIKE ?)",
            )
            .bind(state)
            .bind(name)
            .execute(&db)
            .await
        }
    };
    set_state("BUILDING", "%").await?;
    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    for name in ["api", "web", "worker"] {
        browser
            .wait_for_text(&format!("tr[data-service={name}]"), "Building")
            .await?;
    }

    browser.client.execute(OBSERVE, vec![]).await?;
    // Two polls at least, nothing changed.
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let touched = browser
        .client
        .execute("return window.__touched", vec![])
        .await?;
    assert_eq!(
        touched,
        json!([]),
        "polls that changed nothing touched rows"
    );

    set_state("DEPLOYING", "web").await?;
    browser
        .wait_for_text("tr[data-service=web]", "Deploying")
        .await?;
    let touched = browser
        .client
        .execute("return window.__touched", vec![])
        .await?;
    let rows: Vec<&str> = touched
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|row| row.as_str())
        .collect();
    assert!(!rows.is_empty());
    assert!(
        rows.iter().all(|row| *row == "web"),
        "a change of web's status touched {rows:?}"
    );
    Ok(())
}
