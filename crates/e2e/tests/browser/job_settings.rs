//! A job changed through its settings page: from a cron schedule built from git to the
//! environment's lifecycle events run from a registry's image; a lifecycle job with no event
//! refused before sending; each event's command, restarts and longest run saved; the record read back
//! through the API holds every change, and the page shows it after a reload.

use e2e::Browser;
use serde_json::json;

const FORM: &str = "form[aria-label='Job settings']";

#[tokio::test(flavor = "multi_thread")]
async fn a_job_is_changed_through_its_settings() -> anyhow::Result<()> {
    let browser = Browser::start(20.0).await?;
    let place = browser
        .create_environment("shop", "staging", "STAGING")
        .await?;
    let registry = browser
        .create(
            &format!("/organization/{}/containerRegistry", place.organization),
            json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example",
                   "config": {"username": "robot", "password": "registry-password"}}),
        )
        .await?;
    let job = browser
        .create(
            &format!("/environment/{}/job", place.environment),
            json!({"name": "report", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *", "timezone": "Europe/Paris"}},
                   "source": {"docker": {"git_repository": {"url": "https://git.example.com/acme/jobs.git"}}}}),
        )
        .await?;

    browser.sign_in().await?;
    browser.open(&place.service_page(&job)).await?;
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser.wait_for_value("#field-name", "report").await?;
    browser
        .wait_for_value("#field-schedule-cronjob-timezone", "Europe/Paris")
        .await?;
    // The next times on Paris's wall clock, from the browser's own time zones, as typed.
    let next = browser.wait_for_text(".next-runs", "Next: ").await?;
    assert_eq!(next.matches("03:00").count(), 3, "{next}");
    browser
        .fill("#field-schedule-cronjob-scheduled_at", "30 6 * * MON")
        .await?;
    let next = browser.wait_for_text(".next-runs", "Mon").await?;
    assert_eq!(next.matches("Mon").count(), 3, "{next}");
    assert_eq!(next.matches("06:30").count(), 3, "{next}");
    browser
        .fill("#field-schedule-cronjob-timezone", "Europe/Narnia")
        .await?;
    browser
        .wait_for_text(".next-runs", "does not know the time zone Europe/Narnia")
        .await?;
    let zones = browser
        .client
        .execute(
            "return document.querySelectorAll('#field-schedule-cronjob-timezone-suggestions option').length",
            vec![],
        )
        .await?;
    assert!(zones.as_u64().unwrap_or(0) > 300, "{zones}");
    browser
        .fill("#field-schedule-cronjob-timezone", "Europe/Paris")
        .await?;

    browser.choose("#field-job_type", "LIFECYCLE").await?;
    browser
        .click(&format!("{FORM} button[type=submit]"))
        .await?;
    browser
        .wait_for_text("#field-schedule-error", "at least one lifecycle event")
        .await?;

    browser
        .click("input[name=schedule][value=on_start]")
        .await?;
    browser
        .click("input[name=schedule][value=on_delete]")
        .await?;
    browser
        .click("input[name=job-source]:not(:checked)")
        .await?;
    browser
        .wait_for_text("#field-source-image-registry_id", "hub")
        .await?;
    browser
        .fill("#field-source-image-image_name", "acme/report")
        .await?;
    browser.fill("#field-source-image-tag", "2.1").await?;
    // Each event runs its own command.
    browser
        .fill("#field-schedule-on_start-entrypoint", "/bin/report")
        .await?;
    browser
        .fill("#field-schedule-on_start-arguments", "--full\n--quiet")
        .await?;
    browser
        .fill("#field-schedule-on_delete-entrypoint", "/bin/report")
        .await?;
    browser
        .fill("#field-schedule-on_delete-arguments", "--purge")
        .await?;
    browser.fill("#field-max_nb_restart", "2").await?;
    browser.fill("#field-max_duration_seconds", "900").await?;
    browser.save_form(FORM, "Settings saved").await?;

    let after = browser
        .api("GET", &format!("/job/{job}"), json!(null))
        .await?;
    assert_eq!(after["job_type"], "LIFECYCLE");
    assert_eq!(
        after["schedule"]["on_start"],
        json!({"arguments": ["--full", "--quiet"], "entrypoint": "/bin/report"})
    );
    assert_eq!(
        after["schedule"]["on_delete"],
        json!({"arguments": ["--purge"], "entrypoint": "/bin/report"})
    );
    assert!(after["schedule"]["on_stop"].is_null(), "{after}");
    assert!(after["schedule"]["cronjob"].is_null(), "{after}");
    assert_eq!(after["source"]["image"]["registry"]["id"], registry);
    assert_eq!(after["source"]["image"]["image_name"], "acme/report");
    assert_eq!(after["source"]["image"]["tag"], "2.1");
    assert!(after["source"]["docker"].is_null(), "{after}");
    assert_eq!(after["max_nb_restart"], 2);
    assert_eq!(after["max_duration_seconds"], 900);

    browser.open(&place.service_page(&job)).await?;
    browser.click("a.tabs__tab[href$='/settings']").await?;
    browser
        .wait_for_value("#field-source-image-image_name", "acme/report")
        .await?;
    browser
        .wait_for_value("#field-schedule-on_start-arguments", "--quiet")
        .await?;
    browser
        .wait_for_value("#field-schedule-on_delete-arguments", "--purge")
        .await?;
    browser.screenshot("job-settings").await?;
    browser.close().await
}
