//! What happened, in one story: a service's timeline tells its deployments (the commit, the
//! outcome, a link to the deployment's steps and log) and its configuration changes (who made
//! them, a link to the change in the audit log), newest first under each day's heading,
//! filtered by kind, person and range from the address; the environment's and the
//! organization's tell theirs. Each passes axe at 375 and 1280 px.

use e2e::{Browser, Repository};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_services_deployments_and_changes_are_one_story() -> anyhow::Result<()> {
    let repository = Repository::with(&[
        ("Add the shop front", &[("index.html", "<h1>Shop</h1>")]),
        ("Faster checkout", &[("checkout.js", "go()")]),
    ])?;
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application_from(&place.environment, &repository, json!({"name": "web"}))
        .await?;
    browser.deployed(&web).await?;
    // A change after the deployment: more memory.
    browser
        .api(
            "PUT",
            &format!("/application/{web}"),
            json!({"name": "web", "memory": 1024, "git_repository": repository.git()}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_tab(&web, "timeline")).await?;
    let story = browser
        .wait_for_text(".timeline__day", "web deployed")
        .await?;
    assert!(story.contains("Updated application web"), "{story}");
    assert!(story.contains("memory 512 → 1024"), "what changed: {story}");
    assert!(story.contains("Faster checkout"), "the commit: {story}");
    // Newest first: the change came after the deployment.
    let change = story.find("Updated application web").unwrap();
    let deployment = story.find("web deployed").unwrap();
    assert!(change < deployment, "{story}");
    let day = browser.find(".timeline__day h2").await?.text().await?;
    assert!(
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            .iter()
            .any(|weekday| day.starts_with(weekday)),
        "{day}"
    );
    for width in [375, 1280] {
        browser.set_width(width).await?;
        assert_eq!(
            browser.axe_violations().await?,
            Vec::<String>::new(),
            "at {width} px"
        );
        assert_eq!(
            browser.overflow().await?,
            Vec::<String>::new(),
            "at {width} px"
        );
    }
    browser.screenshot("service-timeline").await?;

    // Deployments only, from the address: the change is filtered out.
    browser
        .choose("select:has(option[value=deployment])", "deployment")
        .await?;
    browser
        .wait_for_path(|path| path.ends_with("/timeline"))
        .await?;
    assert!(browser.query().await?.contains("kind=deployment"));
    browser.wait_until_gone(".timeline__kind--change").await?;
    let deployments = browser.find(".timeline__day").await?.text().await?;
    assert!(
        !deployments.contains("Updated application"),
        "{deployments}"
    );

    // A deployment leads to its steps and log.
    browser
        .click_text(".timeline__what a", "web deployed")
        .await?;
    browser
        .wait_for_path(|path| path.ends_with(&format!("/service/{web}/deployments")))
        .await?;

    // The environment tells its services' story; the organization tells everything, each
    // change leading to the audit log.
    browser.open(&place.tab("timeline")).await?;
    browser
        .wait_for_text(".timeline__day", "web deployed")
        .await?;
    browser
        .open(&format!("/organization/{}/timeline", place.organization))
        .await?;
    browser
        .wait_for_text(".timeline__day", "Updated application web")
        .await?;
    for width in [375, 1280] {
        browser.set_width(width).await?;
        assert_eq!(
            browser.axe_violations().await?,
            Vec::<String>::new(),
            "at {width} px"
        );
    }
    browser
        .click_text(".timeline__what a", "Updated application web")
        .await?;
    browser
        .wait_for_path(|path| path.ends_with("/audit-log"))
        .await?;
    browser.wait_for_text("main", "web").await?;
    browser.close().await
}
