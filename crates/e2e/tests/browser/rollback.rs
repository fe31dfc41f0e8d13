//! Rolling back from the history: a service deployed at two commits is rolled back to the first
//! from its Deployments tab; the dialog turns auto-deploy off; the commit deployed is the first
//! one again and the new entry says it is a rollback. The history names commits by their message
//! and author, and filters.

use e2e::{Browser, Repository};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_service_is_rolled_back_to_an_earlier_commit_from_its_history() -> anyhow::Result<()> {
    let repository = Repository::with(&[
        ("Add the shop front", &[("index.html", "<h1>Shop</h1>")]),
        ("Show the cart", &[("index.html", "<h1>Shop</h1><cart/>")]),
    ])?;
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let web = browser
        .create_application_from(
            &place.environment,
            &repository,
            json!({"name": "web", "auto_deploy": true}),
        )
        .await?;
    let commits = browser
        .api("GET", &format!("/application/{web}/commit"), json!(null))
        .await?;
    let front = commits["results"][1]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();
    let cart = commits["results"][0]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();
    for body in [json!({"git_commit_id": front}), json!({})] {
        browser
            .api("POST", &format!("/application/{web}/deploy"), body)
            .await?;
        let status = format!("/application/{web}/status");
        while browser.api("GET", &status, json!(null)).await?["state"] != "DEPLOYED" {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    let history = browser
        .api(
            "GET",
            &format!("/application/{web}/deploymentHistoryV2"),
            json!(null),
        )
        .await?;
    let earlier = history["results"][1]["identifier"]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();

    browser.sign_in().await?;
    browser
        .open(&place.service_tab(&web, "deployments"))
        .await?;
    let listed = browser
        .wait_for_text(".table", "Add the shop front — Platform demo")
        .await?;
    assert!(listed.contains("Show the cart"), "{listed}");
    assert!(listed.contains("Running now"), "{listed}");
    // The deployment that runs now offers no rollback; the earlier one does.
    let running = format!(
        "tbody[data-execution='{}'] .table__actions",
        history["results"][0]["identifier"]["execution_id"]
            .as_str()
            .unwrap()
    );
    assert!(!browser
        .find(&running)
        .await?
        .text()
        .await?
        .contains("Roll back"));
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");

    browser
        .click_text(
            &format!("tbody[data-execution='{earlier}'] .table__actions button"),
            "Roll back",
        )
        .await?;
    let dialog = browser
        .wait_for_text("dialog.confirm[open]", "Turn auto-deploy off")
        .await?;
    assert!(
        dialog.contains(&format!("Roll back to {}?", &front[..8])),
        "{dialog}"
    );
    browser.screenshot("rollback-dialog").await?;
    browser
        .click("dialog.confirm[open] .button--primary")
        .await?;

    let top = browser
        .wait_for_text(".table tbody:first-of-type", "rollback to")
        .await?;
    assert!(top.contains(&earlier[..8]), "{top}");
    assert!(top.contains("Add the shop front"), "{top}");
    // Once it has run, it is what runs now.
    browser
        .wait_for_text(".table tbody:first-of-type", "Running now")
        .await?;
    let record = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(record["auto_deploy"], false);
    assert_eq!(
        record["git_repository"]["deployed_commit_id"],
        front.as_str()
    );

    // Filtered to the commit of the cart: its one deployment.
    browser
        .fill("#history-field-git_commit_id", &cart[..10])
        .await?;
    browser.click("form.filters button[type=submit]").await?;
    browser
        .wait_until_gone(&format!("tbody[data-execution='{earlier}']"))
        .await?;
    let filtered = browser.find(".table").await?.text().await?;
    assert!(filtered.contains("Show the cart"), "{filtered}");
    assert!(!filtered.contains("Add the shop front"), "{filtered}");

    browser.set_width(375).await?;
    let overflow = browser.overflow().await?;
    assert!(overflow.is_empty(), "{overflow:?}");
    browser.screenshot("service-deployments-375").await?;
    browser.close().await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_environment_is_rolled_back_to_an_earlier_deployment_from_its_page() -> anyhow::Result<()>
{
    let repository = Repository::with(&[
        ("Add the shop front", &[("index.html", "<h1>Shop</h1>")]),
        ("Show the cart", &[("index.html", "<h1>Shop</h1><cart/>")]),
    ])?;
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create_application_from(
            &place.environment,
            &repository,
            json!({"name": "web", "auto_deploy": true}),
        )
        .await?;
    let organization = browser.organization_id().await?;
    let registry = browser
        .create(
            &format!("/organization/{organization}/containerRegistry"),
            json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example"}),
        )
        .await?;
    let nginx = browser
        .create(
            &format!("/environment/{}/container", place.environment),
            json!({"name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27"}),
        )
        .await?;
    let commits = browser
        .api("GET", &format!("/application/{web}/commit"), json!(null))
        .await?;
    let front = commits["results"][1]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();
    // Two deployments of both services, through the environment's call on selected services.
    for (commit, tag) in [(front.as_str(), "1.27"), ("", "1.28")] {
        let mut application = json!({"application_id": web});
        if !commit.is_empty() {
            application["git_commit_id"] = json!(commit);
        }
        browser
            .api(
                "POST",
                &format!("/environment/{}/service/deploy", place.environment),
                json!({"applications": [application], "containers": [{"id": nginx, "image_tag": tag}]}),
            )
            .await?;
        let statuses = format!("/environment/{}/statuses", place.environment);
        // Settled once no service of it is in a queued or running state.
        loop {
            let body = browser.api("GET", &statuses, json!(null)).await?;
            let busy = ["applications", "containers"].iter().any(|kind| {
                body[kind].as_array().is_some_and(|all| {
                    all.iter().any(|status| {
                        let state = status["state"].as_str().unwrap_or_default();
                        state.ends_with("QUEUED") || state.ends_with("ING")
                    })
                })
            });
            if !busy {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    let history = browser
        .api(
            "GET",
            &format!("/environment/{}/deploymentHistoryV2", place.environment),
            json!(null),
        )
        .await?;
    let earlier = history["results"][1]["identifier"]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();

    browser.sign_in().await?;
    browser.open(&place.tab("deployments")).await?;
    let listed = browser
        .wait_for_text(
            &format!("tr[data-execution='{earlier}']"),
            "library/nginx:1.27",
        )
        .await?;
    assert!(listed.contains(&front[..7]), "{listed}");
    let roll_back = format!("tr[data-execution='{earlier}'] .table__actions button");
    // What turns auto-deploy off is fetched with the review's code when first asked for: when
    // that code cannot be fetched, the person is told, and nothing is rolled back.
    browser.block_urls(&["*split_review*"]).await?;
    browser.click(&roll_back).await?;
    browser
        .wait_for_text("dialog.confirm[open]", "Roll back to this deployment?")
        .await?;
    browser
        .click("dialog.confirm[open] .button--primary")
        .await?;
    browser
        .wait_for_text(".toast--error", "nothing was rolled back")
        .await?;
    let deployments = browser
        .api(
            "GET",
            &format!("/environment/{}/deploymentHistoryV2", place.environment),
            json!(null),
        )
        .await?;
    assert_eq!(deployments["results"], history["results"]);
    let application = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(application["auto_deploy"], true);
    browser.click(".toast--error .toast__close").await?;
    browser.block_urls(&[]).await?;

    browser.click(&roll_back).await?;
    browser
        .wait_for_text("dialog.confirm[open]", "Roll back to this deployment?")
        .await?;
    browser
        .click("dialog.confirm[open] .button--primary")
        .await?;
    // The rollback is the newest deployment, and once done it is what runs.
    browser
        .wait_for_text(
            "#environment-deployments-title + table tbody tr:first-child",
            "rollback",
        )
        .await?;
    browser
        .wait_for_text(
            "#environment-deployments-title + table tbody tr:first-child",
            "Running now",
        )
        .await?;
    let container = browser
        .api("GET", &format!("/container/{nginx}"), json!(null))
        .await?;
    assert_eq!(container["tag"], "1.27");
    let application = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(
        application["git_repository"]["deployed_commit_id"],
        front.as_str()
    );
    // The next push would have undone the rollback: the dialog turned auto-deploy off.
    assert_eq!(application["auto_deploy"], false);
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("environment-deployments").await?;
    browser.close().await
}
