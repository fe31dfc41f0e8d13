//! An application's runtime changed through its settings page: a port added with its protocol,
//! public path and rewrite (the kept port keeps its id), a volume (its mount point's rule refused
//! first), the command, both health probes in each of their four variants, autoscaling with a
//! scaler, a labels group attached, and how it deploys; each save read back through the API.

use e2e::Browser;
use serde_json::json;

const FORM: &str = "form[aria-label='Application settings']";

async fn save(browser: &Browser) -> anyhow::Result<()> {
    browser.save_form(FORM, "Settings saved").await?;
    // The next save's toast must be a new one.
    browser.click(".toast--success button").await?;
    browser.wait_until_gone(".toast--success").await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_applications_ports_volumes_probes_and_command_are_changed() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let web = browser
        .create(
            &format!("/environment/{}/application", place.environment),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"},
                   "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}]}),
        )
        .await?;
    let before = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    let team = browser
        .create(
            &format!("/organization/{}/labelsGroups", place.organization),
            json!({"name": "team-web", "labels": [{"key": "team", "value": "web", "propagate_to_cloud_provider": false}]}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&web)).await?;
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser
        .wait_for_value("#field-ports-0--internal_port", "8080")
        .await?;

    browser.click_text("button", "Add a port").await?;
    browser
        .fill("#field-ports-1--internal_port", "9090")
        .await?;
    browser.choose("#field-ports-1--protocol", "GRPC").await?;
    browser.fill("#field-ports-1--public_path", "/api").await?;
    browser
        .fill("#field-ports-1--public_path_rewrite", "/")
        .await?;
    browser.click_text("button", "Add a volume").await?;
    browser
        .fill("#field-storage-0--mount_point", "data")
        .await?;
    browser.fill("#field-storage-0--size", "20").await?;
    browser.fill("#field-entrypoint", "/usr/bin/server").await?;
    browser.fill("#field-arguments", "--port\n8080").await?;
    browser
        .click("#field-healthchecks-readiness_probe-enabled")
        .await?;
    browser
        .choose("#field-healthchecks-readiness_probe-type", "HTTP")
        .await?;
    browser
        .fill("#field-healthchecks-readiness_probe-type-port", "8080")
        .await?;
    browser
        .fill("#field-healthchecks-readiness_probe-type-path", "/ready")
        .await?;
    browser
        .click("#field-healthchecks-liveness_probe-enabled")
        .await?;
    browser
        .fill("#field-healthchecks-liveness_probe-type-port", "8080")
        .await?;
    browser
        .fill("#field-healthchecks-liveness_probe-period_seconds", "0")
        .await?;
    browser.click("#field-auto_deploy").await?;
    browser
        .click(&format!("input[name=labels_groups][value='{team}']"))
        .await?;
    browser.click("#field-autoscaling-mode").await?;
    browser
        .fill("#field-autoscaling-polling_interval_seconds", "15")
        .await?;
    browser
        .fill("#field-autoscaling-scalers-0--config_yaml", "value: \"60\"")
        .await?;
    browser
        .click(&format!("{FORM} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("#field-storage-0--mount_point-error", "absolute path")
        .await?;
    browser
        .wait_for_text(
            "#field-healthchecks-liveness_probe-period_seconds-error",
            "must be",
        )
        .await?;

    browser
        .fill("#field-storage-0--mount_point", "/data")
        .await?;
    browser
        .fill("#field-healthchecks-liveness_probe-period_seconds", "15")
        .await?;
    save(&browser).await?;
    let after = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(after["ports"][0]["id"], before["ports"][0]["id"]);
    assert_eq!(after["ports"][1]["internal_port"], 9090);
    assert_eq!(after["ports"][1]["protocol"], "GRPC");
    assert_eq!(after["ports"][1]["public_path"], "/api");
    assert_eq!(after["ports"][1]["public_path_rewrite"], "/");
    assert_eq!(after["storage"][0]["mount_point"], "/data");
    assert_eq!(after["storage"][0]["size"], 20);
    assert_eq!(after["entrypoint"], "/usr/bin/server");
    assert_eq!(after["arguments"], json!(["--port", "8080"]));
    assert_eq!(
        after["healthchecks"]["readiness_probe"]["type"],
        json!({"http": {"path": "/ready", "scheme": "HTTP", "port": 8080}})
    );
    assert_eq!(
        after["healthchecks"]["liveness_probe"]["type"],
        json!({"tcp": {"port": 8080}})
    );
    assert_eq!(
        after["healthchecks"]["liveness_probe"]["period_seconds"],
        15
    );
    assert_eq!(after["auto_deploy"], true);
    assert_eq!(after["labels_groups"][0]["id"], team);
    assert_eq!(after["labels_groups"][0]["name"], "team-web");
    let policy = &after["autoscaling"];
    assert_eq!(policy["mode"], "KEDA");
    assert_eq!(policy["polling_interval_seconds"], 15);
    assert_eq!(policy["scalers"][0]["scaler_type"], "cpu");
    assert_eq!(policy["scalers"][0]["role"], "PRIMARY");
    assert_eq!(policy["scalers"][0]["config_yaml"], "value: \"60\"");

    // The two other variants: a command, and a gRPC health check.
    browser
        .choose("#field-healthchecks-readiness_probe-type", "EXEC")
        .await?;
    browser
        .fill(
            "#field-healthchecks-readiness_probe-type-command",
            "/bin/check\n--ready",
        )
        .await?;
    browser
        .choose("#field-healthchecks-liveness_probe-type", "GRPC")
        .await?;
    browser
        .fill("#field-healthchecks-liveness_probe-type-service", "health")
        .await?;
    save(&browser).await?;
    let after = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(
        after["healthchecks"]["readiness_probe"]["type"],
        json!({"exec": {"command": ["/bin/check", "--ready"]}})
    );
    assert_eq!(
        after["healthchecks"]["liveness_probe"]["type"],
        json!({"grpc": {"service": "health", "port": 8080}})
    );

    // Removed from the page, removed from the service.
    browser
        .click("button[aria-label='Remove volume 1']")
        .await?;
    browser
        .click("#field-healthchecks-readiness_probe-enabled")
        .await?;
    save(&browser).await?;
    let after = browser
        .api("GET", &format!("/application/{web}"), json!(null))
        .await?;
    assert_eq!(after["storage"], json!([]));
    assert!(
        after["healthchecks"]["readiness_probe"].is_null(),
        "{after}"
    );
    browser.screenshot("application-settings").await?;
    browser.close().await
}
