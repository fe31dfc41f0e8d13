//! A service's settings page: reached from the overview without reading the service again (the
//! layout loaded it once), the form filled with the service's settings, its rules checked before
//! sending, a change saved in one request (what the form does not show kept as it was; the page
//! shows the answer), the page saying the running service is out of date and deploying it from
//! the same tab; then the service deleted, back on its environment.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn an_application_is_changed_and_then_deleted() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"},
                   "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}],
                   "arguments": ["--serve"]}),
        )
        .await?;
    let before = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    browser.deployed(&web).await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&web)).await?;
    browser.wait_for_text(".facts", "git.example.com").await?;
    // Opened cold, the page learns the service's kind from its environment's list: read once
    // for the breadcrumb, the record and the status together.
    let lists = browser
        .api_requests()
        .await?
        .into_iter()
        .filter(|path| path.ends_with("/services"))
        .count();
    assert_eq!(lists, 1, "the environment's list is read once");
    browser
        .wait_for_title("web · staging · shop — Platform console")
        .await?;
    let reads_of_the_record = format!(
        "return performance.getEntriesByType('resource')
            .filter(e => new URL(e.name).pathname.endsWith('/application/{web}')).length"
    );
    let before_tab = browser.client.execute(&reads_of_the_record, vec![]).await?;
    assert!(
        before_tab.as_u64() >= Some(1),
        "the overview read the service"
    );
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser.wait_for_value("#field-name", "web").await?;
    let after_tab = browser.client.execute(&reads_of_the_record, vec![]).await?;
    assert_eq!(
        before_tab, after_tab,
        "switching tabs read the service again"
    );
    browser
        .wait_for_value("#field-git_repository-branch", "main")
        .await?;

    browser.fill("#field-memory", "lots").await?;
    browser.fill("#field-min_running_instances", "3").await?;
    browser
        .click("form[aria-label='Application settings'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-memory-error", "must be a whole number")
        .await?;
    browser
        .wait_for_text("#field-min_running_instances-error", "must be at most")
        .await?;

    browser.fill("#field-memory", "1024").await?;
    browser.fill("#field-max_running_instances", "4").await?;
    browser
        .fill("#field-git_repository-branch", "release")
        .await?;
    browser.forget_requests().await?;
    browser
        .save_form("form[aria-label='Application settings']", "Settings saved")
        .await?;
    // The answer is the saved service, and a change leaves a deployed service out of date: the
    // page shows both from the one request the save made.
    browser.wait_for_text("[role=status]", "deploy it").await?;
    browser.wait_for_value("#field-memory", "1024").await?;
    assert_eq!(
        browser.api_requests().await?,
        [format!("/api/application/{web}")],
        "a save makes one request"
    );
    // The actions are on every tab: deployed from here, the notice goes once it is done.
    browser.click_button("Deploy").await?;
    browser.wait_until_gone(".notice--warning").await?;
    let after = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(after["memory"], 1024);
    assert_eq!(after["min_running_instances"], 3);
    assert_eq!(after["max_running_instances"], 4);
    assert_eq!(after["git_repository"]["branch"], "release");
    // What the form does not show is kept, down to the port's id.
    assert_eq!(after["ports"], before["ports"]);
    assert_eq!(after["arguments"], before["arguments"]);
    browser.screenshot("service-settings").await?;

    browser.click(".danger-zone .button--danger").await?;
    browser.accept_confirmation().await?;
    let environment = browser.wait_for_path(|path| path == place.page()).await?;
    assert_eq!(environment, place.page());
    let applications = browser
        .api(
            "GET",
            &format!("/environment/{}/application", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(applications["results"], json!([]));
    browser.close().await
}
