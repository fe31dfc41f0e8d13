//! The contract with the production platform's API document: every read this server serves that
//! the document also has is called on real records, and its answer checked against the
//! document's success codes and schema.

use std::collections::BTreeSet;

use crate::common;

use axum::http::Method;
use common::{concrete, records, TestServer};

/// Reads whose answers do not fit the document yet, each for a reason still to mend: the test
/// fails when one of them starts to fit (take it off) or when any other read stops fitting.
const NOT_YET_IN_THE_DOCUMENTS_SHAPE: &[&str] = &[
    // Containers name their registry by id only, and lack the maximums and auto_preview.
    "GET /environment/{environmentId}/container",
    "GET /container/{containerId}",
    // Jobs answer one shape for both kinds, not the document's CRON and LIFECYCLE variants.
    "GET /environment/{environmentId}/job",
    "GET /job/{jobId}",
];

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
    let mut misfits = BTreeSet::new();
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
            misfits.insert(operation.label());
            messages.push(format!("{}: {}", operation.label(), errors.join("; ")));
        }
    }
    let known: BTreeSet<String> = NOT_YET_IN_THE_DOCUMENTS_SHAPE
        .iter()
        .map(|label| label.to_string())
        .collect();
    println!(
        "contract: {shared} operations shared with the production document; {checked} reads checked, {} in its shapes, {} not yet",
        checked - misfits.len(),
        misfits.len()
    );
    let newly_broken: Vec<&String> = misfits.difference(&known).collect();
    let now_fitting: Vec<&String> = known.difference(&misfits).collect();
    assert!(
        newly_broken.is_empty(),
        "reads that do not fit the document:\n{}",
        messages
            .iter()
            .filter(|m| newly_broken
                .iter()
                .any(|label| m.starts_with(label.as_str())))
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        now_fitting.is_empty(),
        "these fit the document now; take them off NOT_YET_IN_THE_DOCUMENTS_SHAPE: {now_fitting:?}"
    );
    assert!(checked >= 60, "only {checked} reads checked");
}
