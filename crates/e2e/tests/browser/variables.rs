//! A service's variables page: what the service sees with the level each variable comes from;
//! a secret added (its rules checked first) and never shown again; an inherited variable
//! overridden for this service alone, and aliased; the list filtered by level; a variable edited and deleted; the list filtered by key;
//! the page saying the running service is out of date.

use e2e::Browser;
use fantoccini::Locator;
use serde_json::json;

/// The button labelled `label` in the row of the variable `key`.
fn row_button(key: &str, label: &str) -> String {
    format!("//tbody[@data-variable='{key}']//button[normalize-space()='{label}']")
}

#[tokio::test(flavor = "multi_thread")]
async fn variables_are_added_overridden_edited_and_deleted() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    browser
        .create(
            &format!("/environment/{}/environmentVariable", place.environment),
            json!({"key": "LOG_LEVEL", "value": "info"}),
        )
        .await?;
    browser
        .create(
            &format!("/project/{}/environmentVariable", place.project),
            json!({"key": "REGION", "value": "eu-west"}),
        )
        .await?;
    // Deployed, so that the changes below leave it out of date.
    browser.deployed(&web).await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&web)).await?;
    browser.click("a.tabs__tab[href$='/variables']").await?;
    browser
        .wait_for_text("main h2", "Variables and secrets")
        .await?;
    let inherited = browser
        .wait_for_text("tbody[data-variable=LOG_LEVEL]", "info")
        .await?;
    assert!(inherited.contains("Environment"), "{inherited}");
    let built_in = browser
        .wait_for_text(
            "tbody[data-variable=APPLICATION_WEB_HOST_INTERNAL]",
            "Built-in",
        )
        .await?;
    assert!(built_in.contains("Read only"), "{built_in}");

    // The rules of platform-api are checked before sending.
    browser.fill("#field-key", "1-BAD").await?;
    browser
        .click("form[aria-label='Add a variable'] button[type=submit]")
        .await?;
    browser.wait_for_text(".field__error", "must").await?;

    let secret_value = "s3cr3t-shown-nowhere";
    browser.fill("#field-key", "PAYMENT_API_KEY").await?;
    browser.click("input[name=is_secret]").await?;
    browser.fill("#field-value", secret_value).await?;
    browser
        .click("form[aria-label='Add a variable'] button[type=submit]")
        .await?;
    let secret = browser
        .wait_for_text("tbody[data-variable=PAYMENT_API_KEY]", "Secret · hidden")
        .await?;
    assert!(secret.contains("This service"), "{secret}");
    assert!(
        !browser.client.source().await?.contains(secret_value),
        "the secret's value is on the page"
    );
    browser.wait_for_text("[role=status]", "deploy it").await?;
    // The form is ready for the next variable: not a secret unless ticked again.
    let ticked = browser
        .find("input[name=is_secret]")
        .await?
        .prop("checked")
        .await?;
    assert_eq!(
        ticked.as_deref(),
        Some("false"),
        "the Secret box stayed ticked"
    );

    // An inherited variable gets this service's own value; the environment keeps its own.
    browser
        .client
        .find(Locator::XPath(&row_button("LOG_LEVEL", "Override")))
        .await?
        .click()
        .await?;
    browser
        .fill("form[aria-label='Override LOG_LEVEL'] input", "debug")
        .await?;
    browser
        .click("form[aria-label='Override LOG_LEVEL'] button[type=submit]")
        .await?;
    let overridden = browser
        .wait_for_text("tbody[data-variable=LOG_LEVEL]", "debug")
        .await?;
    assert!(
        overridden.contains("overrides the environment value"),
        "{overridden}"
    );
    assert!(overridden.contains("This service"), "{overridden}");
    let environment_variables = browser
        .api(
            "GET",
            &format!("/environment/{}/environmentVariable", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(environment_variables["results"][0]["value"], "info");

    // An inherited variable given another key for this service follows its value.
    browser
        .client
        .find(Locator::XPath(&row_button("REGION", "Alias")))
        .await?
        .click()
        .await?;
    browser
        .fill("form[aria-label='Alias REGION'] input", "APP_REGION")
        .await?;
    browser
        .click("form[aria-label='Alias REGION'] button[type=submit]")
        .await?;
    let alias = browser
        .wait_for_text("tbody[data-variable=APP_REGION]", "alias of REGION")
        .await?;
    assert!(alias.contains("eu-west"), "{alias}");
    assert!(alias.contains("This service"), "{alias}");
    // Filtered by where they are defined: the project's only.
    browser.choose("select[name=level]", "project").await?;
    browser
        .wait_until_gone("tbody[data-variable=APP_REGION]")
        .await?;
    browser.find("tbody[data-variable=REGION]").await?;
    browser.choose("select[name=level]", "").await?;
    browser.find("tbody[data-variable=APP_REGION]").await?;

    // A secret edited with its value left empty keeps it.
    browser
        .client
        .find(Locator::XPath(&row_button("PAYMENT_API_KEY", "Edit")))
        .await?
        .click()
        .await?;
    browser
        .fill(
            "form[aria-label='Edit PAYMENT_API_KEY'] input[name=description]",
            "for the payment provider",
        )
        .await?;
    browser.forget_requests().await?;
    browser
        .click("form[aria-label='Edit PAYMENT_API_KEY'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "tbody[data-variable=PAYMENT_API_KEY]",
            "for the payment provider",
        )
        .await?;
    let edited = browser.api_requests().await?;
    assert_eq!(edited.len(), 1, "an edit makes one request: {edited:?}");
    assert!(edited[0].starts_with("/api/variable/"), "{edited:?}");
    let (kept,): (String,) =
        sqlx::query_as("SELECT secret_value FROM variables WHERE key = 'PAYMENT_API_KEY'")
            .fetch_one(&browser.server.state.db)
            .await?;
    assert_eq!(browser.server.state.sealer.open(&kept)?, secret_value);

    browser.fill("input[type=search]", "log").await?;
    browser
        .wait_until_gone("tbody[data-variable=PAYMENT_API_KEY]")
        .await?;
    browser.find("tbody[data-variable=LOG_LEVEL]").await?;
    browser.fill("input[type=search]", "").await?;
    browser.screenshot("service-variables").await?;

    browser
        .client
        .find(Locator::XPath(&row_button("PAYMENT_API_KEY", "Delete")))
        .await?
        .click()
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_until_gone("tbody[data-variable=PAYMENT_API_KEY]")
        .await?;
    browser.close().await
}

/// A service that sees more variables than a page holds shows them a page at a time, the page
/// in the address; the filter looks through all of them.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_list_of_variables_is_paged() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    for index in 0..130 {
        browser
            .create(
                &format!("/environment/{}/environmentVariable", place.environment),
                json!({"key": format!("KEY_{index:03}"), "value": "v"}),
            )
            .await?;
    }
    let rows = "document.querySelectorAll('tbody[data-variable]').length";
    browser.sign_in().await?;
    let variables = place.service_page(&web).replace("/overview", "/variables");
    browser.open(&variables).await?;
    browser
        .wait_for_text("nav[aria-label='Pages of variables']", "1–100 of")
        .await?;
    let shown = browser
        .client
        .execute(&format!("return {rows}"), vec![])
        .await?;
    assert_eq!(shown, json!(100));
    browser.find("tbody[data-variable=KEY_000]").await?;

    browser
        .click_text("nav[aria-label='Pages of variables'] a", "Next →")
        .await?;
    browser.find("tbody[data-variable=KEY_129]").await?;
    assert_eq!(browser.client.current_url().await?.query(), Some("page=2"));
    browser
        .wait_until_gone("tbody[data-variable=KEY_000]")
        .await?;
    assert!(browser.axe_violations().await?.is_empty());
    browser.set_width(375).await?;
    assert_eq!(browser.overflow().await?, Vec::<String>::new());
    browser.screenshot("variables-paged-375").await?;
    browser.set_width(1280).await?;

    // The filter looks through every page.
    browser.fill("input[type=search]", "KEY_005").await?;
    browser.find("tbody[data-variable=KEY_005]").await?;
    browser
        .wait_until_gone("nav[aria-label='Pages of variables']")
        .await?;
    Ok(())
}
