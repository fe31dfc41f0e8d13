//! Nothing one caller sends stops or slows the others: a pattern runs in bounded time and stack,
//! every string is bounded, a body is one JSON value, text settings hold only their form, and a
//! write that holds the writer makes the server say it is not ready.

use std::time::Duration;

use crate::common::{self, assert_error, assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use serde_json::json;

/// A project's deployment rule, its wildcard `wildcard`.
fn rule(cluster: &str, wildcard: &str) -> serde_json::Value {
    json!({"name": "previews", "mode": "PREVIEW", "cluster_id": cluster, "wildcard": wildcard,
           "timezone": "Etc/UTC", "start_time": "1970-01-01T08:00:00.000Z",
           "stop_time": "1970-01-01T19:00:00.000Z", "weekdays": ["MONDAY"]})
}

#[tokio::test]
async fn a_pathological_wildcard_neither_overflows_nor_freezes_the_server() {
    let server = TestServer::new().await;
    let (project, environment) = server.staging().await;
    let cluster = server.cluster_of(&environment).await;
    let rules = format!("/api/project/{project}/deploymentRule");
    // A hundred thousand stars: over every string's bound, and over a pattern's.
    let stars = format!("{}x", "*".repeat(100_000));
    assert_invalid_fields(
        &server.post(&rules, rule(&cluster, &stars)).await,
        &["wildcard"],
    );
    let long = format!("{}x", "*".repeat(300));
    assert_invalid_fields(
        &server.post(&rules, rule(&cluster, &long)).await,
        &["wildcard"],
    );
    // Exponential for a backtracking matcher: matched in a moment now.
    let pathological = format!("{}b", "*a".repeat(120));
    let created = server.post(&rules, rule(&cluster, &pathological)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let made = tokio::time::timeout(
        Duration::from_secs(30),
        server.post(
            &format!("/api/project/{project}/environment"),
            json!({"name": "a".repeat(200)}),
        ),
    )
    .await
    .expect("the environment's creation ended");
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    // Not a match: the environment keeps the mode asked for.
    assert_eq!(made.body["mode"], "DEVELOPMENT", "{}", made.body);
}

#[tokio::test]
async fn every_string_of_a_body_is_bounded_and_named() {
    let server = TestServer::new().await;
    let projects = format!("/api/organization/{}/project", server.organization_id);
    let long = "d".repeat(platform_api::rules::TEXT_MAX_BYTES + 1);
    let refused = server
        .post(&projects, json!({"name": "shop", "description": long}))
        .await;
    assert_invalid_fields(&refused, &["description"]);
    assert!(refused.body["fields"][0]["message"]
        .as_str()
        .unwrap()
        .contains("at most 64 KiB"));
    let (_, _, application) = server.hierarchy().await;
    let nested = server
        .put(
            &format!("/api/application/{application}"),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/a.git",
                   "branch": "b".repeat(200_000)}}),
        )
        .await;
    assert_invalid_fields(&nested, &["git_repository.branch"]);
}

#[tokio::test]
async fn a_body_is_one_json_value_and_nothing_after_it() {
    let server = TestServer::new().await;
    let projects = format!("/api/organization/{}/project", server.organization_id);
    for body in [
        r#"{"name":"a"} garbage"#,
        r#"{"name":"a"}{"name":"b"}"#,
        r#"{"name":"a"},"#,
    ] {
        let reply = server
            .call(Method::POST, &projects, Some(&server.auth()), Some(body))
            .await;
        assert_error(&reply, StatusCode::BAD_REQUEST, "BAD_REQUEST");
    }
    let listed = server.get(&projects).await.body;
    assert_eq!(listed["results"], json!([]), "a project was made: {listed}");
    // White space after the value is still a body.
    let spaced = server
        .call(
            Method::POST,
            &projects,
            Some(&server.auth()),
            Some("{\"name\":\"a\"}\n  "),
        )
        .await;
    assert!(spaced.status.is_success(), "{}", spaced.body);
}

