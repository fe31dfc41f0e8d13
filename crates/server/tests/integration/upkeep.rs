//! Nothing is kept forever: audit entries past their retention are deleted, the write-ahead log
//! is truncated, and a change too large for the log is recorded abridged.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::common::TestServer;

#[tokio::test]
async fn entries_past_their_retention_go_and_the_log_file_shrinks() {
    let server = TestServer::new().await;
    for n in 0..30 {
        server.project(&format!("project-{n}")).await;
    }
    // Ten of the entries as a year old.
    let year_ago = (chrono::Utc::now() - chrono::Duration::days(366))
        .timestamp_nanos_opt()
        .unwrap();
    sqlx::query(
        "UPDATE audit_events SET at_nanos = ? + rowid WHERE rowid IN
             (SELECT rowid FROM audit_events ORDER BY at_nanos LIMIT 10)",
    )
    .bind(year_ago)
    .execute(&server.state.db)
    .await
    .unwrap();
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM audit_events")
            .fetch_one(&server.state.db)
            .await
            .unwrap()
    };
    let before = count().await;
    let wal = server.dir.path().join("platform.sqlite-wal");
    assert!(std::fs::metadata(&wal).unwrap().len() > 0);

    let done = platform_server::upkeep::once(
        &server.state.db,
        Some(std::time::Duration::from_secs(365 * 24 * 60 * 60)),
    )
    .await
    .unwrap();
    assert_eq!(done.audit_entries_deleted, 10);
    assert_eq!(count().await, before - 10);
    assert!(done.log_truncated);
    assert_eq!(std::fs::metadata(&wal).unwrap().len(), 0);

    // Kept forever without a retention.
    let kept = platform_server::upkeep::once(&server.state.db, None)
        .await
        .unwrap();
    assert_eq!(kept.audit_entries_deleted, 0);
    assert_eq!(count().await, before - 10);
}

#[tokio::test]
async fn a_large_import_is_recorded_by_its_counts_and_keys_and_an_empty_one_not_at_all() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let import = format!("/api/application/{application}/environmentVariable/import");
    let entries = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM audit_events")
            .fetch_one(&server.state.db)
            .await
            .unwrap()
    };
    let before = entries().await;
    let empty = server
        .post(&import, json!({"overwrite": false, "vars": []}))
        .await;
    assert_eq!(empty.status, StatusCode::CREATED, "{}", empty.body);
    assert_eq!(entries().await, before, "an import of nothing is recorded");

    let value = "v".repeat(900);
    let vars: Vec<Value> = (0..900)
        .map(|n| json!({"name": format!("BULKY_{n}"), "value": value, "scope": "APPLICATION", "is_secret": false}))
        .collect();
    let imported = server
        .post(&import, json!({"overwrite": false, "vars": vars}))
        .await;
    assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.body);
    let change: String = sqlx::query_scalar(
        "SELECT change FROM audit_events WHERE event_type = 'IMPORT' ORDER BY at_nanos DESC LIMIT 1",
    )
    .fetch_one(&server.state.db)
    .await
    .unwrap();
    assert!(
        change.len() <= platform_server::audit::ENTRY_MAX_BYTES,
        "{} bytes",
        change.len()
    );
    assert!(change.contains("BULKY_899"), "a key is missing");
    assert!(!change.contains(&value), "a value is kept");
    let change: Value = serde_json::from_str(&change).unwrap();
    assert_eq!(change["total_variables_to_import"], 900);
}
