//! `/api/openapi.json` tells the truth: every read the server serves, called on real records, and
//! every write of the contract's table, answer as the server's own document says (codes and
//! schemas), and the document takes the requests the server takes.

use crate::common;

use axum::http::Method;
use common::{concrete, fresh_variable, is_variable, records, TestServer};

#[tokio::test]
async fn every_read_answers_as_the_servers_own_document_says() {
    let server = TestServer::new().await;
    let document = server.own_document().await;
    let ids = records(&server).await;
    let application = ids.id("application_id");
    server
        .post(
            &format!("/api/application/{application}/deploy"),
            serde_json::json!({}),
        )
        .await;
    server.settled_status(application).await;

    let admin = format!("Token {}", server.token);
    let table = platform_server::routes::table(&server.state);
    let mut checked = 0;
    let mut messages = Vec::new();
    for rule in table
        .rules()
        .iter()
        .filter(|rule| rule.method == Method::GET)
    {
        let operation = document
            .operation(rule.method.as_str(), &rule.path)
            .unwrap_or_else(|| panic!("GET {} is not in the server's document", rule.path));
        checked += 1;
        // A variable of the route's own scope.
        let path = if is_variable(&rule.path) {
            fresh_variable(&server, &ids, &rule.path).await
        } else {
            concrete(&rule.path, &ids)
        };
        let reply = server.call(Method::GET, &path, Some(&admin), None).await;
        if let Err(errors) = operation.check_response(reply.status.as_u16(), &reply.body) {
            messages.push(format!("{}: {}", operation.label(), errors.join("; ")));
        }
    }
    println!(
        "own document: {checked} reads checked, {} as it says",
        checked - messages.len()
    );
    assert!(messages.is_empty(), "{}", messages.join("\n"));
}
