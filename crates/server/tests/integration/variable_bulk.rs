//! Many variables of one parent at once: deleted, made secret, set, all in one transaction; a
//! variable changed or deleted since the request was made refuses the whole of it, by name.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::common::{assert_invalid_fields, TestServer};

async fn keyed(server: &TestServer, application: &str) -> Vec<Value> {
    let listed = server
        .get(&format!(
            "/api/application/{application}/environmentVariable"
        ))
        .await;
    listed.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["scope"] == "APPLICATION" && v["is_secret"] == false)
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_bulk_change_is_applied_whole_or_not_at_all() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let variables = format!("/api/application/{application}/environmentVariable");
    let mut ids = Vec::new();
    for key in ["GONE", "HIDDEN", "CHANGED"] {
        ids.push(
            server
                .create(&variables, json!({"key": key, "value": "v1"}))
                .await,
        );
    }
    let bulk = format!("{variables}/bulk");
    let applied = server
        .post(
            &bulk,
            json!({"delete": [ids[0]], "to_secret": [ids[1]],
                   "set": [{"id": ids[2], "key": "CHANGED", "value": "v2"},
                           {"key": "ADDED", "value": "new"}]}),
        )
        .await;
    assert_eq!(applied.status, StatusCode::OK, "{}", applied.body);
    assert_eq!(
        applied.body,
        json!({"deleted": 1, "moved_to_secret": 1, "created": 1, "updated": 1})
    );
    let seen = keyed(&server, &application).await;
    let keys: Vec<&str> = seen.iter().map(|v| v["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["ADDED", "CHANGED"]);
    assert_eq!(seen[1]["value"], "v2");
    let secrets = server
        .get(&format!("/api/application/{application}/secret"))
        .await;
    let hidden = &secrets.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "HIDDEN")
        .unwrap()
        .clone();
    assert!(hidden.get("value").is_none_or(Value::is_null), "{hidden}");

    // Made of a deleted variable and a key taken since: refused, each named, nothing written.
    let refused = server
        .post(
            &bulk,
            json!({"delete": [ids[2]],
                   "set": [{"id": ids[0], "key": "GONE", "value": "back"},
                           {"key": "ADDED", "value": "again"}]}),
        )
        .await;
    assert_invalid_fields(&refused, &["set[0].id", "set[1].key"]);
    let after = keyed(&server, &application).await;
    assert_eq!(after, seen);

    // Deleting needs ADMIN.
    let writer = server.token_with_role("WRITE").await;
    let forbidden = server
        .call(
            Method::POST,
            &bulk,
            Some(&format!("Token {writer}")),
            Some(&json!({"delete": [ids[2]]}).to_string()),
        )
        .await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN);
}
