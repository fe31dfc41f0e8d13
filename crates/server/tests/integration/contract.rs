//! The contract with the production platform's API document: every read this server serves that
//! the document also has is called on real records, and its answer checked against the
//! document's success codes and schema.

use crate::common;

use axum::http::Method;
use common::{concrete, records, TestServer};

#[tokio::test]
async fn every_shared_read_answers_in_the_documents_shapes() {
    let document = contract::Document::production();
    let server = TestServer::new().await;
    let ids = records(&server).await;
    // Something deployed, so that statuses, history and logs have entries to check.
    let application = ids.id("application_id");
    let deploy = server
        .post(
            &format!("/api/application/{application}/deploy"),
            serde_json::json!({}),
        )
        .await;
    assert_eq!(deploy.status.as_u16(), 202, "{}", deploy.body);
    server.settled_status(application).await;

    let admin = format!("Token {}", server.token);
    let table = platform_server::routes::table(&server.state);
    let (mut shared, mut checked) = (0, 0);
    let mut messages = Vec::new();
    for rule in table.rules() {
        let Some(operation) = document.operation(rule.method.as_str(), &rule.path) else {
            continue;
        };
        shared += 1;
        if rule.method != Method::GET {
            continue;
        }
        checked += 1;
        let reply = server
            .call(Method::GET, &concrete(&rule.path, &ids), Some(&admin), None)
            .await;
        if let Err(errors) = operation.check_response(reply.status.as_u16(), &reply.body) {
            messages.push(format!("{}: {}", operation.label(), errors.join("; ")));
        }
    }
    println!(
        "contract: {shared} operations shared with the production document; {checked} reads checked, {} in its shapes",
        checked - messages.len()
    );
    assert!(
        messages.is_empty(),
        "reads that do not fit the document:\n{}",
        messages.join("\n")
    );
    assert!(checked >= 60, "only {checked} reads checked");
}
