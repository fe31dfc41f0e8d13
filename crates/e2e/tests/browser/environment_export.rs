//! An environment downloaded as Terraform from its settings: one file of its services and
//! variables, a secret an input variable and never its value.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn an_environment_is_downloaded_as_terraform() -> anyhow::Result<()> {
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
            "/variable",
            json!({"key": "API_KEY", "value": "never-shown-value", "is_secret": true,
                   "variable_scope": "APPLICATION", "variable_parent_id": web}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.tab("settings")).await?;
    let (name, text) = browser.downloaded("Download as Terraform").await?;
    assert_eq!(name, "staging.tf");
    assert!(
        text.contains("resource \"platform_application\" \"web\""),
        "{text}"
    );
    assert!(text.contains("value = var.web_api_key"), "{text}");
    assert!(!text.contains("never-shown-value"), "{text}");
    browser.close().await
}
