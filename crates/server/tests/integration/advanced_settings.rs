//! Advanced settings: every setting of a service or a cluster answered with its default until
//! changed, edits checked by type and kept whole or not at all, a setting set back to its
//! default no longer stored, and the build's timeout honoured by the engine.

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, assert_invalid_fields, TestServer};
use platform_api::advanced_settings::SettingsOf;
use serde_json::json;

#[tokio::test]
async fn a_services_settings_are_its_defaults_until_changed_and_again_when_reset() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}/advancedSettings");
    let read = server.get(&path).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    let defaults = server.get("/api/defaultApplicationAdvancedSettings").await;
    assert_eq!(read.body, defaults.body);
    assert_eq!(
        read.body.as_object().unwrap().len(),
        SettingsOf::Application.settings().count()
    );
    assert_eq!(read.body["build.timeout_max_sec"], 1800);

    let edited = server
        .put(
            &path,
            json!({"build.timeout_max_sec": 600,
                   "deployment.update_strategy.type": "Recreate",
                   "deployment.affinity.node.required": {"disk": "ssd"}}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::CREATED, "{}", edited.body);
    assert_eq!(edited.body["build.timeout_max_sec"], 600);
    assert_eq!(edited.body["deployment.update_strategy.type"], "Recreate");
    assert_eq!(edited.body["network.ingress.proxy_body_size_mb"], 100);
    assert_eq!(server.get(&path).await.body, edited.body);

    // Wrong types and unknown keys: named, and nothing of the edit is kept.
    let refused = server
        .put(
            &path,
            json!({"build.timeout_max_sec": 60,
                   "hpa.cpu.average_utilization_percent": 140,
                   "deployment.antiaffinity.pod": "Sometimes",
                   "loki.log_retention_in_week": 2}),
        )
        .await;
    assert_invalid_fields(
        &refused,
        &[
            "deployment.antiaffinity.pod",
            "hpa.cpu.average_utilization_percent",
            "loki.log_retention_in_week",
        ],
    );
    assert_eq!(server.get(&path).await.body["build.timeout_max_sec"], 600);

    // Back to their defaults: nothing stored for the service any more.
    let reset = server
        .put(
            &path,
            json!({"build.timeout_max_sec": 1800,
                   "deployment.update_strategy.type": "RollingUpdate",
                   "deployment.affinity.node.required": {}}),
        )
        .await;
    assert_eq!(reset.status, StatusCode::CREATED, "{}", reset.body);
    assert_eq!(reset.body, defaults.body);
    let stored: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM advanced_settings WHERE owner_id = ?")
            .bind(&application)
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    assert_eq!(stored, 0);

    let events = server
        .get(&format!(
            "/api/organization/{}/events?pageSize=10",
            server.organization_id
        ))
        .await;
    let changes: Vec<_> = events.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["sub_target_type"] == "ADVANCED_SETTINGS")
        .collect();
    assert_eq!(changes.len(), 2, "{}", events.body);
}

#[tokio::test]
async fn a_build_longer_than_its_timeout_is_stopped_at_it() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}/advancedSettings");
    let edited = server.put(&path, json!({"build.timeout_max_sec": 5})).await;
    assert_eq!(edited.status, StatusCode::CREATED, "{}", edited.body);
    let deployed = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    let status = server.settled_status(&application).await;
    assert_eq!(status["state"], "BUILD_ERROR", "{status}");
    let log = server.service_log(&application, None, None).await;
    let lines: Vec<&str> = log["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|line| line["message"].as_str())
        .collect();
    assert!(
        lines.iter().any(|line| line
            == &"Build: the build ran past build.timeout_max_sec (5 s) and was stopped; raise it in the service's advanced settings."),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("Build: given 4000m CPU and 8 GiB")),
        "{lines:#?}"
    );

    // Given the time it needs, the same build passes.
    server
        .put(&path, json!({"build.timeout_max_sec": 1800}))
        .await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(
        server.settled_status(&application).await["state"],
        "DEPLOYED"
    );
}

#[tokio::test]
async fn a_clusters_settings_are_changed_by_an_admin_unless_it_is_locked() {
    let server = TestServer::new().await;
    let organization = &server.organization_id;
    let created = server
        .post(
            &format!("/api/organization/{organization}/cluster"),
            json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-3"}),
        )
        .await;
    let cluster = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/organization/{organization}/cluster/{cluster}/advancedSettings");
    let read = server.get(&path).await;
    assert_eq!(
        read.body,
        server.get("/api/defaultClusterAdvancedSettings").await.body
    );
    let edited = server
        .put(
            &path,
            json!({"loki.log_retention_in_week": 4,
                   "database.postgresql.allowed_cidrs": ["10.0.0.0/8"]}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::CREATED, "{}", edited.body);
    assert_eq!(edited.body["loki.log_retention_in_week"], 4);
    let wrong = server
        .put(
            &path,
            json!({"database.postgresql.allowed_cidrs": "10.0.0.0/8"}),
        )
        .await;
    assert_invalid_fields(&wrong, &["database.postgresql.allowed_cidrs"]);

    let writer = server.token_with_role("WRITE").await;
    let by_writer = server
        .call(
            axum::http::Method::PUT,
            &path,
            Some(&format!("Token {writer}")),
            Some(&json!({"loki.log_retention_in_week": 8}).to_string()),
        )
        .await;
    assert_eq!(
        by_writer.status,
        StatusCode::FORBIDDEN,
        "{}",
        by_writer.body
    );

    server
        .post(
            &format!("/api/cluster/{cluster}/lock"),
            json!({"reason": "freeze", "ttl_in_days": 1}),
        )
        .await;
    let locked = server
        .put(&path, json!({"loki.log_retention_in_week": 8}))
        .await;
    assert_error(&locked, StatusCode::CONFLICT, "CONFLICT");
    assert_eq!(
        server.get(&path).await.body["loki.log_retention_in_week"],
        4
    );
}

#[tokio::test]
async fn network_settings_are_the_sticky_session_setting_and_reach_the_router() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let network = format!("/api/application/{application}/network");
    let read = server.get(&network).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    assert_eq!(read.body, json!({"sticky_session": false}));

    let edited = server.put(&network, json!({"sticky_session": true})).await;
    assert_eq!(edited.status, StatusCode::CREATED, "{}", edited.body);
    assert_eq!(edited.body, json!({"sticky_session": true}));
    let settings = server
        .get(&format!("/api/application/{application}/advancedSettings"))
        .await
        .body;
    assert_eq!(settings["network.ingress.enable_sticky_session"], true);

    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    server.settled_status(&application).await;
    let log = server.service_log(&application, None, None).await;
    assert!(
        log["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|line| line["message"].as_str())
            .any(|line| line.starts_with("Router deployment: sticky sessions")),
        "{log}"
    );

    let container = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "registry_id": server.container_registry().await, "image_name": "acme/api", "tag": "1"}),
        )
        .await;
    let container_network = format!(
        "/api/container/{}/network",
        container.body["id"].as_str().unwrap()
    );
    assert_eq!(
        server.get(&container_network).await.body,
        json!({"sticky_session": false})
    );
}
