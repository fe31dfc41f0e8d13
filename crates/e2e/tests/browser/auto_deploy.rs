//! Auto-deploy as a team sees it: a service built from a readable repository says it watches
//! its branch; a restriction added in its settings previews which of the latest commits would
//! deploy; a push then shows up on its page, deployed, without a reload.

use e2e::{Browser, Repository};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_push_arrives_on_the_service_page_and_deploys_it() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let repository = Repository::with(&[
        ("web: first page", &[("web/index.html", "1")]),
        ("docs: how to run", &[("docs/run.md", "1")]),
    ])?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let application = browser
        .create_application_from(
            &place.environment,
            &repository,
            json!({
                "name": "storefront",
                "auto_deploy": true,
            }),
        )
        .await?;
    browser.sign_in().await?;

    // Settings: pushes that change only the docs do not deploy.
    browser
        .open(&place.service_tab(&application, "settings"))
        .await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=restrictions-title]",
            "None: every push deploys",
        )
        .await?;
    browser.open_new("Add a restriction").await?;
    browser
        .choose(
            "form[aria-label='Add a restriction'] select[name=mode]",
            "EXCLUDE",
        )
        .await?;
    browser.fill("#field-value", "/docs").await?;
    browser
        .click("form[aria-label='Add a restriction'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-value-error", "must not start with /")
        .await?;
    browser.fill("#field-value", "docs/").await?;
    browser
        .click("form[aria-label='Add a restriction'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("ul[aria-label=Restrictions]", "docs/")
        .await?;
    let preview = browser
        .wait_for_text("ul[aria-label='Latest commits']", "Would skip")
        .await?;
    assert!(
        preview.contains("every changed path is excluded (docs/)"),
        "{preview}"
    );
    assert!(preview.contains("Would deploy"), "{preview}");
    browser.screenshot("deployment-restrictions").await?;

    // The overview, reached by its tab: the watch of the branch.
    browser.click_text("nav.tabs a", "Overview").await?;
    browser
        .wait_for_text("section[aria-labelledby=auto-deploy-title]", "Watching")
        .await?;
    browser
        .wait_for_text(
            "section[aria-labelledby=auto-deploy-title]",
            "docs: how to run",
        )
        .await?;
    // The git webhook the platform keeps for it (here, the watch), set right on request.
    let card = browser
        .wait_for_text("section[aria-labelledby=auto-deploy-title]", "Sync webhook")
        .await?;
    assert!(card.contains("Git webhook:\nActive"), "{card}");
    browser
        .click_text(
            "section[aria-labelledby=auto-deploy-title] button",
            "Sync webhook",
        )
        .await?;
    browser
        .wait_for_text(".toast--success", "Webhook synchronized.")
        .await?;
    // A mark that a reload would wipe.
    browser
        .client
        .execute("window.stillTheSamePage = true", vec![])
        .await?;

    platform_server::git::commit(
        repository.path(),
        "web: new header",
        &[("web/index.html", "2")],
    )?;
    let pushes = browser
        .wait_for_text("ul[aria-label=Pushes]", "web: new header")
        .await?;
    assert!(pushes.contains("Deployed"), "{pushes}");
    assert!(pushes.contains("Platform demo"), "{pushes}");
    browser
        .wait_for_text("section[aria-labelledby=status-title]", "Deployed")
        .await?;
    // The settings name the commit deployed.
    let folder = repository.path();
    let read = platform_server::git::Repositories::new(vec![folder.parent().unwrap().into()])
        .local(&folder.display().to_string())?;
    let newest = platform_server::git::commits(
        &read,
        &platform_server::git::CommitQuery {
            branch: Some("main"),
            start_after: None,
            only: None,
        },
    )?;
    let short: String = newest[0].git_commit_id.chars().take(8).collect();
    browser
        .wait_for_text("section[aria-labelledby=settings-title]", &short)
        .await?;
    let same = browser
        .client
        .execute("return window.stillTheSamePage === true", vec![])
        .await?;
    assert_eq!(same, json!(true), "the page was reloaded");
    browser.screenshot("auto-deploy").await?;

    // A push of the docs alone is skipped, and says why.
    platform_server::git::commit(repository.path(), "docs: faq", &[("docs/faq.md", "1")])?;
    let pushes = browser
        .wait_for_text("ul[aria-label=Pushes]", "docs: faq")
        .await?;
    assert!(
        pushes.contains("Skipped: every changed path is excluded (docs/)"),
        "{pushes}"
    );
    browser.close().await
}
