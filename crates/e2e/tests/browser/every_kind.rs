//! Services of every kind in the console: listed with their kind and live status on the
//! environment page, each opening on its own page with its settings, deployed, restarted, stopped,
//! canceled and uninstalled there; terraform also plans without applying.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn every_kind_is_listed_opened_and_deployed() -> anyhow::Result<()> {
    // Slow enough that a deployment is still running when Cancel is clicked (a database takes
    // about 2.8 s at this speed).
    let browser = Browser::start(10.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let organization = &place.organization;
    let registry = browser
        .create(
            &format!("/organization/{organization}/containerRegistry"),
            json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example",
                   "config": {"username": "robot", "password": "registry-password"}}),
        )
        .await?;
    let git = json!({"url": "https://git.example.com/acme/shop.git", "branch": "main"});
    let mut ids = std::collections::HashMap::new();
    for (kind, body) in [
        ("application", json!({"name": "web", "git_repository": git})),
        (
            "container",
            json!({"name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27"}),
        ),
        (
            "database",
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        ),
        (
            "job",
            json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                   "source": {"docker": {"git_repository": git}}}),
        ),
        (
            "helm",
            json!({"name": "redis", "source": {"git": {"git_repository": git, "chart_path": "/charts/redis"}}}),
        ),
        (
            "terraform",
            json!({"name": "cdn", "engine": "TERRAFORM", "backend": {"kubernetes": {}},
                   "terraform_files_source": {"git": {"git_repository": git}}}),
        ),
    ] {
        let created = browser
            .create(&format!("/environment/{}/{kind}", place.environment), body)
            .await?;
        ids.insert(kind, created);
    }

    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    for (name, kind) in [
        ("web", "Application"),
        ("nginx", "Container"),
        ("orders", "Database"),
        ("backup", "Job"),
        ("redis", "Helm chart"),
        ("cdn", "Terraform"),
    ] {
        let row = browser
            .wait_for_text(&format!("tr[data-service={name}]"), kind)
            .await?;
        assert!(row.contains("Not deployed"), "{name}: {row}");
    }
    browser.screenshot("environment-every-kind").await?;

    // A database opens on its own page, with its settings, and deploys there.
    browser.click("tr[data-service=orders] a").await?;
    browser.wait_for_text("main h1", "orders").await?;
    browser.wait_for_text(".page__lead", "Database").await?;
    browser.wait_for_text(".facts", "PostgreSQL 16").await?;
    browser.wait_for_text(".breadcrumbs", "orders").await?;
    // A database holds no variables: no tab leads there.
    let tabs = browser.wait_for_text("nav.tabs", "Settings").await?;
    assert!(!tabs.contains("Variables"), "{tabs}");
    browser.click_button("Deploy").await?;
    browser.wait_for_text("[data-state]", "Deployed").await?;
    let timeline = browser
        .wait_for_text(".timeline", "Deployment queueing")
        .await?;
    assert!(
        !timeline.contains("Build"),
        "a database builds nothing: {timeline}"
    );
    browser.wait_for_text(".log", "Deployed.").await?;

    // Then restarted, stopped, deployed and canceled mid-way, and uninstalled.
    browser.click_button("Restart").await?;
    browser.wait_for_text("[data-state]", "Restarted").await?;
    browser.click_button("Stop").await?;
    browser.wait_for_text("[data-state]", "Stopped").await?;
    browser.click_button("Deploy").await?;
    // A running action is canceled with its environment's deployment, as the platform does.
    browser.click_button("Cancel deployment").await?;
    browser.accept_confirmation().await?;
    browser.wait_for_text("[data-state]", "Canceled").await?;
    browser.wait_for_text(".timeline", "cancel").await?;
    // Uninstall asks first: Cancel leaves the database alone (the history below has no second
    // uninstall), then it is confirmed.
    browser.click_button("Uninstall").await?;
    browser
        .wait_for_text("dialog.confirm[open]", "configuration is kept")
        .await?;
    browser.screenshot("uninstall-confirmation").await?;
    browser.dismiss_confirmation().await?;
    browser.click_button("Uninstall").await?;
    browser.accept_confirmation().await?;
    browser.wait_for_text("[data-state]", "Deleted").await?;
    browser.wait_for_text(".facts", "Never deployed").await?;
    browser.screenshot("database-uninstalled").await?;

    // Its deployments page lists every action, newest first, each with its log on demand.
    browser.click(".tabs a[href$='/deployments']").await?;
    browser
        .wait_for_path(|path| path.ends_with("/deployments"))
        .await?;
    let history = browser.wait_for_text(".table", "Uninstall").await?;
    let actions: Vec<&str> = ["Uninstall", "Deploy", "Stop", "Restart"]
        .into_iter()
        .filter(|action| history.contains(action))
        .collect();
    assert_eq!(actions.len(), 4, "{history}");
    for state in ["Deleted", "Canceled", "Stopped", "Restarted", "Deployed"] {
        assert!(history.contains(state), "{state} missing from {history}");
    }
    assert_eq!(
        browser
            .client
            .find_all(fantoccini::Locator::Css(".table tbody"))
            .await?
            .len(),
        5
    );
    browser
        .click_text(".table tbody:nth-of-type(2) button", "Log")
        .await?;
    browser
        .wait_for_text(".table__detail .log", "Canceled.")
        .await?;
    browser.screenshot("database-deployments").await?;

    // Terraform plans without applying: the plan's steps, and still never deployed.
    browser.open(&place.service_page(&ids["terraform"])).await?;
    browser.wait_for_text(".page__lead", "Terraform").await?;
    browser.wait_for_text(".facts", "Kubernetes").await?;
    browser.click_button("Plan only").await?;
    browser.wait_for_text(".log", "Planned").await?;
    browser
        .wait_for_text("[data-state]", "Not deployed")
        .await?;
    let timeline = browser.wait_for_text(".timeline", "Git clone").await?;
    assert!(timeline.contains("Build"), "{timeline}");
    assert!(
        !timeline.contains("Deployment queueing"),
        "a plan applies nothing: {timeline}"
    );
    browser.wait_for_text(".facts", "Never deployed").await?;
    browser.screenshot("terraform-planned").await?;

    // Back on the environment page, the statuses show what happened.
    browser.open(&place.page()).await?;
    browser
        .wait_for_text("tr[data-service=orders]", "Deleted")
        .await?;
    browser.close().await
}
