//! Webhook events delivered over real HTTP to a receiver on loopback: who gets what (filters,
//! disabled webhooks), the body and its signature, retries with backoff, every attempt recorded.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use common::receiver::{Received, Receiver};
use common::{config, TestServer};
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use tempfile::TempDir;

async fn create_webhook(server: &TestServer, body: Value) -> String {
    let reply = server
        .post(
            &format!("/api/organization/{}/webhook", server.organization_id),
            body,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body["id"].as_str().unwrap().to_string()
}

async fn deliveries(server: &TestServer, webhook: &str) -> Vec<Value> {
    let reply = server
        .get(&format!(
            "/api/organization/{}/webhook/{webhook}/delivery",
            server.organization_id
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["results"].as_array().unwrap().clone()
}

/// Waits until the webhook has `count` deliveries and none is PENDING any more.
async fn concluded_deliveries(server: &TestServer, webhook: &str, count: usize) -> Vec<Value> {
    for _ in 0..500 {
        let deliveries = deliveries(server, webhook).await;
        if deliveries.len() >= count && deliveries.iter().all(|d| d["status"] != "PENDING") {
            return deliveries;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "the deliveries of {webhook} never concluded: {:?}",
        deliveries(server, webhook).await
    );
}

/// A new application (project shop, environment staging) deployed to its end.
async fn deployed_application(server: &TestServer) -> String {
    let (_, _, application) = server.hierarchy().await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    server.settled_status(&application).await;
    application
}

fn event_types(deliveries: &[Value]) -> BTreeSet<String> {
    deliveries
        .iter()
        .map(|d| d["event_type"].as_str().unwrap().to_string())
        .collect()
}

/// Checks the `X-Platform-Signature` header the way a receiver would: HMAC-SHA256 of "t.body".
fn verify_signature(secret: &str, received: &Received) {
    let header = received.headers["x-platform-signature"].to_str().unwrap();
    let (t, v1) = header
        .strip_prefix("t=")
        .and_then(|rest| rest.split_once(",v1="))
        .unwrap_or_else(|| panic!("malformed signature header {header}"));
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{}", received.body).as_bytes());
    mac.verify_slice(&hex::decode(v1).unwrap())
        .unwrap_or_else(|_| panic!("the signature {header} does not verify"));
    let signed_at = DateTime::from_timestamp(t.parse().unwrap(), 0).unwrap();
    assert!((Utc::now() - signed_at).num_seconds().abs() < 300);
}

#[tokio::test]
async fn events_go_signed_to_the_enabled_webhooks_whose_filters_match() {
    let server = TestServer::new().await;
    let (receiver, base) = Receiver::start(0).await;
    let secret = "receiver-shared-secret";
    let all_events = json!([
        "DEPLOYMENT_STARTED",
        "DEPLOYMENT_CANCELLED",
        "DEPLOYMENT_FAILURE",
        "DEPLOYMENT_SUCCESSFUL"
    ]);
    let matching = create_webhook(
        &server,
        json!({"target_url": format!("{base}/matching"), "target_secret": secret,
               "events": all_events, "project_names_filter": ["SHOP*"],
               "environment_types_filter": ["STAGING"]}),
    )
    .await;
    let unfiltered = create_webhook(
        &server,
        json!({"target_url": format!("{base}/unfiltered"), "events": ["DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    let mut quiet = Vec::new();
    for (path, extra) in [
        ("other-project", json!({"project_names_filter": ["api*"]})),
        (
            "other-mode",
            json!({"environment_types_filter": ["PRODUCTION"]}),
        ),
        ("disabled", json!({"enabled": false})),
        ("failures-only", json!({"events": ["DEPLOYMENT_FAILURE"]})),
    ] {
        let mut body = json!({"target_url": format!("{base}/{path}"), "events": all_events});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        quiet.push(create_webhook(&server, body).await);
    }

    let project = server.project("Shop-Front").await;
    let environment = server.environment(&project, "staging").await;
    let application = server.application(&environment, "web").await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    let status = server.settled_status(&application).await;
    assert_eq!(status["state"], "DEPLOYED");

    let delivered = concluded_deliveries(&server, &matching, 2).await;
    assert_eq!(
        event_types(&delivered),
        BTreeSet::from([
            "DEPLOYMENT_STARTED".to_string(),
            "DEPLOYMENT_SUCCESSFUL".to_string()
        ])
    );
    for delivery in &delivered {
        assert_eq!(delivery["status"], "DELIVERED", "{delivery}");
        assert_eq!(delivery["attempts"].as_array().unwrap().len(), 1);
        assert_eq!(delivery["attempts"][0]["status_code"], 200);
    }
    let unfiltered = concluded_deliveries(&server, &unfiltered, 1).await;
    assert_eq!(
        event_types(&unfiltered),
        BTreeSet::from(["DEPLOYMENT_SUCCESSFUL".to_string()])
    );
    // Events are recorded with the state change that fires them: by now every one exists.
    for webhook in &quiet {
        assert!(deliveries(&server, webhook).await.is_empty(), "{webhook}");
    }

    let received = receiver.received();
    let paths: BTreeSet<&str> = received.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, BTreeSet::from(["matching", "unfiltered"]));
    let success = received
        .iter()
        .find(|r| r.path == "matching" && r.body.contains("DEPLOYMENT_SUCCESSFUL"))
        .unwrap();
    verify_signature(secret, success);
    assert_eq!(
        success.headers["content-type"].to_str().unwrap(),
        "application/json"
    );
    let body: Value = serde_json::from_str(&success.body).unwrap();
    assert_eq!(body["event_type"], "DEPLOYMENT_SUCCESSFUL");
    assert!(body["delivered_at"]
        .as_str()
        .unwrap()
        .parse::<DateTime<Utc>>()
        .is_ok());
    let payload = &body["payload"];
    assert_eq!(payload["application_id"], application.as_str());
    assert_eq!(payload["service_id"], application.as_str());
    assert_eq!(payload["service_name"], "web");
    assert_eq!(payload["service_type"], "APPLICATION");
    assert_eq!(payload["project_id"], project.as_str());
    assert_eq!(payload["project_name"], "Shop-Front");
    assert_eq!(payload["environment_id"], environment.as_str());
    assert_eq!(payload["environment_name"], "staging");
    assert_eq!(payload["environment_mode"], "STAGING");
    assert_eq!(payload["organization_id"], server.organization_id.as_str());
    assert_eq!(payload["action"], "DEPLOY");
    assert_eq!(payload["state"], "DEPLOYED");
    assert_eq!(payload["execution_id"], status["execution_id"]);
    // Without a secret there is nothing to sign with.
    let unsigned = received.iter().find(|r| r.path == "unfiltered").unwrap();
    assert!(!unsigned.headers.contains_key("x-platform-signature"));
    // The secret itself travels nowhere.
    assert!(received.iter().all(|r| !r.body.contains(secret)
        && r.headers
            .values()
            .all(|v| !v.to_str().unwrap_or("").contains(secret))));
}

#[tokio::test]
async fn failures_and_cancels_have_their_events() {
    let dir = TempDir::new().unwrap();
    let mut slow = config(&dir);
    slow.engine_speed = 10.0;
    let server = TestServer::with_config(dir, slow).await;
    let (_receiver, base) = Receiver::start(0).await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": format!("{base}/events"),
               "events": ["DEPLOYMENT_STARTED", "DEPLOYMENT_CANCELLED", "DEPLOYMENT_FAILURE", "DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    let (_, environment, application) = server.hierarchy().await;

    // Canceled while building: started, then cancelled.
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    for _ in 0..500 {
        let status = server
            .get(&format!("/api/application/{application}/status"))
            .await;
        if status.body["state"] == "BUILDING" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cancel = server
        .post(&format!("/api/application/{application}/cancel"), json!({}))
        .await;
    assert_eq!(cancel.status, StatusCode::ACCEPTED, "{}", cancel.body);
    assert_eq!(
        server.settled_status(&application).await["state"],
        "CANCELED"
    );
    let after_cancel = concluded_deliveries(&server, &webhook, 2).await;
    assert_eq!(
        event_types(&after_cancel),
        BTreeSet::from([
            "DEPLOYMENT_CANCELLED".to_string(),
            "DEPLOYMENT_STARTED".to_string()
        ])
    );
    let cancelled = after_cancel
        .iter()
        .find(|d| d["event_type"] == "DEPLOYMENT_CANCELLED")
        .unwrap();
    assert_eq!(cancelled["payload"]["state"], "CANCELED");

    // A database failing on purpose at its deployment: failure, in the error state.
    let database = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        )
        .await;
    assert_eq!(database.status, StatusCode::CREATED, "{}", database.body);
    let database = database.body["id"].as_str().unwrap().to_string();
    let variable = server
        .post(
            &format!("/api/environment/{environment}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "DEPLOYMENT"}),
        )
        .await;
    assert_eq!(variable.status, StatusCode::CREATED, "{}", variable.body);
    server
        .post(&format!("/api/database/{database}/deploy"), json!({}))
        .await;
    let failed = server
        .settled(&format!("/api/database/{database}/status"))
        .await;
    assert_eq!(failed["state"], "DEPLOYMENT_ERROR");
    let all = concluded_deliveries(&server, &webhook, 4).await;
    let failure = all
        .iter()
        .find(|d| d["event_type"] == "DEPLOYMENT_FAILURE")
        .unwrap_or_else(|| panic!("no failure event in {all:?}"));
    assert_eq!(failure["payload"]["state"], "DEPLOYMENT_ERROR");
    assert_eq!(failure["payload"]["service_type"], "DATABASE");
    assert_eq!(failure["payload"]["service_name"], "orders");
    // Only applications carry `application_id`.
    assert!(failure["payload"].get("application_id").is_none());
}

#[tokio::test]
async fn a_failing_receiver_gets_retries_with_backoff_until_it_answers() {
    let server = TestServer::new().await;
    let (receiver, base) = Receiver::start(2).await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": format!("{base}/flaky"), "events": ["DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    deployed_application(&server).await;

    let delivery = concluded_deliveries(&server, &webhook, 1).await.remove(0);
    assert_eq!(delivery["status"], "DELIVERED", "{delivery}");
    assert_eq!(delivery["outcome"], "Delivered at attempt 3.");
    let attempts = delivery["attempts"].as_array().unwrap();
    let codes: Vec<_> = attempts.iter().map(|a| a["status_code"].clone()).collect();
    assert_eq!(codes, [json!(500), json!(500), json!(200)]);
    assert_eq!(
        attempts[0]["error"],
        "The receiver answered 500 Internal Server Error."
    );
    assert!(attempts[2]["error"].is_null());
    // Each retry waits at least twice as long as the one before (20 ms, then 40 ms in the tests).
    let times: Vec<DateTime<Utc>> = attempts
        .iter()
        .map(|a| a["attempted_at"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!((times[1] - times[0]).num_milliseconds() >= 20, "{times:?}");
    assert!((times[2] - times[1]).num_milliseconds() >= 40, "{times:?}");
    assert_eq!(receiver.received().len(), 3);
    // The same event each time: one delivery id.
    let ids: BTreeSet<_> = receiver
        .received()
        .iter()
        .map(|r| {
            r.headers["x-platform-delivery"]
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        ids,
        BTreeSet::from([delivery["id"].as_str().unwrap().to_string()])
    );
    // The production document's list of the webhook's events: the latest attempt's answer.
    let path = format!(
        "/api/organization/{}/webhook/{webhook}/event",
        server.organization_id
    );
    let events = server.get(&path).await;
    contract::Document::production()
        .operation("get", &path.replacen("/api", "", 1))
        .unwrap()
        .check_response(events.status.as_u16(), &events.body)
        .unwrap_or_else(|errors| panic!("{errors:?}: {}", events.body));
    let event = &events.body["results"][0];
    assert_eq!(event["id"], delivery["id"]);
    assert_eq!(event["matched_event"], "DEPLOYMENT_SUCCESSFUL");
    assert_eq!(event["target_response_status_code"], 200);
    assert_eq!(event["target_url_used"], format!("{base}/flaky"));
    assert_eq!(event["request"]["action"], "DEPLOY");
}

#[tokio::test]
async fn an_unreachable_receiver_is_given_up_after_the_last_attempt() {
    let server = TestServer::new().await;
    // A port nobody listens on: bound, then closed.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let webhook = create_webhook(
        &server,
        json!({"target_url": format!("http://{closed}/hook"), "events": ["DEPLOYMENT_STARTED"]}),
    )
    .await;
    let (_, _, application) = server.hierarchy().await;
    server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    let delivery = concluded_deliveries(&server, &webhook, 1).await.remove(0);
    assert_eq!(delivery["status"], "FAILED", "{delivery}");
    assert_eq!(delivery["outcome"], "Given up after 6 attempts.");
    assert!(delivery["next_attempt_at"].is_null());
    let attempts = delivery["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 6);
    for (number, attempt) in attempts.iter().enumerate() {
        assert_eq!(attempt["attempt"], number + 1);
        assert!(attempt["status_code"].is_null());
        let error = attempt["error"].as_str().unwrap();
        assert!(error.contains("onnect"), "{error}");
        // The target's address is not repeated in the error: a chat endpoint's path is a secret.
        assert!(!error.contains("/hook"), "{error}");
    }
}

#[tokio::test]
async fn deliveries_are_listed_for_admins_of_the_webhook_only() {
    let server = TestServer::new().await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": "https://receiver.example/hook", "events": ["DEPLOYMENT_STARTED"]}),
    )
    .await;
    let path = format!(
        "/api/organization/{}/webhook/{webhook}/delivery",
        server.organization_id
    );
    let reader = server.token_with_role("READ").await;
    let forbidden = server
        .call(
            axum::http::Method::GET,
            &path,
            Some(&format!("Token {reader}")),
            None,
        )
        .await;
    common::assert_error(&forbidden, StatusCode::FORBIDDEN, "FORBIDDEN");
    let unknown = server
        .get(&format!(
            "/api/organization/{}/webhook/{}/delivery",
            server.organization_id,
            uuid::Uuid::new_v4()
        ))
        .await;
    common::assert_error(&unknown, StatusCode::NOT_FOUND, "NOT_FOUND");
    assert!(deliveries(&server, &webhook).await.is_empty());
}

#[tokio::test]
async fn an_attempt_cut_short_by_a_stop_is_made_again_at_the_next_start() {
    let server = TestServer::new().await;
    let (receiver, base) = Receiver::start(0).await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": format!("{base}/again"), "events": ["DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    deployed_application(&server).await;
    concluded_deliveries(&server, &webhook, 1).await;
    // As a server stopped in the middle of its attempt leaves it: claimed, never recorded.
    sqlx::query("UPDATE webhook_deliveries SET status = 'PENDING', outcome = NULL, attempting = 1")
        .execute(&server.state.db)
        .await
        .unwrap();
    sqlx::query("DELETE FROM webhook_delivery_attempts")
        .execute(&server.state.db)
        .await
        .unwrap();

    let TestServer { dir, state, .. } = server;
    state.db.close().await;
    let restarted = TestServer::in_dir(dir).await;
    let delivery = concluded_deliveries(&restarted, &webhook, 1)
        .await
        .remove(0);
    assert_eq!(delivery["status"], "DELIVERED", "{delivery}");
    assert_eq!(delivery["attempts"].as_array().unwrap().len(), 1);
    // Sent twice in all: at least once, never lost.
    assert_eq!(receiver.received().len(), 2);
}

#[tokio::test]
async fn only_the_newest_concluded_deliveries_are_kept() {
    let server = TestServer::new().await;
    let (_receiver, base) = Receiver::start(0).await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": format!("{base}/kept"), "events": ["DEPLOYMENT_SUCCESSFUL"]}),
    )
    .await;
    let (_, _, application) = server.hierarchy().await;
    let deploy = format!("/api/application/{application}/deploy");
    server.post(&deploy, json!({})).await;
    server.settled_status(&application).await;
    let first = concluded_deliveries(&server, &webhook, 1).await.remove(0);

    // A long history already delivered before it, oldest first.
    let kept = platform_server::events::delivery::KEPT_PER_WEBHOOK;
    let old = Utc::now() - chrono::Duration::days(30);
    let payload = first["payload"].to_string();
    let mut history = Vec::new();
    for index in 0..kept {
        let id = uuid::Uuid::new_v4().to_string();
        sqlx::query(
            "INSERT INTO webhook_deliveries (id, webhook_id, event_type, payload, status, created_at)
             VALUES (?, ?, 'DEPLOYMENT_SUCCESSFUL', ?, 'DELIVERED', ?)",
        )
        .bind(&id)
        .bind(&webhook)
        .bind(&payload)
        .bind(old + chrono::Duration::seconds(index))
        .execute(&server.state.db)
        .await
        .unwrap();
        history.push(id);
    }
    server.post(&deploy, json!({})).await;
    server.settled_status(&application).await;
    let newest = loop {
        let listed = concluded_deliveries(&server, &webhook, 1).await.remove(0);
        if listed["id"] != first["id"] {
            break listed;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };

    let ids: Vec<(String,)> = sqlx::query_as(
        "SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at",
    )
    .bind(&webhook)
    .fetch_all(&server.state.db)
    .await
    .unwrap();
    let ids: Vec<String> = ids.into_iter().map(|(id,)| id).collect();
    assert_eq!(ids.len() as i64, kept);
    // The two oldest made room for the newest.
    assert_eq!(ids[0], history[2]);
    assert!(!ids.contains(&history[0]) && !ids.contains(&history[1]));
    assert!(ids.contains(&first["id"].as_str().unwrap().to_string()));
    assert_eq!(ids.last().unwrap(), newest["id"].as_str().unwrap());
}

/// A server started without `--allow-target-network`: public targets only.
async fn server_reaching_public_addresses_only() -> TestServer {
    let dir = TempDir::new().unwrap();
    let mut public_only = config(&dir);
    public_only.allowed_target_networks.clear();
    TestServer::with_config(dir, public_only).await
}

#[tokio::test]
async fn targets_on_the_servers_own_network_are_refused() {
    let server = server_reaching_public_addresses_only().await;
    let webhooks = format!("/api/organization/{}/webhook", server.organization_id);
    for target in [
        "http://127.0.0.1:18197/internal-admin",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:22/",
        "http://10.0.0.7/",
        "http://[::ffff:192.168.1.1]/",
        "http://localhost:8080/",
    ] {
        let refused = server
            .post(
                &webhooks,
                json!({"target_url": target, "events": ["DEPLOYMENT_STARTED"]}),
            )
            .await;
        common::assert_invalid_fields(&refused, &["target_url"]);
        assert!(
            refused.body["fields"][0]["message"]
                .as_str()
                .unwrap()
                .contains("public address"),
            "{}",
            refused.body
        );
    }
    let public = server
        .post(
            &webhooks,
            json!({"target_url": "https://93.184.216.34/hooks", "events": ["DEPLOYMENT_STARTED"]}),
        )
        .await;
    assert_eq!(public.status, StatusCode::CREATED, "{}", public.body);
    let receiver = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": server.organization_id, "name": "metadata",
                   "description": "x", "type": "SLACK", "send_resolved": true,
                   "webhook_url": "http://169.254.169.254/"}),
        )
        .await;
    common::assert_invalid_fields(&receiver, &["webhook_url"]);
}

#[tokio::test]
async fn a_target_that_turns_private_after_it_was_saved_gets_nothing() {
    let server = server_reaching_public_addresses_only().await;
    let (receiver, base) = Receiver::start(0).await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": "https://93.184.216.34/hooks", "events": ["DEPLOYMENT_STARTED"]}),
    )
    .await;
    // As if its name resolved elsewhere since (DNS rebinding): the stored target is now a name
    // of the loopback receiver, checked by the resolver at delivery.
    sqlx::query("UPDATE organization_resources SET record = json_set(record, '$.target_url', ?) WHERE id = ?")
        .bind(format!("{}/hook", base.replace("127.0.0.1", "localhost")))
        .bind(&webhook)
        .execute(&server.state.db)
        .await
        .unwrap();
    deployed_application(&server).await;
    let delivery = concluded_deliveries(&server, &webhook, 1).await.remove(0);
    assert_eq!(delivery["status"], "FAILED", "{delivery}");
    let attempts = delivery["attempts"].as_array().unwrap();
    assert!(attempts
        .iter()
        .all(|a| a["error"] == "Not sent: the receiver's address is not public."));
    assert!(receiver.received().is_empty());
}

#[tokio::test]
async fn a_test_event_reaches_the_receiver_of_an_enabled_webhook() {
    let server = TestServer::new().await;
    let (receiver, base) = Receiver::start(0).await;
    let webhook = create_webhook(
        &server,
        json!({"target_url": format!("{base}/trial"), "target_secret": "shared",
               "events": ["DEPLOYMENT_SUCCESSFUL"], "enabled": false}),
    )
    .await;
    let test = format!(
        "/api/organization/{}/webhook/{webhook}/test",
        server.organization_id
    );
    let disabled = server.post(&test, json!({})).await;
    common::assert_error(&disabled, StatusCode::CONFLICT, "CONFLICT");
    let enable = server
        .put(
            &format!(
                "/api/organization/{}/webhook/{webhook}",
                server.organization_id
            ),
            json!({"target_url": format!("{base}/trial"), "events": ["DEPLOYMENT_SUCCESSFUL"],
                   "enabled": true}),
        )
        .await;
    assert_eq!(enable.status, StatusCode::OK, "{}", enable.body);
    let sent = server.post(&test, json!({})).await;
    assert_eq!(sent.status, StatusCode::ACCEPTED, "{}", sent.body);
    assert_eq!(sent.body["status"], "PENDING");
    assert_eq!(sent.body["event_type"], "DEPLOYMENT_SUCCESSFUL");

    let concluded = concluded_deliveries(&server, &webhook, 1).await;
    assert_eq!(concluded[0]["status"], "DELIVERED", "{concluded:?}");
    let received = receiver.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].path, "trial");
    let body: Value = serde_json::from_str(&received[0].body).unwrap();
    assert_eq!(body["event_type"], "DEPLOYMENT_SUCCESSFUL");
    assert_eq!(body["payload"]["service_name"], "example-service");
    assert!(received[0].headers.contains_key("x-platform-signature"));

    let reader = server.token_with_role("WRITE").await;
    let forbidden = server
        .call(
            axum::http::Method::POST,
            &test,
            Some(&format!("Token {reader}")),
            Some("{}"),
        )
        .await;
    common::assert_error(&forbidden, StatusCode::FORBIDDEN, "FORBIDDEN");
}
