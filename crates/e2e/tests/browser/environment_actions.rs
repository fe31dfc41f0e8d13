//! The environment-wide actions on the environment page: every service deployed, then the
//! running ones restarted, then stopped after a confirmation, then uninstalled after another,
//! each row following live.

use e2e::Browser;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn an_environment_is_deployed_restarted_stopped_and_uninstalled_as_a_whole(
) -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "production", "PRODUCTION")
        .await?;
    let git = json!({"url": "https://git.example.com/acme/shop.git"});
    for name in ["web", "api"] {
        browser
            .create(
                &format!("/environment/{}/application", place.environment),
                json!({"name": name, "git_repository": git}),
            )
            .await?;
    }
    browser
        .create(
            &format!("/environment/{}/database", place.environment),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.page()).await?;
    browser
        .wait_for_text("tr[data-service=orders]", "Not deployed")
        .await?;
    // Nothing runs yet: only Deploy all is offered.
    let actions = browser
        .wait_for_text(".page__header .actions", "Deploy all")
        .await?;
    assert!(!actions.contains("Restart all"), "{actions}");

    browser.click_button("Deploy all").await?;
    for name in ["web", "api", "orders"] {
        browser
            .wait_for_text(&format!("tr[data-service={name}]"), "Deployed")
            .await?;
    }
    browser.screenshot("environment-deployed").await?;

    browser.click_button("Restart all").await?;
    for name in ["web", "api", "orders"] {
        browser
            .wait_for_text(&format!("tr[data-service={name}]"), "Restarted")
            .await?;
    }

    browser.click_button("Stop all").await?;
    browser
        .wait_for_text(
            "dialog.confirm[open]",
            "Stop every service of this environment?",
        )
        .await?;
    // Focus starts on the harmless choice: Enter or Space cancels.
    let focused = browser
        .client
        .execute(
            "const at = document.activeElement;
             return at.closest('dialog.confirm[open]') ? at.textContent.trim() : at.outerHTML",
            vec![],
        )
        .await?;
    assert_eq!(focused, json!("Cancel"));
    browser.accept_confirmation().await?;
    for name in ["web", "api", "orders"] {
        browser
            .wait_for_text(&format!("tr[data-service={name}]"), "Stopped")
            .await?;
    }
    // Nothing runs any more: restart and stop are gone, deploy is offered again.
    let actions = browser
        .wait_for_text(".page__header .actions", "Deploy all")
        .await?;
    assert!(!actions.contains("Restart all"), "{actions}");
    let deploy = browser.action_button("Deploy all").await?;
    assert!(deploy.is_enabled().await?);

    // The server ran each action on each service: three actions in every history.
    let applications = browser
        .api(
            "GET",
            &format!("/environment/{}/application", place.environment),
            json!(null),
        )
        .await?;
    for application in applications["results"].as_array().unwrap() {
        let history = browser
            .api(
                "GET",
                &format!(
                    "/application/{}/deploymentHistoryV2",
                    application["id"].as_str().unwrap()
                ),
                json!(null),
            )
            .await?;
        assert_eq!(history["results"].as_array().unwrap().len(), 3, "{history}");
    }
    browser.screenshot("environment-stopped").await?;

    // Uninstalled (`POST /environment/{id}/uninstall`): compute and data deleted, the services
    // and their configuration kept, and nothing left installed to uninstall.
    browser.click_button("Uninstall all").await?;
    browser
        .wait_for_text(
            "dialog.confirm[open]",
            "configuration and variables are kept",
        )
        .await?;
    browser.accept_confirmation().await?;
    for name in ["web", "api", "orders"] {
        browser
            .wait_for_text(&format!("tr[data-service={name}]"), "Deleted")
            .await?;
    }
    let actions = browser
        .wait_for_text(".page__header .actions", "Deploy all")
        .await?;
    assert!(!actions.contains("Uninstall all"), "{actions}");
    browser.close().await
}
