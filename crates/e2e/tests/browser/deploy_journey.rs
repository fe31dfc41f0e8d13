//! A newcomer's first deployment, in a real browser: sign in with the printed token, create a
//! project, an environment and an application, deploy it, and watch the timeline finish.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_create_and_deploy_until_deployed() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;

    // A wrong token is refused with a message, and nothing is kept.
    browser.open("/sign-in").await?;
    browser
        .fill("#field-base_url", &browser.url("/api"))
        .await?;
    browser.fill("#field-token", "pt_wrong").await?;
    browser.click("button[type=submit]").await?;
    browser
        .wait_for_text("[role=alert]", "refused this token")
        .await?;

    browser.sign_in().await?;
    browser.wait_for_text("main h1", "Projects").await?;
    browser.wait_for_text(".empty", "No project yet").await?;

    // Rules of platform-api are checked before sending.
    browser.open_new("New project").await?;
    browser
        .click("form[aria-label='Create a project'] button")
        .await?;
    browser
        .wait_for_text(".field__error", "is required")
        .await?;

    browser.fill("#field-name", "shop").await?;
    browser
        .click("form[aria-label='Create a project'] button")
        .await?;
    browser.wait_for_text(".table", "shop").await?;
    browser.screenshot("organization-overview").await?;
    browser.click(".table a").await?;

    browser.wait_for_text("main h1", "Environments").await?;
    browser.open_new("New environment").await?;
    browser.fill("#field-name", "staging").await?;
    browser
        .click("form[aria-label='Create an environment'] button")
        .await?;
    browser.wait_for_text(".table", "staging").await?;
    browser.click(".table a").await?;

    browser
        .wait_for_text("main h2", "Services of this environment")
        .await?;
    browser.open_new("New service").await?;
    browser
        .find("form[aria-label='Create an application']")
        .await?;
    browser.fill("#field-name", "web").await?;
    browser
        .fill(
            "[id='field-git_repository-url']",
            "https://git.example.com/acme/web.git",
        )
        .await?;
    browser.click_text("button", "Add a port").await?;
    browser
        .fill("[id='field-ports-0--internal_port']", "8080")
        .await?;
    browser
        .click("form[aria-label='Create an application'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("tr[data-service=web]", "Not deployed")
        .await?;
    browser.wait_for_text(".breadcrumbs", "shop").await?;
    browser.screenshot("environment-overview").await?;
    browser.click("tr[data-service=web] a").await?;

    browser.wait_for_text("main h1", "web").await?;
    browser
        .wait_for_text(".timeline", "No deployment yet")
        .await?;
    browser.click_button("Deploy").await?;
    // The badge moves through the in-progress states and the timeline fills in step by step.
    browser.wait_for_text(".timeline", "in progress").await?;
    browser.screenshot("service-deploying").await?;
    browser.wait_for_text("[data-state]", "Deployed").await?;
    let timeline = browser
        .wait_for_text(".timeline", "Router deployment")
        .await?;
    for step in [
        "Registry create repository",
        "Git clone",
        "Build queueing",
        "Build",
        "Deployment queueing",
        "Deployment",
    ] {
        assert!(timeline.contains(step), "{step} missing from {timeline}");
    }
    assert!(!timeline.contains("in progress"), "{timeline}");
    assert!(timeline.contains("Total"), "{timeline}");
    browser.wait_for_text(".facts", "Up to date").await?;
    browser.screenshot("service-deployed").await?;

    // A deep link survives a reload, and the breadcrumbs name the whole hierarchy.
    browser.client.refresh().await?;
    let crumbs = browser.wait_for_text(".breadcrumbs", "web").await?;
    for name in ["My organization", "shop", "staging"] {
        assert!(crumbs.contains(name), "{crumbs}");
    }
    browser.close().await
}
