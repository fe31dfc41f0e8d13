//! Variables by the hundred: an `.env` pasted into the import dialog shows what it will add,
//! change and leave alone (overwrite and secrets chosen per line) before it is applied; the
//! export is a `.env` file of the values seen, secrets left out and named in a comment.

use e2e::Browser;
use serde_json::json;

/// The text of a `data:` URL's percent-encoded body.
fn percent_decoded(encoded: &str) -> String {
    let bytes = encoded.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' && at + 2 < bytes.len() + 1 {
            let hex = std::str::from_utf8(&bytes[at + 1..at + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_env_file_is_previewed_imported_and_exported() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application(&place.environment, "web")
        .await?;
    browser
        .api(
            "POST",
            &format!("/application/{web}/environmentVariable"),
            json!({"key": "OLD_ONE", "value": "1"}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_tab(&web, "variables")).await?;
    browser.open_new("Import .env…").await?;
    browser
        .fill(
            "#import-text",
            "# from my laptop\nAPI_URL=https://api.example\nOLD_ONE=2\nSECRET_TOKEN=\"s3cret value\"\n",
        )
        .await?;
    browser
        .wait_for_text("tr[data-import='API_URL']", "added")
        .await?;
    browser
        .wait_for_text("tr[data-import='OLD_ONE']", "left alone")
        .await?;
    browser
        .click("dialog[open] input[type=checkbox]:not([aria-label])")
        .await?;
    browser
        .wait_for_text("tr[data-import='OLD_ONE']", "changed")
        .await?;
    browser
        .click("input[aria-label='SECRET_TOKEN is a secret']")
        .await?;
    let masked = browser
        .wait_for_text("tr[data-import='SECRET_TOKEN']", "••••••")
        .await?;
    assert!(!masked.contains("s3cret"), "{masked}");
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("variables-import-preview").await?;
    browser
        .click("dialog[open] form button[type=submit]")
        .await?;
    browser
        .wait_for_text("tbody[data-variable='API_URL']", "https://api.example")
        .await?;
    let secrets = browser
        .api("GET", &format!("/application/{web}/secret"), json!(null))
        .await?;
    assert!(secrets["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|secret| secret["key"] == "SECRET_TOKEN"));
    let variables = browser
        .api(
            "GET",
            &format!("/application/{web}/environmentVariable"),
            json!(null),
        )
        .await?;
    let old = variables["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|variable| variable["key"] == "OLD_ONE")
        .unwrap();
    assert_eq!(old["value"], "2");

    // The export, read back from the link a person downloads.
    let link = browser.find("a[download='web.env']").await?;
    let href = link.attr("href").await?.unwrap_or_default();
    let exported = percent_decoded(href.trim_start_matches("data:text/plain;charset=utf-8,"));
    assert!(
        exported.contains("API_URL=https://api.example\n"),
        "{exported}"
    );
    assert!(exported.contains("OLD_ONE=2\n"), "{exported}");
    assert!(
        exported.starts_with("# Secrets left out (their values are never shown): SECRET_TOKEN\n"),
        "{exported}"
    );
    assert!(!exported.contains("s3cret"), "{exported}");
    browser.close().await
}
