//! Schedules and deployment rules: an environment with auto-stop is stopped at its stop time and
//! started at its start time, with the clock set by the test; a project's rules, in order, give
//! their schedule to the environments created afterwards whose names match.

use chrono::{Duration, NaiveTime, Utc};
use platform_server::schedules;

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

fn schedule(timezone: &str) -> Value {
    json!({"auto_stop": true, "timezone": timezone,
           "start_time": "1970-01-01T08:00:00.000Z", "stop_time": "1970-01-01T19:00:00.000Z",
           "weekdays": ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]})
}

/// The first time after `now` that a wall clock of `zone` shows `time`.
fn next(
    zone: chrono_tz::Tz,
    time: (u32, u32),
    after: chrono::DateTime<Utc>,
) -> chrono::DateTime<Utc> {
    use chrono::TimeZone;
    let local = after.with_timezone(&zone);
    let at = NaiveTime::from_hms_opt(time.0, time.1, 0).unwrap();
    (0..3)
        .filter_map(|days| {
            let day = local.date_naive() + Duration::days(days);
            zone.from_local_datetime(&day.and_time(at)).earliest()
        })
        .map(|at| at.with_timezone(&Utc))
        .find(|at| *at > after)
        .unwrap()
}

#[tokio::test]
async fn an_environment_is_stopped_and_started_on_its_schedule() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let web = server.application(&environment, "web").await;
    server
        .post(&format!("/api/application/{web}/deploy"), json!({}))
        .await;
    server.settled_status(&web).await;

    let path = format!("/api/environment/{environment}/deploymentRule");
    let rule = server.get(&path).await;
    assert_eq!(rule.status, StatusCode::OK, "{}", rule.body);
    assert_eq!(rule.body["auto_stop"], false);
    let rule_id = rule.body["id"].as_str().unwrap().to_string();
    let narnia = server
        .put(&format!("{path}/{rule_id}"), schedule("Europe/Narnia"))
        .await;
    assert_invalid_fields(&narnia, &["timezone"]);
    let saved = server
        .put(&format!("{path}/{rule_id}"), schedule("Europe/Paris"))
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
    assert_eq!(saved.body["timezone"], "Europe/Paris");
    assert_eq!(server.get(&path).await.body["auto_stop"], true);

    let (engine, db) = (&server.state.engine, &server.state.db);
    let stop = next(chrono_tz::Europe::Paris, (19, 0), Utc::now());
    // Up to a minute before the stop (today's start, if it is still to come, starts it again).
    schedules::once(engine, db, stop - Duration::minutes(1))
        .await
        .unwrap();
    server.settled_status(&web).await;
    assert_eq!(
        schedules::once(engine, db, stop - Duration::seconds(30))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        schedules::once(engine, db, stop + Duration::seconds(30))
            .await
            .unwrap(),
        1
    );
    let stopped = server.settled_status(&web).await;
    assert_eq!(stopped["state"], "STOPPED", "{stopped}");
    assert_eq!(
        schedules::once(engine, db, stop + Duration::minutes(5))
            .await
            .unwrap(),
        0
    );

    let start = next(chrono_tz::Europe::Paris, (8, 0), stop);
    assert_eq!(
        schedules::once(engine, db, start + Duration::seconds(30))
            .await
            .unwrap(),
        1
    );
    let started = server.settled_status(&web).await;
    assert_eq!(started["state"], "DEPLOYED", "{started}");
    let history = server
        .get(&format!("/api/application/{web}/deploymentHistoryV2"))
        .await
        .body;
    assert_eq!(
        history["results"][0]["auditing_data"]["triggered_by"],
        "schedule 08:00–19:00 (Europe/Paris)"
    );
}

#[tokio::test]
async fn a_projects_rules_in_order_give_their_schedule_to_new_environments_that_match() {
    let server = TestServer::new().await;
    let (project, _) = server.staging().await;
    let cluster = server
        .get(&format!(
            "/api/organization/{}/cluster",
            server.organization_id
        ))
        .await
        .body["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let rules = format!("/api/project/{project}/deploymentRule");
    let rule = |name: &str, wildcard: &str, zone: &str| {
        let mut body = schedule(zone);
        body["name"] = json!(name);
        body["mode"] = json!("DEVELOPMENT");
        body["cluster_id"] = json!(cluster);
        body["wildcard"] = json!(wildcard);
        body
    };
    let mut unknown_cluster = rule("x", "*", "Etc/UTC");
    unknown_cluster["cluster_id"] = json!(uuid::Uuid::new_v4());
    assert_invalid_fields(&server.post(&rules, unknown_cluster).await, &["cluster_id"]);
    let features = server
        .post(&rules, rule("features", "feat-*", "Asia/Tokyo"))
        .await;
    assert_eq!(features.status, StatusCode::CREATED, "{}", features.body);
    let everything = server
        .post(&rules, rule("everything", "*", "America/New_York"))
        .await;
    assert_eq!(everything.body["priority_index"], 1);
    let twice = server.post(&rules, rule("FEATURES", "x", "Etc/UTC")).await;
    assert_error(&twice, StatusCode::CONFLICT, "CONFLICT");

    let create = |name: &str| {
        let server = &server;
        let path = format!("/api/project/{project}/environment");
        let name = name.to_string();
        async move {
            let created = server.post(&path, json!({"name": name})).await;
            assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
            let id = created.body["id"].as_str().unwrap().to_string();
            server
                .get(&format!("/api/environment/{id}/deploymentRule"))
                .await
                .body
        }
    };
    assert_eq!(create("feat-login").await["timezone"], "Asia/Tokyo");
    assert_eq!(create("main").await["timezone"], "America/New_York");

    // The everything rule first: it takes the feature branches too.
    let (first, second) = (
        features.body["id"].as_str().unwrap(),
        everything.body["id"].as_str().unwrap(),
    );
    let reordered = server
        .put(
            &format!("{rules}/order"),
            json!({"project_deployment_rule_ids_in_order": [second, first]}),
        )
        .await;
    assert_eq!(reordered.status, StatusCode::OK, "{}", reordered.body);
    let listed = server.get(&rules).await.body;
    assert_eq!(listed["results"][0]["name"], "everything");
    assert_eq!(create("feat-signup").await["timezone"], "America/New_York");
    let partial = server
        .put(
            &format!("{rules}/order"),
            json!({"project_deployment_rule_ids_in_order": [second]}),
        )
        .await;
    assert_invalid_fields(&partial, &["project_deployment_rule_ids_in_order"]);

    let deleted = server
        .call(
            Method::DELETE,
            &format!("{rules}/{second}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let left = server.get(&rules).await.body;
    assert_eq!(left["results"][0]["priority_index"], 0);
    assert_eq!(create("other").await["timezone"], "Etc/UTC");
}
