//! An environment's schedule saved from its page, and a project's deployment rule added and
//! given to an environment created afterwards.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_schedule_is_saved_and_a_projects_rule_applies_to_a_new_environment() -> anyhow::Result<()>
{
    let browser = Browser::start(50.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser.sign_in().await?;
    browser.open(&place.tab("settings")).await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=schedule-title]",
            "Runs until stopped",
        )
        .await?;
    browser.click("#field-auto_stop").await?;
    browser.fill("#field-timezone", "Europe/Paris").await?;
    browser.fill("#field-start_time", "7.30").await?;
    browser.fill("#field-stop_time", "20:00").await?;
    browser
        .click("form[aria-label=Schedule] input[name=weekdays][value=FRIDAY]")
        .await?;
    browser
        .click("form[aria-label=Schedule] button[type=submit]")
        .await?;
    // A time that does not read is named before anything is sent.
    browser
        .wait_for_text("#field-start_time-error", "must be a time of day")
        .await?;
    browser.fill("#field-start_time", "07:30").await?;
    browser
        .click("form[aria-label=Schedule] button[type=submit]")
        .await?;
    let summary = browser
        .wait_for_text(".schedule__summary", "from 07:30 to 20:00 (Europe/Paris)")
        .await?;
    assert!(
        summary.contains("Runs Monday, Tuesday, Wednesday, Thursday from"),
        "{summary}"
    );
    browser.screenshot("environment-schedule").await?;
    let saved = browser
        .api(
            "GET",
            &format!("/environment/{}/deploymentRule", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(saved["auto_stop"], true);
    assert_eq!(saved["start_time"], "1970-01-01T07:30:00Z");
    assert_eq!(saved["weekdays"].as_array().unwrap().len(), 4);

    // A rule of the project, for the feature branches' environments.
    browser
        .open(&format!(
            "/organization/{}/project/{}/overview",
            place.organization, place.project
        ))
        .await?;
    browser.open_new("Add a deployment rule").await?;
    let form = "form[aria-label='Add a deployment rule']";
    browser
        .fill(&format!("{form} #field-name"), "feature branches")
        .await?;
    browser
        .fill(&format!("{form} #field-wildcard"), "feat-*")
        .await?;
    browser
        .fill(&format!("{form} #field-timezone"), "Asia/Tokyo")
        .await?;
    browser
        .click("form[aria-label='Add a deployment rule'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("ol[aria-label='Deployment rules']", "feat-*")
        .await?;
    browser.screenshot("deployment-rules").await?;
    let created = browser
        .api(
            "POST",
            &format!("/project/{}/environment", place.project),
            json!({"name": "feat-login"}),
        )
        .await?;
    let id = created["id"].as_str().unwrap();
    let rule = browser
        .api(
            "GET",
            &format!("/environment/{id}/deploymentRule"),
            json!(null),
        )
        .await?;
    assert_eq!(rule["timezone"], "Asia/Tokyo");
    assert_eq!(rule["auto_stop"], true);
    browser.close().await
}
