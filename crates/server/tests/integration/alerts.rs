//! Alert rules evaluated over the simulated cluster: a service whose memory is set under what its
//! load needs misses instances; its rule goes PENDING while that lasts less than its duration,
//! then TRIGGERED, its notices sent to a Slack receiver and an e-mail receiver on loopback, then
//! NOTIFIED; healed, it is OK again and the receiver that asked is told it resolved. Receivers
//! are tested through `validate`; rules refuse what they cannot evaluate.

use crate::common::receiver::Receiver;
use crate::common::smtp::SmtpServer;
use crate::common::{assert_invalid_fields, TestServer};
use crate::monitoring::{backdate, deployed_container, redeploy_with_memory, workload};

use axum::http::{Method, StatusCode};
use chrono::{TimeDelta, Utc};
use platform_api::{Preset, Workload};
use platform_server::alerts::{self, Alerting};
use serde_json::{json, Value};
use uuid::Uuid;

pub fn alerting(server: &TestServer) -> Alerting {
    Alerting {
        db: server.state.db.clone(),
        writes: server.state.writes.clone(),
        telemetry: Default::default(),
        deliveries: server.state.engine.events_recorded.clone(),
    }
}

/// A Slack receiver posting to `url`, resolved alerts too.
pub async fn slack_receiver(server: &TestServer, url: &str) -> String {
    server
        .create(
            "/api/alert-receivers",
            json!({"organization_id": server.organization_id, "name": "oncall", "description": "",
                   "type": "SLACK", "send_resolved": true, "webhook_url": url}),
        )
        .await
}

/// An e-mail receiver through the SMTP server at `smarthost`, resolved alerts not.
async fn email_receiver(server: &TestServer, smarthost: &str, require_tls: bool) -> String {
    server
        .create(
            "/api/alert-receivers",
            json!({"organization_id": server.organization_id, "name": "ops mail", "description": "",
                   "type": "EMAIL", "send_resolved": false, "to": "ops@example.com",
                   "from": "alerts@example.com", "smarthost": smarthost,
                   "auth_password": "smtp-secret-never-shown", "require_tls": require_tls}),
        )
        .await
}

/// A rule on the container of `cluster`, told to `receivers` when `promql` is above 1.
pub fn custom_rule(
    server: &TestServer,
    (cluster, container): (&str, &str),
    receivers: Vec<&str>,
    promql: &str,
) -> Value {
    json!({"organization_id": server.organization_id, "cluster_id": cluster,
           "target": {"target_type": "CONTAINER", "target_id": container},
           "name": "r", "description": "", "tag": "", "for_duration": "PT5M",
           "severity": "LOW", "enabled": true, "alert_receiver_ids": receivers,
           "presentation": {},
           "condition": {"kind": "CUSTOM", "promql": promql, "operator": "ABOVE", "threshold": 1}})
}

pub async fn rule_state(server: &TestServer, rule: &str) -> Value {
    server.get(&format!("/api/alert-rules/{rule}")).await.body
}

