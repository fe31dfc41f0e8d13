//! Clusters: one added through the form (its rules checked first), listed with its version and
//! the next one available; locked (the lock refusing the upgrade) and unlocked; upgraded after a
//! confirmation, the page following the upgrade to the new version; a token fetched for kubectl;
//! deployed and stopped from its page, its log following the steps; made with the cloud's
//! features (a static IP, its network's range), shown on its page.

use e2e::Browser;

#[tokio::test(flavor = "multi_thread")]
async fn a_cluster_is_added_locked_unlocked_and_upgraded() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    browser.sign_in().await?;
    browser.click("a[href$='/clusters']").await?;
    browser.wait_for_text("main h1", "Clusters").await?;
    browser.wait_for_text(".empty", "No cluster yet").await?;

    // The rules of platform-api are checked before sending.
    browser.open_new("New cluster").await?;
    browser
        .click("form[aria-label='Add a cluster'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(".field__error", "is required")
        .await?;
    browser.fill("#field-name", "eu-prod").await?;
    // A region of a provider that lists none must at least be a region's name.
    browser
        .choose("#field-cloud_provider", "ON_PREMISE")
        .await?;
    browser.fill("#field-region", "Narnia 1!").await?;
    browser
        .click("form[aria-label='Add a cluster'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            ".field__error",
            "only lowercase letters, digits and hyphens",
        )
        .await?;
    // A listed provider's regions are a list to pick from.
    browser.choose("#field-cloud_provider", "AWS").await?;
    browser.choose("#field-region", "eu-west-3").await?;
    // Its machines: the region's instance types, and node counts under their rule.
    browser
        .choose("#field-instance_type", "t3a.2xlarge")
        .await?;
    browser.fill("#field-min_running_nodes", "4").await?;
    browser.fill("#field-max_running_nodes", "2").await?;
    browser
        .click("form[aria-label='Add a cluster'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(
            "#field-max_running_nodes-error",
            "must be at least min_running_nodes",
        )
        .await?;
    browser.fill("#field-min_running_nodes", "2").await?;
    browser.fill("#field-max_running_nodes", "5").await?;
    // The cloud's features: a static IP ticked, the network's range typed under its rule.
    browser
        .wait_for_value("#field-features-1", "10.0.0.0/16")
        .await?;
    browser.fill("#field-features-1", "8.8.0.0/16").await?;
    browser
        .click("form[aria-label='Add a cluster'] button[type=submit]")
        .await?;
    browser
        .wait_for_text("#field-features-1-error", "must be a private IPv4 range")
        .await?;
    browser.fill("#field-features-1", "10.42.0.0/16").await?;
    browser.click("#field-features-0").await?;
    browser.click("input[name=production]").await?;
    browser
        .click("form[aria-label='Add a cluster'] button[type=submit]")
        .await?;
    let row = browser
        .wait_for_text("tr[data-cluster=eu-prod]", "1.29 available")
        .await?;
    for shown in [
        "1.28",
        "Amazon Web Services · eu-west-3 · 2 to 5 nodes of t3a.2xlarge",
        "Production",
        "Ready",
    ] {
        assert!(row.contains(shown), "{shown} missing from {row}");
    }

    browser.click("tr[data-cluster=eu-prod] a").await?;
    browser.wait_for_text("main h1", "eu-prod").await?;
    browser
        .wait_for_text(
            "[data-features]",
            "Static IP: on · VPC subnet: 10.42.0.0/16",
        )
        .await?;
    browser.wait_for_text(".breadcrumbs", "Clusters").await?;
    browser.wait_for_text(".breadcrumbs", "eu-prod").await?;
    browser.action_button("Upgrade to 1.29").await?;

    // A lock: its rule first, then the lock refusing the upgrade.
    browser.fill("#field-reason", "Black Friday freeze").await?;
    browser.fill("#field-ttl_in_days", "0").await?;
    browser
        .click("form[aria-label='Lock the cluster'] button[type=submit]")
        .await?;
    browser
        .wait_for_text(".field__error", "must be from 1 to 30")
        .await?;
    browser.fill("#field-ttl_in_days", "7").await?;
    browser
        .click("form[aria-label='Lock the cluster'] button[type=submit]")
        .await?;
    let lock = browser
        .wait_for_text(".lock", "Black Friday freeze")
        .await?;
    assert!(
        lock.contains("Locked by API token console sign-in"),
        "{lock}"
    );
    assert!(lock.contains("in 7 days"), "{lock}");
    let upgrade = browser.action_button("Upgrade to 1.29").await?;
    assert!(
        !upgrade.is_enabled().await?,
        "a locked cluster can be upgraded"
    );
    assert_eq!(
        upgrade.attr("title").await?.as_deref(),
        Some("The cluster is locked; lift the lock first.")
    );
    browser.screenshot("cluster-locked").await?;

    browser.click(".lock button").await?;
    browser.find("form[aria-label='Lock the cluster']").await?;
    browser.click_button("Upgrade to 1.29").await?;
    browser
        .wait_for_text(
            "dialog.confirm[open]",
            "Upgrade the cluster to Kubernetes 1.29?",
        )
        .await?;
    browser.accept_confirmation().await?;
    browser.wait_for_text("[data-state]", "Deployed").await?;
    browser.wait_for_text("[data-version]", "1.29").await?;
    browser.action_button("Upgrade to 1.30").await?;

    // The upgrade's toast, closed so that it covers nothing below.
    browser.click(".toast--success button").await?;
    browser.click_button("Show the kubeconfig").await?;
    let kubeconfig = browser
        .wait_for_text("pre[aria-label=Kubeconfig]", "kind: Config")
        .await?;
    assert!(kubeconfig.contains("token: "), "{kubeconfig}");
    browser.click_button("Hide the kubeconfig").await?;
    browser
        .click_text("[aria-labelledby=access-title] button", "Get a token")
        .await?;
    let access = browser
        .wait_for_text("[aria-labelledby=access-title]", "Expires in 15 min")
        .await?;
    assert!(access.contains("Hide"), "{access}");
    let token = browser
        .find("[aria-labelledby=access-title] input")
        .await?
        .prop("value")
        .await?
        .unwrap_or_default();
    assert!(!token.is_empty());
    browser.screenshot("cluster-upgraded").await?;

    // A new environment runs on the cluster, chosen at first in its form.
    let organization = browser.organization_id().await?;
    let project = browser
        .create(
            &format!("/organization/{organization}/project"),
            serde_json::json!({"name": "shop"}),
        )
        .await?;
    browser
        .open(&format!(
            "/organization/{organization}/project/{project}/overview"
        ))
        .await?;
    browser.open_new("New environment").await?;
    browser
        .wait_for_text(
            "#field-cluster_id",
            "eu-prod (Amazon Web Services · eu-west-3)",
        )
        .await?;
    browser.fill("#field-name", "production").await?;
    browser
        .click("form[aria-label='Create an environment'] button[type=submit]")
        .await?;
    browser.wait_for_text("main table", "production").await?;
    browser.wait_for_text("main table", "eu-prod").await?;
    let environments = browser
        .api(
            "GET",
            &format!("/project/{project}/environment"),
            serde_json::json!(null),
        )
        .await?;
    assert!(
        environments["results"][0]["cluster_id"].is_string(),
        "{environments}"
    );
    browser.close().await
}

