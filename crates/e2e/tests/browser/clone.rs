//! Cloning from the console: an environment copied under a new name (a name taken is refused
//! before anything is sent), the copy's page opened and the copy deployed on its own, its secret
//! copied by the server; a service copied from its settings. The forms' code and the places a
//! copy can go are fetched when their dialog first opens.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn an_environment_is_cloned_and_the_clone_deployed() -> anyhow::Result<()> {
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
    browser.wait_for_text("h2", "General").await?;
    // The clusters a copy can go to are read when the dialog first opens, not with the page (a
    // read the page asked for is recorded once answered: a second for the loopback's answers).
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let cluster_reads =
        |paths: Vec<String>| paths.iter().filter(|p| p.ends_with("/cluster")).count();
    assert_eq!(cluster_reads(browser.api_requests().await?), 0);
    browser.open_new("Clone environment…").await?;
    browser
        .wait_for_text("dialog[open] form", "Clone environment")
        .await?;
    assert_eq!(cluster_reads(browser.api_requests().await?), 1);
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    // A name the project already has is refused before anything is sent.
    browser.fill("#field-clone-name", "STAGING").await?;
    browser
        .click("dialog[open] form button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "dialog[open] .field__error",
            "is already taken in that project",
        )
        .await?;
    browser.fill("#field-clone-name", "preview-7").await?;
    browser.choose("#field-clone-mode", "PREVIEW").await?;
    browser.screenshot("clone-environment").await?;
    browser
        .click("dialog[open] form button[type=submit]")
        .await?;
    let path = browser
        .wait_for_path(|path| !path.contains(&place.environment) && path.ends_with("/services"))
        .await?;
    let copy = path.split('/').nth(6).unwrap().to_string();
    browser
        .wait_for_text("tr[data-service='web']", "Never deployed")
        .await?;
    let environment = browser
        .api("GET", &format!("/environment/{copy}"), json!(null))
        .await?;
    assert_eq!(environment["name"], "preview-7");
    assert_eq!(environment["mode"], "PREVIEW");

    browser.click_button("Deploy all").await?;
    browser
        .wait_for_text("tr[data-service='web']", "Deployed")
        .await?;
    // The original was left alone; the copy has the secret, its value unread.
    let original = browser
        .api(
            "GET",
            &format!("/environment/{}/statuses", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(
        original["applications"][0]["service_deployment_status"],
        "NEVER_DEPLOYED"
    );
    let services = browser
        .api("GET", &format!("/environment/{copy}/services"), json!(null))
        .await?;
    let copied = services["results"][0]["id"].as_str().unwrap().to_string();
    let variables = browser
        .api(
            "GET",
            &format!("/variable?parent_id={copied}&scope=APPLICATION"),
            json!(null),
        )
        .await?;
    let secret = variables["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["key"] == "API_KEY")
        .expect("the secret is copied");
    assert_eq!(secret["is_secret"], true);
    assert!(!variables.to_string().contains("never-shown-value"));

    // A service copied from its settings, into the same environment.
    browser.open(&place.service_tab(&web, "settings")).await?;
    browser.open_new("Clone service…").await?;
    browser.fill("#field-clone-name", "web-canary").await?;
    browser
        .click("dialog[open] form button[type=submit]")
        .await?;
    browser.wait_for_text("h1", "web-canary").await?;
    let listed = browser
        .api(
            "GET",
            &format!("/environment/{}/services", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(listed["results"].as_array().unwrap().len(), 2);

    // Into another environment, an alias of this environment's variable cannot come along:
    // the console says so.
    let region = browser
        .api(
            "POST",
            &format!("/environment/{}/environmentVariable", place.environment),
            json!({"key": "REGION", "value": "eu-west"}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/variable/{}/alias", region["id"].as_str().unwrap()),
            json!({"key": "APP_REGION", "alias_scope": "APPLICATION", "alias_parent_id": web}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/project/{}/environment", place.project),
            json!({"name": "production"}),
        )
        .await?;
    browser.open(&place.service_tab(&web, "settings")).await?;
    browser.open_new("Clone service…").await?;
    browser.fill("#field-clone-name", "web-prod").await?;
    browser
        .find("#field-clone-environment_id")
        .await?
        .select_by_label("production")
        .await?;
    browser
        .click("dialog[open] form button[type=submit]")
        .await?;
    browser.wait_for_text("h1", "web-prod").await?;
    browser
        .wait_for_text(".toast--success", "Left out 1 alias or override")
        .await?;
    browser
        .wait_for_text(".toast--success", "APP_REGION (alias)")
        .await?;
    browser.screenshot("clone-left-out").await?;
    browser.close().await
}
