//! An environment's deployment stages, from its settings tab: a stage moved up by keyboard (the focus
//! staying on it), a service moved to another stage and skipped, a stage added; the environment's
//! deployment then runs them in that order.

use e2e::Browser;
use fantoccini::key::Key;
use serde_json::json;

/// The stages' names as the page lists them.
async fn shown_order(browser: &Browser) -> anyhow::Result<Vec<String>> {
    let order = browser
        .client
        .execute(
            "return [...document.querySelectorAll('ol[aria-label=Stages] > li')].map(li => li.dataset.stage)",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(order)?)
}

#[tokio::test(flavor = "multi_thread")]
async fn stages_are_reordered_by_keyboard_and_services_moved() -> anyhow::Result<()> {
    let browser = Browser::start(50.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    browser
        .create(
            &format!("/environment/{}/database", place.environment),
            json!({"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER",
                   "accessibility": "PRIVATE"}),
        )
        .await?;
    browser.sign_in().await?;
    browser.open(&place.tab("settings")).await?;
    browser
        .wait_for_text("ol[aria-label=Stages]", "Application default")
        .await?;
    assert_eq!(
        shown_order(&browser).await?,
        [
            "TERRAFORM DEFAULT",
            "DATABASE DEFAULT",
            "JOB DEFAULT",
            "CONTAINER DEFAULT",
            "APPLICATION DEFAULT",
            "HELM DEFAULT"
        ]
    );

    // Up twice with the keyboard: Enter on the focused button, which keeps the focus.
    // Stage names read as words, not as the machine's capitals.
    let up = "button[aria-label='Move Application default up']";
    let enter = char::from(Key::Enter).to_string();
    browser.find(up).await?.send_keys(&enter).await?;
    browser
        .wait_for_text(
            "ol[aria-label=Stages] > li:nth-child(4)",
            "Application default",
        )
        .await?;
    let focused = browser
        .client
        .execute(
            "return document.activeElement.getAttribute('aria-label')",
            vec![],
        )
        .await?;
    assert_eq!(focused, json!("Move Application default up"));
    browser.find(up).await?.send_keys(&enter).await?;
    browser
        .wait_for_text(
            "ol[aria-label=Stages] > li:nth-child(3)",
            "Application default",
        )
        .await?;

    // The application moved into the database's stage, then skipped there.
    browser.choose(&format!("#stage-of-{web}"), "1").await?;
    browser
        .wait_for_text("[data-stage='DATABASE DEFAULT']", "web")
        .await?;
    browser
        .click(&format!(
            "[data-stage='DATABASE DEFAULT'] li[data-service='{web}'] input[type=checkbox]"
        ))
        .await?;
    browser
        .wait_for_text("[data-stage='DATABASE DEFAULT']", "Skipped")
        .await?;

    browser.open_new("Add a stage").await?;
    browser.fill("#field-name", "smoke tests").await?;
    browser
        .click("form[aria-label='Add a stage'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("ol[aria-label=Stages] > li:last-child", "smoke tests")
        .await?;
    browser.screenshot("deployment-stages").await?;

    let stages = browser
        .api(
            "GET",
            &format!("/environment/{}/deploymentStage", place.environment),
            json!(null),
        )
        .await?;
    let names: Vec<&str> = stages["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[2], "APPLICATION DEFAULT");
    assert_eq!(names[6], "smoke tests");
    browser.close().await
}

/// A stage of many services lists them once asked for, and stays open when a service moved out
/// of it draws the stages again.
#[tokio::test(flavor = "multi_thread")]
async fn a_stage_of_many_services_lists_them_when_opened() -> anyhow::Result<()> {
    let browser = Browser::start(50.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let mut applications = Vec::new();
    for index in 0..14 {
        let name = format!("app-{index:02}");
        applications.push(
            browser
                .create_application(&place.environment, &name)
                .await?,
        );
    }
    browser.sign_in().await?;
    browser.open(&place.tab("settings")).await?;
    let stage = "[data-stage='APPLICATION DEFAULT']";
    browser
        .wait_for_text(&format!("{stage} summary"), "Show its 14 services")
        .await?;
    let selects =
        "return document.querySelectorAll(\"[data-stage='APPLICATION DEFAULT'] select\").length";
    assert_eq!(browser.client.execute(selects, vec![]).await?, json!(0));

    browser.click(&format!("{stage} summary")).await?;
    browser
        .choose(&format!("#stage-of-{}", applications[0]), "1")
        .await?;
    browser
        .wait_for_text("[data-stage='DATABASE DEFAULT']", "app-00")
        .await?;
    browser
        .wait_for_text(&format!("{stage} summary"), "Show its 13 services")
        .await?;
    // Still open: the rest are listed, each with its choice of stage.
    browser
        .find(&format!("{stage} #stage-of-{}", applications[1]))
        .await?;
    assert_eq!(browser.client.execute(selects, vec![]).await?, json!(13));
    browser.screenshot("deployment-stages-many").await?;
    browser.close().await
}
