//! Who changed what: a change of a service's settings made in the console shows in the service's
//! "History of changes" (the organization's audit log narrowed to it) as an update from the
//! console, whose diff gives each field changed with its value before and after; the filters
//! narrow the log, and the page holds at a phone's width.

use e2e::Browser;
use serde_json::json;

/// Sets a date and time input as its picker does (typing into one depends on the locale).
async fn pick(browser: &Browser, css: &str, value: &str) -> anyhow::Result<()> {
    let input = browser.find(css).await?;
    browser
        .client
        .execute(
            "arguments[0].value = arguments[1];
             arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
            vec![serde_json::to_value(&input)?, json!(value)],
        )
        .await?;
    Ok(())
}

/// Applies the filters as set, and waits for the log to say it holds nothing then: the query of
/// the address it is at.
async fn filter_to_nothing(browser: &Browser) -> anyhow::Result<String> {
    browser
        .click("form[aria-label='Filter changes'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(".empty", "No change recorded")
        .await?;
    let address = browser.client.current_url().await?;
    Ok(address.query().unwrap_or_default().to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_settings_change_is_shown_with_its_diff() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_tab(&web, "settings")).await?;
    browser.wait_for_value("#field-name", "web").await?;
    browser.fill("#field-memory", "768").await?;
    browser
        .save_form("form[aria-label='Application settings']", "Settings saved")
        .await?;

    // The service's history of changes: its creation (through the API) and the update.
    browser
        .click_text("a.history-link", "History of changes")
        .await?;
    browser
        .wait_for_path(|path| path.ends_with("/audit-log"))
        .await?;
    let address = browser.client.current_url().await?;
    assert_eq!(address.query(), Some(format!("targetId={web}").as_str()));
    let update = browser
        .wait_for_text(".audit__entry:first-child .audit__what", "Update")
        .await?;
    assert!(update.contains("web"), "{update}");
    let who = browser
        .wait_for_text(".audit__entry:first-child .audit__who", "Console")
        .await?;
    assert!(who.contains("API token"), "{who}");
    browser
        .wait_for_text(".audit__entry:last-child .audit__what", "Create")
        .await?;
    browser
        .click(".audit__entry:first-child .audit__diff summary")
        .await?;
    let diff = browser
        .wait_for_text(".audit__entry:first-child .diff", "memory")
        .await?;
    assert!(diff.contains("512") && diff.contains("768"), "{diff}");
    assert!(!diff.contains("updated_at"), "{diff}");
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("audit-log-diff").await?;

    // Filtered to deploy requests, the log of this service has none.
    browser
        .find("select[name=eventType]")
        .await?
        .select_by_label("Deploy asked")
        .await?;
    let query = filter_to_nothing(&browser).await?;
    assert!(
        query.contains("eventType=TRIGGER_DEPLOY") && query.contains(&web),
        "{query}"
    );
    // A time range: Until before Since is refused; a range in the future holds nothing.
    pick(&browser, "#audit-field-since", "2099-01-02T00:00").await?;
    pick(&browser, "#audit-field-until", "2099-01-01T00:00").await?;
    browser
        .click("form[aria-label='Filter changes'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#audit-field-until-error", "must be after Since")
        .await?;
    pick(&browser, "#audit-field-until", "2099-01-03T00:00").await?;
    let query = filter_to_nothing(&browser).await?;
    assert!(query.contains("fromTimestamp=2099-01-0"), "{query}");
    browser
        .click_text(".audit-scope a", "Show the whole organization")
        .await?;
    // The whole organization's deploy requests: none yet, then one once asked.
    browser
        .api("POST", &format!("/application/{web}/deploy"), json!({}))
        .await?;
    browser
        .open(&format!(
            "/organization/{}/audit-log?eventType=TRIGGER_DEPLOY",
            browser.organization_id().await?
        ))
        .await?;
    browser
        .wait_for_text(".audit__entry .audit__what", "web")
        .await?;

    browser.set_width(375).await?;
    browser
        .open(&format!(
            "/organization/{}/audit-log",
            browser.organization_id().await?
        ))
        .await?;
    browser.wait_for_text(".audit__entry", "web").await?;
    // On a phone the filters are folded away until asked for.
    let folded = browser
        .client
        .execute(
            "return !document.querySelector('details.audit-filters').open",
            vec![],
        )
        .await?;
    assert_eq!(folded, json!(true));
    browser.click(".audit__entry .audit__diff summary").await?;
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("audit-log-375").await?;
    browser.close().await
}