#[tokio::test]
async fn text_settings_are_taken_only_in_their_form() {
    let server = TestServer::new().await;
    let ids = common::records(&server).await;
    let application = format!(
        "/api/application/{}/advancedSettings",
        ids.id("application_id")
    );
    let refused = server
        .put(
            &application,
            json!({
                "network.gateway_api.retry.http_status_codes": "999,abc,-1",
                "network.ingress.whitelist_source_range": "not-a-cidr",
                "network.ingress.extra_headers": "{\"X-A\":\"a\\r\\nSet-Cookie: b=1\"}",
                "network.ingress.proxy_buffering": "maybe",
                "deployment.lifecycle.post_start_exec_command": ["a\u{0}b"],
            }),
        )
        .await;
    assert_invalid_fields(
        &refused,
        &[
            "deployment.lifecycle.post_start_exec_command",
            "network.gateway_api.retry.http_status_codes",
            "network.ingress.extra_headers",
            "network.ingress.proxy_buffering",
            "network.ingress.whitelist_source_range",
        ],
    );
    let taken = server
        .put(
            &application,
            json!({
                "network.gateway_api.retry.http_status_codes": "502,503",
                "network.ingress.whitelist_source_range": "10.0.0.0/24,172.10.0.1",
                "network.ingress.extra_headers": "{\"X-Frame-Options\":\"DENY\"}",
            }),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CREATED, "{}", taken.body);

    let job = format!("/api/job/{}/advancedSettings", ids.id("job_id"));
    let refused = server
        .put(&job, json!({"cronjob.concurrency_policy": "Whatever"}))
        .await;
    assert_invalid_fields(&refused, &["cronjob.concurrency_policy"]);

    let cluster = format!(
        "/api/organization/{}/cluster/{}/advancedSettings",
        server.organization_id,
        ids.id("cluster_id")
    );
    let refused = server
        .put(&cluster, json!({"aws.eks.ec2.ami": "; rm -rf /"}))
        .await;
    assert_invalid_fields(&refused, &["aws.eks.ec2.ami"]);

    let backup = format!("/api/database/{}/backup", ids.id("database_id"));
    let refused = server
        .post(
            &backup,
            json!({"name": "nightly", "message": "before\u{0}after"}),
        )
        .await;
    assert_invalid_fields(&refused, &["message"]);
}

#[tokio::test]
async fn a_cron_schedule_is_bounded() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let jobs = format!("/api/environment/{environment}/job");
    let job = |scheduled_at: String| {
        json!({"name": "nightly", "schedule": {"cronjob": {"scheduled_at": scheduled_at}},
               "source": {"docker": {"git_repository": {"url": "https://git.example.com/a.git"}}}})
    };
    let long = server
        .post(&jobs, job(format!("0 {} * * *", "1,".repeat(200))))
        .await;
    assert_invalid_fields(&long, &["schedule.cronjob.scheduled_at"]);
    let huge = server.post(&jobs, job("1 ".repeat(100_000))).await;
    assert_invalid_fields(&huge, &["schedule.cronjob.scheduled_at"]);
    let taken = server.post(&jobs, job("0 3 * * *".to_string())).await;
    assert_eq!(taken.status, StatusCode::CREATED, "{}", taken.body);
}

#[tokio::test]
async fn a_write_holding_the_writer_makes_the_server_not_ready() {
    let server = TestServer::new().await;
    let ready = server.page("/readyz").await;
    assert_eq!(ready.0, StatusCode::OK, "{}", ready.1);
    let held = platform_server::db::begin_write(&server.state.writes)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5_500)).await;
    let (status, said) = server.page("/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{said}");
    assert!(said.contains("held by one write"), "{said}");
    held.rollback().await.unwrap();
    // The connection goes back to the pool a moment after.
    let mut answers = Vec::new();
    for _ in 0..50 {
        let (status, said) = server.page("/readyz").await;
        if status == StatusCode::OK {
            return;
        }
        answers.push(said);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("still not ready once the write ended: {answers:?}");
}
