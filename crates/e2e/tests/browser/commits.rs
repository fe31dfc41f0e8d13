//! Deploying a chosen commit: the branch's commits read from a real repository on disk (and its
//! contributors, their authors, on the overview), listed newest first with their tag in a dialog, one deployed and then marked; a repository the
//! server cannot reach says so.

use e2e::{Browser, Repository};
use platform_server::git;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_chosen_commit_is_deployed_from_the_list() -> anyhow::Result<()> {
    let repository = Repository::with(&[
        ("Add the shop front", &[("index.html", "<h1>Shop</h1>")]),
        ("Show the cart", &[("index.html", "<h1>Shop</h1><cart/>")]),
        (
            "Faster checkout\n\nThe body of the message.",
            &[("checkout.js", "go()")],
        ),
    ])?;
    git::tag(repository.path(), "v1.1")?;

    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application_from(&place.environment, &repository, json!({"name": "web"}))
        .await?;
    let remote = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "api", "git_repository": {"url": "https://git.example.com/acme/api.git"}}),
        )
        .await?;
    let commits = browser
        .api("GET", &format!("/application/{web}/commit"), json!(null))
        .await?;
    let cart = commits["results"][1]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();

    browser.sign_in().await?;
    browser.open(&place.service_page(&web)).await?;
    // Who committed, read from the same repository.
    browser
        .wait_for_text("[aria-labelledby=contributors-title] li", "Platform demo")
        .await?;
    browser.click_button("Deploy a commit…").await?;
    let listed = browser
        .wait_for_text("dialog[open] .commits", "Add the shop front")
        .await?;
    let order: Vec<usize> = ["Faster checkout", "Show the cart", "Add the shop front"]
        .iter()
        .map(|subject| listed.find(subject).unwrap())
        .collect();
    assert!(order.windows(2).all(|pair| pair[0] < pair[1]), "{listed}");
    assert!(listed.contains("v1.1"), "the tag: {listed}");
    assert!(!listed.contains("The body of the message"), "{listed}");
    browser.screenshot("commit-picker").await?;

    browser
        .click(&format!("li[data-commit='{cart}'] button"))
        .await?;
    browser.wait_for_text("[data-state]", "Deployed").await?;
    browser.wait_for_text(".facts", &cart).await?;
    // The deployment is recorded at that commit, and the list marks it.
    let history = browser
        .api(
            "GET",
            &format!("/application/{web}/deploymentHistoryV2"),
            json!(null),
        )
        .await?;
    assert_eq!(
        history["results"][0]["details"]["commit"]["git_commit_id"],
        cart.as_str()
    );
    browser.click_button("Deploy a commit…").await?;
    let deployed = browser
        .wait_for_text(
            &format!("dialog[open] li[data-commit='{cart}']"),
            "Deployed",
        )
        .await?;
    assert!(!deployed.contains("Deploy\n"), "{deployed}");

    // A repository this server cannot read gives its reason instead of a list, on the
    // overview's contributors as a note, not an error to retry.
    browser.open(&place.service_page(&remote)).await?;
    browser
        .wait_for_text(
            "[aria-labelledby=contributors-title] p.muted",
            "cannot reach the repository",
        )
        .await?;
    browser.click_button("Deploy a commit…").await?;
    browser
        .wait_for_text("dialog[open]", "cannot reach the repository")
        .await?;
    browser.close().await
}
