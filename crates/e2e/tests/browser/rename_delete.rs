//! A project and an environment renamed from their pages in one request (the breadcrumb follows
//! the answer), then deleted
//! once their name is typed: the button waits for the exact name, and the page goes up to what
//! held them.

use e2e::Browser;
use serde_json::json;

async fn delete_allowed(browser: &Browser, what: &str) -> anyhow::Result<bool> {
    let button = browser
        .find(&format!(
            "form[aria-label='Delete this {what}'] button[type=submit]"
        ))
        .await?;
    Ok(button.prop("disabled").await?.as_deref() == Some("false"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_project_and_an_environment_are_renamed_and_deleted() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    browser.sign_in().await?;

    browser
        .open(&format!(
            "/organization/{}/project/{}/overview",
            place.organization, place.project
        ))
        .await?;
    browser.wait_for_value("#rename-field-name", "shop").await?;
    browser.fill("#rename-field-name", "boutique").await?;
    browser.forget_requests().await?;
    browser
        .save_form(
            "form[aria-label='Rename this project']",
            "The project is renamed.",
        )
        .await?;
    browser.wait_for_text(".breadcrumbs", "boutique").await?;
    assert_eq!(
        browser.api_requests().await?,
        [format!("/api/project/{}", place.project)],
        "a rename makes one request: the page and the breadcrumb show its answer"
    );
    let project = browser
        .api("GET", &format!("/project/{}", place.project), json!(null))
        .await?;
    assert_eq!(project["name"], "boutique");

    browser.open(&place.tab("settings")).await?;
    browser.find("#delete-field-confirm_name").await?;
    assert!(!delete_allowed(&browser, "environment").await?);
    browser.fill("#delete-field-confirm_name", "stag").await?;
    assert!(
        !delete_allowed(&browser, "environment").await?,
        "a part of the name deletes nothing"
    );
    browser
        .fill("#delete-field-confirm_name", "staging")
        .await?;
    assert!(delete_allowed(&browser, "environment").await?);
    browser
        .click("form[aria-label='Delete this environment'] button[type=submit]")
        .await?;
    let project_page = format!(
        "/organization/{}/project/{}/overview",
        place.organization, place.project
    );
    browser.wait_for_path(|path| path == project_page).await?;
    let environments = browser
        .api(
            "GET",
            &format!("/project/{}/environment", place.project),
            json!(null),
        )
        .await?;
    assert_eq!(environments["results"], json!([]));

    browser
        .wait_for_value("#rename-field-name", "boutique")
        .await?;
    browser
        .fill("#delete-field-confirm_name", "boutique")
        .await?;
    browser
        .click("form[aria-label='Delete this project'] button[type=submit]")
        .await?;
    let organization_page = format!("/organization/{}/overview", place.organization);
    browser
        .wait_for_path(|path| path == organization_page)
        .await?;
    let projects = browser
        .api(
            "GET",
            &format!("/organization/{}/project", place.organization),
            json!(null),
        )
        .await?;
    assert_eq!(projects["results"], json!([]));
    browser.close().await
}