/// Waits until `check` holds of what `read` gives, up to 10 s.
async fn eventually<T: std::fmt::Debug>(read: impl Fn() -> T, check: impl Fn(&T) -> bool) -> T {
    for _ in 0..200 {
        let value = read();
        if check(&value) {
            return value;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never came: {:?}", read());
}

#[tokio::test]
async fn a_missing_instance_goes_pending_then_triggered_then_notified_and_resolves() {
    let server = TestServer::new().await;
    let (slack, slack_url) = Receiver::start(0).await;
    let (smtp, smarthost) = SmtpServer::start().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    backdate(&server, &container, 60, 3 * 3600).await;
    let name = workload(&server, &cluster, &container).await;
    let receivers = [
        slack_receiver(&server, &format!("{slack_url}/chat")).await,
        email_receiver(&server, &smarthost, false).await,
    ];
    let workload = Workload {
        service_id: container.parse().unwrap(),
        name: Some(name),
        namespace: None,
        ingress: None,
        stateful: false,
    };
    let ids: Vec<Uuid> = receivers.iter().map(|id| id.parse().unwrap()).collect();
    let rule = Preset::InstanceMissing.rule(&workload, ids);
    let mut body = serde_json::to_value(&rule).unwrap();
    body["organization_id"] = json!(server.organization_id);
    body["cluster_id"] = json!(cluster);
    body["target"] = json!({"target_type": "CONTAINER", "target_id": container});
    let created = server.post("/api/alert-rules", body).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["state"], "UNDEPLOYED");
    assert_eq!(created.body["target"]["service"]["name"], "web");
    let rule = created.body["id"].as_str().unwrap().to_string();

    let alerting = alerting(&server);
    alerts::once(&alerting, Utc::now()).await.unwrap();
    let healthy = rule_state(&server, &rule).await;
    assert_eq!(healthy["state"], "OK", "{healthy}");
    assert_eq!(healthy["is_up_to_date"], true);

    // Memory under what it needs: instances killed, fewer available than wanted.
    redeploy_with_memory(&server, &container, 16).await;
    backdate(&server, &container, 60, 1800).await;
    let at = Utc::now();
    alerts::once(&alerting, at).await.unwrap();
    assert_eq!(
        rule_state(&server, &rule).await["state"],
        "PENDING_NOTIFICATION"
    );
    alerts::once(&alerting, at + TimeDelta::minutes(3))
        .await
        .unwrap();
    let fired = rule_state(&server, &rule).await;
    assert_eq!(fired["state"], "TRIGGERED", "{fired}");
    assert!(fired["starts_at"].is_string());
    let posted = eventually(|| slack.received(), |received| !received.is_empty()).await;
    let text: Value = serde_json::from_str(&posted[0].body).unwrap();
    assert!(
        text["text"]
            .as_str()
            .unwrap()
            .contains("Instance missing is firing"),
        "{text}"
    );
    let mails = eventually(|| smtp.mails(), |mails| !mails.is_empty()).await;
    assert!(
        mails[0].data.contains("Instance missing is firing"),
        "{:?}",
        mails[0]
    );
    assert!(mails[0].to[0].contains("ops@example.com"));
    // Once every notice is delivered, the next round says so.
    for _ in 0..100 {
        alerts::once(&alerting, at + TimeDelta::minutes(4))
            .await
            .unwrap();
        if rule_state(&server, &rule).await["state"] == "NOTIFIED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(rule_state(&server, &rule).await["state"], "NOTIFIED");
    let listed = server
        .get(&format!(
            "/api/organization/{}/alert-rules",
            server.organization_id
        ))
        .await;
    assert_eq!(
        listed.body["results"][0]["state"], "NOTIFIED",
        "{}",
        listed.body
    );

    // Healed: OK again, the Slack receiver told it resolved, the e-mail one not asked.
    redeploy_with_memory(&server, &container, 512).await;
    backdate(&server, &container, 60, 600).await;
    alerts::once(&alerting, Utc::now()).await.unwrap();
    assert_eq!(rule_state(&server, &rule).await["state"], "OK");
    let resolved = eventually(|| slack.received(), |received| received.len() >= 2).await;
    assert!(
        resolved[1].body.contains("[Resolved] Instance missing"),
        "{}",
        resolved[1].body
    );
    assert_eq!(smtp.mails().len(), 1);

    // Every notice is in the audit log; no secret is.
    let events = server
        .get(&format!(
            "/api/organization/{}/events?pageSize=100",
            server.organization_id
        ))
        .await
        .body;
    let notices = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["event_type"] == "ALERT_NOTIFIED")
        .count();
    assert_eq!(notices, 2, "{events}");
    assert!(!events.to_string().contains("smtp-secret-never-shown"));
    assert!(!events.to_string().contains("/chat"));
}

#[tokio::test]
async fn a_receiver_is_tested_and_says_why_a_test_did_not_go() {
    let server = TestServer::new().await;
    let (slack, slack_url) = Receiver::start(0).await;
    let (smtp, smarthost) = SmtpServer::start().await;
    let slack_id = slack_receiver(&server, &format!("{slack_url}/chat")).await;
    let sent = server
        .post(
            &format!("/api/alert-receivers/{slack_id}/validate"),
            json!({"message": "hello from the test"}),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    assert!(slack.received()[0].body.contains("hello from the test"));

    // Before it is saved: an e-mail receiver through the loopback relay.
    let new = json!({"alert_receiver": {
        "organization_id": server.organization_id, "name": "mail", "description": "",
        "type": "EMAIL", "send_resolved": false, "to": "ops@example.com",
        "from": "alerts@example.com", "smarthost": smarthost, "auth_password": "pw",
        "require_tls": false}});
    let sent = server
        .post("/api/alert-receivers/validate", new.clone())
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    assert!(smtp.mails()[0]
        .data
        .contains("this receiver gets its alerts"));

    // Requiring TLS of a relay that offers none: not sent, and said so.
    let mut tls = new;
    tls["alert_receiver"]["require_tls"] = json!(true);
    let refused = server.post("/api/alert-receivers/validate", tls).await;
    assert_invalid_fields(&refused, &["alert_receiver"]);
    assert!(
        refused.body["fields"][0]["message"]
            .as_str()
            .unwrap()
            .contains("TLS"),
        "{}",
        refused.body
    );
    assert_eq!(smtp.mails().len(), 1);

    // The password never comes back.
    let email_id = email_receiver(&server, &smarthost, false).await;
    let read = server
        .get(&format!("/api/alert-receivers/{email_id}"))
        .await;
    assert_eq!(read.body["auth_username"], "alerts@example.com");
    assert!(read.body.get("auth_password").is_none(), "{}", read.body);
}

#[tokio::test]
async fn a_rule_without_a_receiver_or_with_unreadable_promql_is_refused() {
    let server = TestServer::new().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    let rule = |receivers: Vec<&str>, promql: &str| {
        custom_rule(&server, (&cluster, &container), receivers, promql)
    };
    let none = server
        .post("/api/alert-rules", rule(vec![], "vector(1)"))
        .await;
    assert_invalid_fields(&none, &["alert_receiver_ids"]);
    assert!(none.body["fields"][0]["message"]
        .as_str()
        .unwrap()
        .contains("create one"));
    let stranger = Uuid::new_v4().to_string();
    let unknown = server
        .post("/api/alert-rules", rule(vec![&stranger], "vector(1)"))
        .await;
    assert_invalid_fields(&unknown, &["alert_receiver_ids[0]"]);
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let refused = server
        .call(
            Method::POST,
            "/api/alert-rules",
            Some(&reader),
            Some(&rule(vec![&stranger], "vector(1)").to_string()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let (_, url) = Receiver::start(0).await;
    let receiver = slack_receiver(&server, &format!("{url}/x")).await;
    let unreadable = server
        .post("/api/alert-rules", rule(vec![&receiver], "sum(rate(x[5m]"))
        .await;
    assert_invalid_fields(&unreadable, &["condition.promql"]);
}
