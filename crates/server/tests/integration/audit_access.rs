//! The audit log shows each entry only to a role that may read its target, and a value made
//! secret leaves the log everywhere it appeared while it was plain.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::common::TestServer;

/// Every entry of the log `authorization` may read, newest first.
async fn events_read_by(server: &TestServer, authorization: &str) -> Vec<Value> {
    let reply = server
        .call(
            Method::GET,
            &format!(
                "/api/organization/{}/events?pageSize=100",
                server.organization_id
            ),
            Some(authorization),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["events"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_read_role_does_not_see_the_entries_of_what_only_admin_reads() {
    let server = TestServer::new().await;
    let organization = server.organization_id.clone();
    let hook_url = "https://hooks.example/a-credential-in-the-url";
    let receiver_url = "https://hooks.slack.com/services/T/B/receiver-credential";
    for (path, body) in [
        (
            format!("/api/organization/{organization}/webhook"),
            json!({"kind": "STANDARD", "target_url": hook_url, "events": ["DEPLOYMENT_STARTED"]}),
        ),
        (
            format!("/api/organization/{organization}/customRole"),
            json!({"name": "night-shift"}),
        ),
        (
            "/api/alert-receivers".to_string(),
            json!({"organization_id": organization, "name": "ops", "description": "Ops",
                   "type": "SLACK", "send_resolved": false, "webhook_url": receiver_url}),
        ),
    ] {
        let created = server.post(&path, body).await;
        assert_eq!(
            created.status,
            StatusCode::CREATED,
            "{path}: {}",
            created.body
        );
    }
    server.project("visible-to-all").await;
    let read = format!("Token {}", server.token_with_role("READ").await);

    let admin_sees = events_read_by(&server, &server.auth()).await;
    let read_sees = events_read_by(&server, &read).await;
    let kinds = |events: &[Value]| -> Vec<String> {
        events
            .iter()
            .map(|e| format!("{} {}", e["target_type"], e["sub_target_type"]))
            .collect()
    };
    for admins in [
        "\"WEBHOOK\" null",
        "\"MEMBERS_AND_ROLES\" \"CUSTOM_ROLE\"",
        "\"ORGANIZATION\" \"ALERT_RECEIVER\"",
        "\"ORGANIZATION\" \"API_TOKEN\"",
    ] {
        assert!(
            kinds(&admin_sees).iter().any(|kind| kind == admins),
            "ADMIN does not see {admins}: {:?}",
            kinds(&admin_sees)
        );
        assert!(
            !kinds(&read_sees).iter().any(|kind| kind == admins),
            "READ sees {admins}"
        );
    }
    assert!(
        kinds(&read_sees)
            .iter()
            .any(|kind| kind == "\"PROJECT\" null"),
        "READ does not see the project's creation: {:?}",
        kinds(&read_sees)
    );
    let text = Value::from(read_sees).to_string();
    for hidden in [hook_url, receiver_url, "night-shift"] {
        assert!(!text.contains(hidden), "READ reads {hidden} in the log");
    }
    // Filtering on what READ may not see finds nothing, rather than telling it exists.
    let filtered = server
        .call(
            Method::GET,
            &format!("/api/organization/{organization}/events?targetType=WEBHOOK"),
            Some(&read),
            None,
        )
        .await;
    assert_eq!(filtered.body["events"], json!([]));

    // The targets the log's filters offer follow the same rule.
    let targets = |authorization: String, query: &'static str| {
        let path = format!("/api/organization/{organization}/targets{query}");
        let server = &server;
        async move {
            let reply = server
                .call(Method::GET, &path, Some(&authorization), None)
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            let names: Vec<String> = reply.body["targets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|target| target["name"].as_str().unwrap().to_string())
                .collect();
            names
        }
    };
    let admin_targets = targets(server.auth(), "").await;
    assert!(
        admin_targets.contains(&"night-shift".to_string()),
        "{admin_targets:?}"
    );
    let read_targets = targets(read.clone(), "").await;
    assert!(
        read_targets.contains(&"visible-to-all".to_string()),
        "{read_targets:?}"
    );
    assert!(
        !read_targets.contains(&"night-shift".to_string()),
        "{read_targets:?}"
    );
    assert_eq!(
        targets(read.clone(), "?targetType=WEBHOOK").await,
        Vec::<String>::new()
    );
    // By project: those the entries belong to, each once.
    server.staging().await;
    let projects = targets(read, "?targetLevelToFetch=PROJECT").await;
    assert_eq!(projects, ["shop", "visible-to-all"], "{projects:?}");
}

#[tokio::test]
async fn a_value_made_secret_leaves_the_log_everywhere_it_appeared() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let (first, second, third) = (
        "plain-value-first-4711",
        "plain-value-second-4712",
        "plain-override-4713",
    );
    let variables = format!("/api/environment/{environment}/environmentVariable");
    let created = server
        .post(&variables, json!({"key": "API_KEY", "value": first}))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_string();
    let updated = server
        .put(
            &format!("{variables}/{id}"),
            json!({"key": "API_KEY", "value": second}),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    let overridden = server
        .post(
            &format!("/api/application/{application}/environmentVariable/{id}/override"),
            json!({"value": third}),
        )
        .await;
    assert_eq!(
        overridden.status,
        StatusCode::CREATED,
        "{}",
        overridden.body
    );
    let before = Value::from(events_read_by(&server, &server.auth()).await).to_string();
    assert!(
        before.contains(first) && before.contains(second),
        "{before}"
    );

    let made = server
        .post(&format!("{variables}/bulk"), json!({"to_secret": [id]}))
        .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    let after = Value::from(events_read_by(&server, &server.auth()).await).to_string();
    for value in [first, second] {
        assert!(!after.contains(value), "{value} stays in the log: {after}");
    }
    // The override's own value was never the secret's: it stays.
    assert!(after.contains(third), "{after}");
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT change || COALESCE(original_change, '') FROM audit_events")
            .fetch_all(&server.state.db)
            .await
            .unwrap();
    assert!(
        !stored
            .iter()
            .any(|text| text.contains(first) || text.contains(second)),
        "the database keeps the value in the log"
    );
}
