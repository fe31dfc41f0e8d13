//! Bounds on what a caller can grow or read: variables per scope, a variable list paged like the
//! others, a whole list refused past its weight (asked for by pages instead).

use std::collections::BTreeSet;

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::common::{assert_invalid_fields, TestServer};

/// Imports `count` plain variables named `{prefix}_{n}` at the application.
async fn import(server: &TestServer, application: &str, prefix: &str, count: usize) -> StatusCode {
    let vars: Vec<Value> = (0..count)
        .map(|n| json!({"name": format!("{prefix}_{n}"), "value": "v", "scope": "APPLICATION", "is_secret": false}))
        .collect();
    let reply = server
        .post(
            &format!("/api/application/{application}/environmentVariable/import"),
            json!({"overwrite": false, "vars": vars}),
        )
        .await;
    reply.status
}

#[tokio::test]
async fn a_scope_defines_at_most_its_limit_of_variables_and_says_so() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let limit = platform_api::VARIABLES_PER_SCOPE_MAX as usize;
    assert_eq!(
        import(&server, &application, "FIRST", limit - 1).await,
        StatusCode::CREATED
    );
    let variables = format!("/api/application/{application}/environmentVariable");
    let last = server
        .post(&variables, json!({"key": "THE_LAST", "value": "v"}))
        .await;
    assert_eq!(last.status, StatusCode::CREATED, "{}", last.body);

    let over = server
        .post(&variables, json!({"key": "ONE_TOO_MANY", "value": "v"}))
        .await;
    assert_invalid_fields(&over, &["key"]);
    assert!(
        over.body["message"]
            .as_str()
            .unwrap()
            .contains(&limit.to_string()),
        "the limit is not named: {}",
        over.body
    );
    let secret = server
        .post(
            &format!("/api/application/{application}/secret"),
            json!({"key": "ONE_TOO_MANY", "value": "v"}),
        )
        .await;
    assert_invalid_fields(&secret, &["key"]);
    assert_eq!(
        import(&server, &application, "MORE", 2).await,
        StatusCode::BAD_REQUEST
    );
    // Nothing of the refused writes is kept.
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM variables WHERE parent_id = ?")
        .bind(&application)
        .fetch_one(&server.state.db)
        .await
        .unwrap();
    assert_eq!(count as usize, limit);
}

#[tokio::test]
async fn a_variable_list_pages_through_everything_once() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    assert_eq!(
        import(&server, &application, "PAGED", 230).await,
        StatusCode::CREATED
    );
    server
        .post(
            &format!("/api/environment/{environment}/environmentVariable"),
            json!({"key": "FROM_THE_ENVIRONMENT", "value": "e"}),
        )
        .await;
    for list in [
        format!("/api/application/{application}/environmentVariable"),
        format!("/api/variable?parent_id={application}&scope=APPLICATION&is_secret=false"),
    ] {
        let whole = server.get(&list).await;
        assert_eq!(whole.status, StatusCode::OK);
        assert!(
            whole.body.get("page_size").is_none(),
            "a whole list says no page"
        );
        let everything: BTreeSet<String> = whole.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["id"].as_str().unwrap().to_string())
            .collect();
        // 230 imported, 1 of the environment, the application's own built-in one.
        assert_eq!(everything.len(), 232, "{list}");

        let separator = if list.contains('?') { '&' } else { '?' };
        let mut paged = Vec::new();
        for page in 1.. {
            let reply = server
                .get(&format!("{list}{separator}pageSize=100&page={page}"))
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            assert_eq!(reply.body["page"], page);
            assert_eq!(reply.body["page_size"], 100);
            let results = reply.body["results"].as_array().unwrap();
            assert!(results.len() <= 100);
            paged.extend(
                results
                    .iter()
                    .map(|v| v["id"].as_str().unwrap().to_string()),
            );
            if results.len() < 100 {
                break;
            }
        }
        assert_eq!(
            paged.len(),
            everything.len(),
            "{list}: an item twice or missing"
        );
        assert_eq!(paged.into_iter().collect::<BTreeSet<_>>(), everything);
    }
    let too_big = server
        .get(&format!(
            "/api/application/{application}/environmentVariable?pageSize=101"
        ))
        .await;
    assert_invalid_fields(&too_big, &["pageSize"]);
}

#[tokio::test]
async fn a_whole_list_heavier_than_its_limit_is_asked_for_by_pages() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let variables = format!("/api/application/{application}/environmentVariable");
    let value = "x".repeat(platform_api::rules::VALUE_MAX_BYTES);
    // 130 values of 64 KiB: past the 8 MiB a whole list may weigh.
    for n in 0..130 {
        let created = server
            .post(
                &variables,
                json!({"key": format!("HEAVY_{n}"), "value": value}),
            )
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    }
    let whole = server.get(&variables).await;
    assert_invalid_fields(&whole, &["pageSize"]);
    let page = server.get(&format!("{variables}?pageSize=100")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.body["results"].as_array().unwrap().len(), 100);
}