/// A cluster deployed from its page: the steps of its log show as they run, it ends deployed,
/// is stopped after a confirmation, and the page names the environment that runs on it.
#[tokio::test(flavor = "multi_thread")]
async fn a_cluster_is_deployed_and_stopped_from_its_page_with_its_log() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let org = browser.organization_id().await?;
    let cluster = browser
        .create(
            &format!("/organization/{org}/cluster"),
            serde_json::json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-1"}),
        )
        .await?;
    let project = browser
        .create(
            &format!("/organization/{org}/project"),
            serde_json::json!({"name": "shop"}),
        )
        .await?;
    browser
        .create(
            &format!("/project/{project}/environment"),
            serde_json::json!({"name": "edge-prod", "mode": "PRODUCTION", "cluster_id": cluster}),
        )
        .await?;
    browser.sign_in().await?;
    browser
        .open(&format!("/organization/{org}/cluster/{cluster}/overview"))
        .await?;
    browser
        .wait_for_text("tr[data-environment=edge-prod]", "shop")
        .await?;
    browser
        .wait_for_text("main", "Not deployed from here yet")
        .await?;
    browser.click_button("Deploy").await?;
    browser
        .wait_for_text(".toast", "Deployment started")
        .await?;
    // The log fills in as the steps end, and the cluster ends deployed.
    browser
        .wait_for_text("ol.cluster-log", "Cluster deployed.")
        .await?;
    browser.wait_for_text(".facts", "Deployed").await?;
    let steps = browser
        .client
        .execute(
            "return [...document.querySelectorAll('ol.cluster-log li')].map(li => li.dataset.step)",
            vec![],
        )
        .await?;
    assert_eq!(
        steps,
        serde_json::json!([
            "LoadConfiguration",
            "RetrieveClusterConfig",
            "ValidateSystemRequirements",
            "Create",
            "Created"
        ])
    );
    let violations = browser.axe_violations().await?;
    assert!(violations.is_empty(), "{violations:?}");
    browser.screenshot("cluster-deployed").await?;

    browser.click_button("Stop").await?;
    browser.accept_confirmation().await?;
    browser
        .wait_for_text("ol.cluster-log", "Cluster stopped.")
        .await?;
    browser.wait_for_text(".facts", "Stopped").await?;
    browser.close().await
}
