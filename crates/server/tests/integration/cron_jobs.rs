//! Cron jobs run at their times, in their time zone, with the clock set by the test: once per
//! time, as a deployment asked by the schedule; never before their first deployment.

use chrono::{Duration, Utc};
use platform_server::cron_jobs;

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, TestServer};
use serde_json::json;

fn job(registry: &str, name: &str, timezone: &str) -> serde_json::Value {
    json!({"name": name,
           "schedule": {"cronjob": {"scheduled_at": "0 3 * * *", "timezone": timezone}},
           "source": {"image": {"registry_id": registry, "image_name": "tools/report", "tag": "1"}}})
}

#[tokio::test]
async fn a_cron_job_runs_once_at_each_of_its_times_in_its_time_zone() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let jobs = format!("/api/environment/{environment}/job");
    let narnia = server
        .post(&jobs, job(&registry, "odd", "Europe/Narnia"))
        .await;
    assert_invalid_fields(&narnia, &["schedule.cronjob.timezone"]);
    let report = server
        .create(&jobs, job(&registry, "report", "Europe/Paris"))
        .await;
    let idle = server
        .create(&jobs, job(&registry, "idle", "Europe/Paris"))
        .await;
    let deployed = server
        .post(&format!("/api/job/{report}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    server.settled(&format!("/api/job/{report}/status")).await;

    let (engine, db) = (&server.state.engine, &server.state.db);
    let now = Utc::now();
    cron_jobs::once(engine, db, now).await.unwrap();
    // 03:00 in Paris, whatever the offset is on that day.
    let cron = platform_api::cron::parse("0 3 * * *").unwrap();
    let paris = now.with_timezone(&chrono_tz::Europe::Paris);
    let due = platform_api::cron::next_runs(&cron, paris, 1)[0].with_timezone(&Utc);
    assert_eq!(
        due.with_timezone(&chrono_tz::Europe::Paris)
            .format("%H:%M")
            .to_string(),
        "03:00"
    );

    assert_eq!(
        cron_jobs::once(engine, db, due - Duration::minutes(1))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        cron_jobs::once(engine, db, due + Duration::seconds(20))
            .await
            .unwrap(),
        1
    );
    server.settled(&format!("/api/job/{report}/status")).await;
    // Later in the same minute, and the next round: nothing more until tomorrow.
    assert_eq!(
        cron_jobs::once(engine, db, due + Duration::seconds(50))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        cron_jobs::once(engine, db, due + Duration::hours(23))
            .await
            .unwrap(),
        0
    );
    let history = server
        .get(&format!("/api/job/{report}/deploymentHistoryV2"))
        .await
        .body;
    let runs = history["results"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "the deployment and one run: {history}");
    assert_eq!(
        runs[0]["auditing_data"]["triggered_by"],
        "schedule 0 3 * * * (Europe/Paris)"
    );
    assert_eq!(runs[0]["auditing_data"]["origin"], "QOVERY_INTERNAL");
    assert_eq!(runs[0]["status"], "DEPLOYED", "{history}");

    // A day later it runs again; the job never deployed never runs.
    assert_eq!(
        cron_jobs::once(engine, db, due + Duration::hours(24))
            .await
            .unwrap(),
        1
    );
    let never = server
        .get(&format!("/api/job/{idle}/deploymentHistoryV2"))
        .await
        .body;
    assert!(never["results"].as_array().unwrap().is_empty(), "{never}");
}

#[tokio::test]
async fn a_stopped_cron_job_does_not_run() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let report = server
        .create(
            &format!("/api/environment/{environment}/job"),
            job(&registry, "report", "Etc/UTC"),
        )
        .await;
    server
        .post(&format!("/api/job/{report}/deploy"), json!({}))
        .await;
    server.settled(&format!("/api/job/{report}/status")).await;
    let stopped = server
        .post(&format!("/api/job/{report}/stop"), json!({}))
        .await;
    assert_eq!(stopped.status, StatusCode::ACCEPTED, "{}", stopped.body);
    server.settled(&format!("/api/job/{report}/status")).await;
    let (engine, db) = (&server.state.engine, &server.state.db);
    let now = Utc::now();
    cron_jobs::once(engine, db, now).await.unwrap();
    assert_eq!(
        cron_jobs::once(engine, db, now + Duration::days(1))
            .await
            .unwrap(),
        0
    );
}
