//! A helm service changed through its settings page: from a chart in git to a chart of a helm
//! repository (its versions offered from the repository's index), a missing chart version
//! refused before sending, its values (a file written inline, first filled from the chart's own
//! values.yaml, and `--set` pairs added and removed), arguments, timeout and cluster-wide resources saved; the
//! record read back through the API holds every change.

use e2e::Browser;
use serde_json::json;

const FORM: &str = "form[aria-label='Helm settings']";

#[tokio::test(flavor = "multi_thread")]
async fn a_helm_service_is_changed_through_its_settings() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    // A repository in a local directory: its charts are read from its index.
    let repository = tempfile::TempDir::new()?;
    std::fs::write(
        repository.path().join("index.yaml"),
        "apiVersion: v1\nentries:\n  redis:\n  - name: redis\n    version: 19.0.1\n  - name: redis\n    version: 18.1.2\n",
    )?;
    let charts = browser
        .create(
            &format!("/organization/{}/helmRepository", place.organization),
            json!({"name": "bitnami", "kind": "HTTPS",
                   "url": format!("file://{}", repository.path().display()),
                   "skip_tls_verification": false, "config": {}}),
        )
        .await?;
    // The chart's own repository, whose values.yaml the form starts from.
    let charts_repository = tempfile::TempDir::new()?;
    platform_server::git::create_repository(
        charts_repository.path(),
        &[(
            "redis chart",
            &[
                ("charts/redis/Chart.yaml", "name: redis\nversion: 19.0.1\n"),
                ("charts/redis/values.yaml", "replica:\n  count: 3\n"),
            ],
        )],
    )?;
    let url = format!("file://{}", charts_repository.path().display());
    let helm = browser
        .create(
            &format!("/environment/{}/helm", place.environment),
            json!({"name": "cache", "source": {"git": {"git_repository": {"url": url, "root_path": "/charts/redis"}}},
                   "values_override": {"set": [["auth.enabled", "false"], ["image.tag", "7"]],
                                       "file": {"raw": {"values": [{"name": "values.yaml", "content": "replica:\n  count: 1\n"}]}}}}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&helm)).await?;
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser.wait_for_value("#field-name", "cache").await?;
    browser
        .wait_for_value(
            "#field-source-git-git_repository-root_path",
            "/charts/redis",
        )
        .await?;
    browser
        .wait_for_value("#field-values_override-file", "count: 1")
        .await?;
    browser
        .wait_for_value("#field-values_override-set-1--key", "image.tag")
        .await?;
    // The chart's own values, read from its repository, replace what was written.
    browser
        .click_text(&format!("{FORM} button"), "Start from the chart's values")
        .await?;
    browser
        .wait_for_value("#field-values_override-file", "count: 3")
        .await?;
    browser.screenshot("helm-chart-values").await?;

    browser
        .click("input[name=helm-source]:not(:checked)")
        .await?;
    browser
        .wait_for_text("#field-source-repository-repository_id", "bitnami")
        .await?;
    browser
        .fill("#field-source-repository-chart_name", "redis")
        .await?;
    browser
        .click(&format!("{FORM} button[type=submit]"))
        .await?;
    browser
        .wait_for_text(
            "#field-source-repository-chart_version-error",
            "is required",
        )
        .await?;

    // The chart's versions are offered as the person types.
    for version in ["19.0.1", "18.1.2"] {
        browser
            .find(&format!(
                "#field-source-repository-chart_version-suggestions option[value='{version}']"
            ))
            .await?;
    }
    browser
        .fill("#field-source-repository-chart_version", "19.0.1")
        .await?;
    browser
        .fill("#field-values_override-file", "replica:\n  count: 3\n")
        .await?;
    browser.click("button[aria-label='Remove value 1']").await?;
    browser.click_text("button", "Add a value").await?;
    browser
        .fill("#field-values_override-set-1--key", "metrics.enabled")
        .await?;
    browser
        .fill("#field-values_override-set-1--value", "true")
        .await?;
    browser.fill("#field-arguments", "--atomic").await?;
    browser.fill("#field-timeout_sec", "300").await?;
    browser.click("#field-allow_cluster_wide_resources").await?;
    browser.save_form(FORM, "Settings saved").await?;

    let after = browser
        .api("GET", &format!("/helm/{helm}"), json!(null))
        .await?;
    assert!(after["source"]["git"].is_null(), "{after}");
    assert_eq!(after["source"]["repository"]["repository"]["id"], charts);
    assert_eq!(after["source"]["repository"]["chart_name"], "redis");
    assert_eq!(after["source"]["repository"]["chart_version"], "19.0.1");
    assert_eq!(
        after["values_override"]["set"],
        json!([["image.tag", "7"], ["metrics.enabled", "true"]])
    );
    let values = after["values_override"]["file"]["raw"]["values"][0]["content"]
        .as_str()
        .unwrap_or_default();
    assert!(values.contains("count: 3"), "{after}");
    assert_eq!(after["arguments"], json!(["--atomic"]));
    assert_eq!(after["timeout_sec"], 300);
    assert_eq!(after["allow_cluster_wide_resources"], true);
    browser.screenshot("helm-settings").await?;
    browser.close().await
}
