//! Many services at once: three ticked on the environment's page (one click, then a shift-click
//! for the range) and restarted together, one made to fail; each one's progress in one panel,
//! the failure with its reason. A stop that one of the selection cannot take starts none and
//! names it.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn three_services_are_restarted_together_and_one_fails() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let mut deployed = Vec::new();
    for name in ["api", "web", "worker"] {
        let id = browser.create_application(&place.environment, name).await?;
        browser.deployed(&id).await?;
        deployed.push(id);
    }
    browser
        .create_application(&place.environment, "zeta-idle")
        .await?;
    browser
        .api(
            "POST",
            &format!("/application/{}/environmentVariable", deployed[2]),
            json!({"key": "PLATFORM_FAIL_AT", "value": "RESTART"}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser
        .click("tr[data-service='api'] input[type=checkbox]")
        .await?;
    browser
        .shift_click("tr[data-service='worker'] input[type=checkbox]")
        .await?;
    browser
        .wait_for_text(".selection-bar", "3 selected")
        .await?;
    let idle = browser
        .find("tr[data-service='zeta-idle'] input[type=checkbox]")
        .await?;
    assert!(!idle.is_selected().await?, "the range stops at worker");
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");

    browser
        .click_text(".selection-bar button", "Restart")
        .await?;
    browser
        .wait_for_text(".selection-progress", "Restart of the selection")
        .await?;
    browser
        .wait_for_text("li[data-service='worker']", "failed on purpose")
        .await?;
    for name in ["api", "web"] {
        browser
            .wait_for_text(&format!("li[data-service='{name}']"), "Restarted")
            .await?;
    }
    browser.screenshot("selection-restart").await?;
    for (id, state) in deployed
        .iter()
        .zip(["RESTARTED", "RESTARTED", "RESTART_ERROR"])
    {
        let status = browser
            .api("GET", &format!("/application/{id}/status"), json!(null))
            .await?;
        assert_eq!(status["state"], state);
    }

    // The idle one added: a stop it cannot take starts none, and says why for it.
    browser
        .click("tr[data-service='zeta-idle'] input[type=checkbox]")
        .await?;
    browser
        .wait_for_text(".selection-bar", "4 selected")
        .await?;
    browser.click_text(".selection-bar button", "Stop").await?;
    browser
        .wait_for_text(".selection-progress", "nothing was started")
        .await?;
    browser
        .wait_for_text("li[data-service='zeta-idle']", "runs nothing to stop")
        .await?;
    let api = browser
        .api(
            "GET",
            &format!("/application/{}/status", deployed[0]),
            json!(null),
        )
        .await?;
    assert_eq!(api["state"], "RESTARTED");

    browser.set_width(375).await?;
    // On a phone, "every service shown" is still a box a person sees and ticks.
    let every = browser
        .find("input[aria-label='Select every service shown']")
        .await?;
    let reachable = browser
        .client
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});
             const box = arguments[0].getBoundingClientRect();
             const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
             return hit === arguments[0];",
            vec![serde_json::to_value(&every)?],
        )
        .await?;
    assert_eq!(reachable, json!(true), "the box for every row is hidden");
    let checked = "return arguments[0].checked";
    let before = browser
        .client
        .execute(checked, vec![serde_json::to_value(&every)?])
        .await?;
    every.click().await?;
    let after = browser
        .client
        .execute(checked, vec![serde_json::to_value(&every)?])
        .await?;
    assert_ne!(before, after, "the box for every row did not change");
    let rows_follow = browser
        .client
        .execute(
            "return [...document.querySelectorAll('tbody .table__select input')]
                 .every(row => row.checked === arguments[0].checked)",
            vec![serde_json::to_value(&every)?],
        )
        .await?;
    assert_eq!(rows_follow, json!(true), "every row follows the box");
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("selection-375").await?;
    browser.close().await
}
