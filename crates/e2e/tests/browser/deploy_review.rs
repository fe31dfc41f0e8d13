//! Deploying knowing what changes: before a deploy, the review lists the commits between the
//! running commit and the branch's tip, a changed setting with its values, and the variables
//! added (a secret without its value); a rollback's review says it goes back; a history row says
//! what its deployment changed; an environment's review of its out-of-date services lists those
//! only. Each dialog passes axe and fits 375 px.

use e2e::{Browser, Repository};
use serde_json::{json, Value};

async fn settle(browser: &Browser, service: &str) -> anyhow::Result<()> {
    let status = format!("/application/{service}/status");
    loop {
        let now = browser.api("GET", &status, json!(null)).await?;
        if now["state"] == "DEPLOYED" && now["status_details"]["status"] == "SUCCESS" {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

fn commit_id(commits: &Value, at: usize) -> String {
    commits["results"][at]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deploy_is_reviewed_then_run_and_a_history_row_says_what_changed() -> anyhow::Result<()> {
    let repository = Repository::with(&[
        ("Add the shop front", &[("index.html", "<h1>Shop</h1>")]),
        ("Show the cart", &[("index.html", "<h1>Shop</h1><cart/>")]),
        ("Faster checkout", &[("checkout.js", "go()")]),
    ])?;
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application_from(&place.environment, &repository, json!({"name": "web"}))
        .await?;
    let api = browser
        .create_application_from(&place.environment, &repository, json!({"name": "api"}))
        .await?;
    let commits = browser
        .api("GET", &format!("/application/{web}/commit"), json!(null))
        .await?;
    let (tip, first) = (commit_id(&commits, 0), commit_id(&commits, 2));
    for (service, body) in [(&web, json!({"git_commit_id": first})), (&api, json!({}))] {
        browser
            .api("POST", &format!("/application/{service}/deploy"), body)
            .await?;
        settle(&browser, service).await?;
    }
    // Since web's deployment: more memory, a secret for the environment, a variable of its own.
    browser
        .api(
            "PUT",
            &format!("/application/{web}"),
            json!({"name": "web", "memory": 1024, "git_repository": repository.git()}),
        )
        .await?;
    browser
        .api(
            "POST",
            &format!("/application/{web}/environmentVariable"),
            json!({"key": "CHECKOUT_MODE", "value": "fast"}),
        )
        .await?;

    browser.sign_in().await?;
    browser.review_deploys().await?;

    // The environment: web out of date, api not; its review lists web only.
    browser.open(&place.page()).await?;
    browser.click_button("Deploy the 1 out of date").await?;
    let review = browser
        .wait_for_text("dialog.deploy-review[open]", "1 service, 1 out of date")
        .await?;
    assert!(review.contains("web — out of date"), "{review}");
    assert!(!review.contains("api —"), "{review}");
    browser
        .click("dialog.deploy-review[open] details summary")
        .await?;
    browser
        .wait_for_text("dialog.deploy-review[open] details", "2 commits ahead")
        .await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("environment-review").await?;
    browser
        .click("dialog.deploy-review[open] .confirm__actions .button--secondary")
        .await?;

    browser
        .api(
            "POST",
            &format!("/environment/{}/secret", place.environment),
            json!({"key": "PAYMENT_TOKEN", "value": "never-shown-4242"}),
        )
        .await?;
    browser.open(&place.service_page(&web)).await?;
    browser.click_button("Deploy").await?;
    let review = browser
        .wait_for_text("dialog.deploy-review[open]", "2 commits ahead")
        .await?;
    assert!(review.contains("Faster checkout"), "{review}");
    assert!(review.contains("Show the cart"), "{review}");
    assert!(
        !review.contains("Add the shop front"),
        "the running commit is not ahead: {review}"
    );
    let memory = browser
        .wait_for_text(
            "dialog.deploy-review[open] tr[data-setting='memory']",
            "1024",
        )
        .await?;
    assert!(memory.contains("512"), "{memory}");
    let secret = browser
        .wait_for_text(
            "dialog.deploy-review[open] li[data-variable='PAYMENT_TOKEN']",
            "added",
        )
        .await?;
    assert!(secret.contains("secret, environment"), "{secret}");
    let dialog = browser
        .find("dialog.deploy-review[open]")
        .await?
        .text()
        .await?;
    assert!(
        !dialog.contains("never-shown-4242"),
        "a secret's value: {dialog}"
    );
    let variable = browser
        .find("dialog.deploy-review[open] li[data-variable='CHECKOUT_MODE']")
        .await?
        .text()
        .await?;
    assert!(variable.contains("fast"), "{variable}");
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("deploy-review").await?;
    browser.set_width(375).await?;
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("deploy-review-375").await?;
    browser.set_width(1280).await?;

    browser
        .click("dialog.deploy-review[open] .confirm__actions .button--primary")
        .await?;
    browser.wait_for_text(".toast--success", "Deploy").await?;
    settle(&browser, &web).await?;
    let record = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(record["git_repository"]["deployed_commit_id"], tip.as_str());

    // The history: the new deployment against the one before; the earlier one's rollback goes back.
    browser
        .open(&place.service_tab(&web, "deployments"))
        .await?;
    browser.wait_for_text(".table", "Running now").await?;
    browser
        .click_text(".table tbody:first-of-type button", "What changed")
        .await?;
    browser
        .wait_for_text(
            ".table tbody:first-of-type .table__detail",
            "2 commits ahead",
        )
        .await?;
    // The variables' part is read apart from the commits' and may show after them.
    browser
        .wait_for_text(".table tbody:first-of-type .table__detail", "CHECKOUT_MODE")
        .await?;
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("what-changed").await?;
    browser
        .click_text(".table tbody:last-of-type button", "Roll back")
        .await?;
    let rollback = browser
        .wait_for_text("dialog.confirm[open]", "Goes back 2 commits")
        .await?;
    assert!(rollback.contains("Faster checkout"), "{rollback}");
    browser.dismiss_confirmation().await?;

    // Two deployments ticked: the earlier against the later.
    for row in ["last", "first"] {
        browser
            .click(&format!(".table tbody:{row}-of-type .compare-pick input"))
            .await?;
    }
    browser
        .wait_for_text("section.compare", "2 commits ahead")
        .await?;
    // The settings' difference is drawn once the two deployments' settings are read.
    browser.wait_for_text("section.compare", "memory").await?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread")]
async fn two_environments_are_compared_side_by_side_from_a_shareable_address() -> anyhow::Result<()>
{
    let browser = Browser::start(20.0).await?;
    let production = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let staging = browser
        .create(
            &format!("/project/{}/environment", production.project),
            json!({"name": "staging", "mode": "STAGING"}),
        )
        .await?;
    for (environment, memory) in [(&production.environment, 1024), (&staging, 512)] {
        let web = browser
            .create(
                &format!("/environment/{environment}/application"),
                json!({"name": "web", "memory": memory,
                       "git_repository": {"url": "https://git.example.com/shop/web.git"}}),
            )
            .await?;
        for (kind, key, value) in [
            (
                "environmentVariable",
                "MODE",
                if memory == 1024 { "live" } else { "test" },
            ),
            ("environmentVariable", "REGION", "eu"),
            (
                "secret",
                "PAYMENT_TOKEN",
                if memory == 1024 {
                    "live-secret-1"
                } else {
                    "test-secret-2"
                },
            ),
        ] {
            browser
                .api(
                    "POST",
                    &format!("/application/{web}/{kind}"),
                    json!({"key": key, "value": value}),
                )
                .await?;
        }
    }
    browser.create_application(&staging, "worker").await?;

    browser.sign_in().await?;
    browser.open(&production.page()).await?;
    browser.choose("#compare-with", &staging).await?;
    let listed = browser
        .wait_for_text("section.environment-compare", "Compared with staging")
        .await?;
    assert!(listed.contains("worker — only in staging"), "{listed}");
    assert!(browser
        .query()
        .await?
        .contains(&format!("compare={staging}")));
    // The address is the comparison: opened anew, it shows it again.
    browser
        .open(&format!("{}?compare={staging}", production.page()))
        .await?;
    browser.click("li[data-compared='web'] summary").await?;
    let memory = browser
        .wait_for_text(
            "li[data-compared='web'] tr.differs[data-setting='memory']",
            "1024",
        )
        .await?;
    assert!(memory.contains("512"), "{memory}");
    let mode = browser
        .find("li[data-compared='web'] tr[data-variable='MODE']")
        .await?
        .text()
        .await?;
    assert!(mode.contains("differs"), "{mode}");
    let region = browser
        .find("li[data-compared='web'] tr[data-variable='REGION']")
        .await?
        .text()
        .await?;
    assert!(!region.contains("differs"), "{region}");
    let secret = browser
        .find("li[data-compared='web'] tr[data-variable='PAYMENT_TOKEN']")
        .await?
        .text()
        .await?;
    assert!(
        secret.contains("secret, set") && !secret.contains("differs"),
        "{secret}"
    );
    let page = browser.find("main").await?.text().await?;
    assert!(
        !page.contains("live-secret-1") && !page.contains("test-secret-2"),
        "{page}"
    );
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("environments-compared").await?;
    browser.set_width(375).await?;
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("environments-compared-375").await?;
    browser.close().await
}
