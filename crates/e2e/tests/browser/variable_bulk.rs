//! Variables by the hundred, many at once: ticked rows made secrets and deleted together; "Edit
//! as text…" shows what its save adds, changes and removes, key by key, before applying it whole.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn ticked_variables_and_a_text_edit_are_applied_whole() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    for (key, value) in [
        ("KEEP", "1"),
        ("CHANGE_ME", "old"),
        ("DROP_ME", "x"),
        ("TOKEN", "t0k3n"),
        ("OLD", "o"),
    ] {
        browser
            .api(
                "POST",
                &format!("/application/{web}/environmentVariable"),
                json!({"key": key, "value": value}),
            )
            .await?;
    }

    browser.sign_in().await?;
    browser.open(&place.service_tab(&web, "variables")).await?;
    browser
        .wait_for_text("tbody[data-variable='TOKEN']", "t0k3n")
        .await?;
    browser.click("input[aria-label='Tick TOKEN']").await?;
    browser.click("input[aria-label='Tick OLD']").await?;
    browser.wait_for_text(".selection-bar", "2 ticked").await?;
    browser
        .click_text(".selection-bar button", "Make secret (2)")
        .await?;
    browser
        .click("dialog.confirm[open] .button--primary")
        .await?;
    browser
        .wait_for_text(".toast--success", "Variables made secrets")
        .await?;
    let value = browser
        .wait_for_text("tbody[data-variable='TOKEN']", "TOKEN")
        .await?;
    assert!(!value.contains("t0k3n"), "{value}");
    browser.click("input[aria-label='Tick OLD']").await?;
    browser
        .click_text(".selection-bar button", "Delete (1)")
        .await?;
    browser.accept_confirmation().await?;
    browser
        .wait_until_gone("tbody[data-variable='OLD']")
        .await?;

    // The text holds the plain ones: KEEP, CHANGE_ME, DROP_ME.
    browser.open_new("Edit as text…").await?;
    browser.wait_for_value("#as-text", "CHANGE_ME=old").await?;
    browser
        .fill("#as-text", "KEEP=1\nCHANGE_ME=new\nADDED=a\n")
        .await?;
    browser
        .wait_for_text("tr[data-change='CHANGE_ME']", "changed")
        .await?;
    browser
        .wait_for_text("tr[data-change='ADDED']", "added")
        .await?;
    browser
        .wait_for_text("tr[data-change='DROP_ME']", "removed")
        .await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("variables-edit-as-text").await?;
    // A key twice is refused, naming the line.
    browser.fill("#as-text", "KEEP=1\nKEEP=2\n").await?;
    browser.wait_for_text("#as-text-problems", "line 2").await?;
    browser
        .fill("#as-text", "KEEP=1\nCHANGE_ME=new\nADDED=a\n")
        .await?;
    browser
        .save_form(
            "dialog[open] form[aria-label='Edit variables as text']",
            "1 added, 1 changed, 1 removed",
        )
        .await?;
    browser
        .wait_for_text("tbody[data-variable='ADDED']", "a")
        .await?;
    browser
        .wait_until_gone("tbody[data-variable='DROP_ME']")
        .await?;
    let variables = browser
        .api(
            "GET",
            &format!("/application/{web}/environmentVariable"),
            json!(null),
        )
        .await?;
    let mut keys: Vec<&str> = variables["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["scope"] == "APPLICATION")
        .map(|v| v["key"].as_str().unwrap())
        .collect();
    keys.sort();
    assert_eq!(keys, ["ADDED", "CHANGE_ME", "KEEP"]);
    let secrets = browser
        .api("GET", &format!("/application/{web}/secret"), json!(null))
        .await?;
    let secret_keys: Vec<&str> = secrets["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["key"].as_str().unwrap())
        .collect();
    assert_eq!(secret_keys, ["TOKEN"], "OLD was deleted once a secret");

    // On a phone: ticks beside the keys, the bar above, nothing wider than the screen.
    browser.set_width(375).await?;
    // The toasts of the saves above are closed first, as a person would.
    for toast in browser
        .client
        .find_all(fantoccini::Locator::Css(".toast button"))
        .await?
    {
        toast.click().await?;
    }
    browser.click("input[aria-label='Tick KEEP']").await?;
    browser.wait_for_text(".selection-bar", "1 ticked").await?;
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("variables-ticked-375").await?;
    browser.close().await
}
