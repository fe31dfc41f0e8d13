//! `GET /api/openapi.json`: an OpenAPI 3 document of every route the router serves.

use crate::common;

use std::collections::{BTreeSet, HashSet};

use axum::http::{Method, StatusCode};
use common::TestServer;
use serde_json::Value;

#[tokio::test]
async fn every_route_served_is_documented() {
    let server = TestServer::new().await;
    let reply = server
        .call(Method::GET, "/api/openapi.json", None, None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "the document needs no token");
    let document = reply.body;
    assert!(document["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(
        document["info"]["title"],
        "Deployment Platform Management API"
    );

    let rules = platform_server::routes::table(&server.state)
        .rules()
        .to_vec();
    for rule in &rules {
        let method = rule.method.as_str().to_lowercase();
        let operation = &document["paths"][rule.path.as_str()][&method];
        assert!(
            operation.is_object(),
            "{} {} is not documented",
            rule.method,
            rule.path
        );
        assert!(operation["summary"].is_string(), "{}", rule.path);
        assert_eq!(
            operation["security"].as_array().map(Vec::len),
            Some(2),
            "{}",
            rule.path
        );
        for status in [
            "400", "401", "403", "404", "409", "413", "414", "415", "429", "431", "503",
        ] {
            assert!(
                operation["responses"][status].is_object(),
                "{} {status}",
                rule.path
            );
        }
        let in_path = operation["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|parameter| parameter["in"] == "path")
            .count();
        assert_eq!(in_path, rule.path.matches('{').count(), "{}", rule.path);
    }
    // The query parameters the server reads are documented, with their bounds.
    let history = &document["paths"]["/application/{application_id}/deploymentHistoryV2"]["get"];
    let page_size = history["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|parameter| parameter["name"] == "pageSize" && parameter["in"] == "query")
        .expect("pageSize is documented");
    assert_eq!(page_size["schema"]["maximum"], 100.0);
    let variables = &document["paths"]["/variable"]["get"]["parameters"];
    assert!(variables.to_string().contains("parent_id"), "{variables}");
    let documented: usize = document["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    assert_eq!(documented, rules.len() + 1, "the table plus /openapi.json");
    let schemes = &document["components"]["securitySchemes"];
    assert_eq!(schemes["ApiToken"]["type"], "apiKey");
    assert_eq!(schemes["AccessToken"]["scheme"], "bearer");
}

#[tokio::test]
async fn operation_ids_are_unique_and_every_reference_resolves() {
    let server = TestServer::new().await;
    let document = server
        .call(Method::GET, "/api/openapi.json", None, None)
        .await
        .body;
    let mut ids = HashSet::new();
    for item in document["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            let id = operation["operationId"].as_str().unwrap().to_string();
            assert!(ids.insert(id.clone()), "operationId {id} is used twice");
        }
    }
    let schemas = document["components"]["schemas"].as_object().unwrap();
    for name in [
        "Project",
        "ProjectRequest",
        "Application",
        "Status",
        "ErrorBody",
        "ServiceState",
    ] {
        assert!(schemas.contains_key(name), "{name} missing");
    }
    let mut references = Vec::new();
    collect_references(&document, &mut references);
    assert!(!references.is_empty());
    for reference in references {
        let name = reference
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("unexpected reference {reference}"));
        assert!(schemas.contains_key(name), "{reference} does not resolve");
    }
    // The request schema says what is required.
    let required = &schemas["ProjectRequest"]["required"];
    assert_eq!(required, &serde_json::json!(["name"]));
}

fn collect_references(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                found.push(reference.clone());
            }
            map.values().for_each(|v| collect_references(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_references(v, found)),
        _ => {}
    }
}

/// Each path the console fills in (`platform_api::paths`) is one the route table serves: the two
/// sides write it once, there.
#[tokio::test]
async fn every_shared_path_template_is_a_route() {
    let server = TestServer::new().await;
    let served: HashSet<String> = platform_server::routes::table(&server.state)
        .rules()
        .iter()
        .map(|rule| rule.path.clone())
        .collect();
    // The one route outside the table: an invitation is accepted without a token.
    let outside = platform_api::paths::INVITATION_ACCEPT;
    for template in platform_api::paths::ALL.iter().filter(|t| **t != outside) {
        assert!(served.contains(template.0), "{template} is no route");
    }
    let accepted = server
        .call(Method::POST, &format!("/api{outside}"), None, Some("{}"))
        .await;
    assert_ne!(accepted.status, StatusCode::NOT_FOUND, "{outside}");
    for kind in platform_api::ServiceType::ALL {
        assert!(served.contains(&kind.item_template()), "{kind:?}");
    }
}

/// Every route's success codes, as the server's document states them (which the fuzzer holds
/// every answer to), are codes the production document gives the operation.
#[tokio::test]
async fn every_routes_success_codes_are_the_production_documents() {
    let server = TestServer::new().await;
    let own = server.own_document().await;
    let production = contract::Document::production();
    let mut differing = Vec::new();
    for rule in platform_server::routes::table(&server.state).rules() {
        let method = rule.method.as_str().to_lowercase();
        let Some(theirs) = production.operation(&method, &rule.path) else {
            continue;
        };
        let ours = own
            .operation(&method, &rule.path)
            .unwrap_or_else(|| panic!("{} {} is not documented", rule.method, rule.path));
        let (ours, theirs) = (ours.success_codes(), theirs.success_codes());
        if ours.iter().any(|code| !theirs.contains(code)) {
            differing.push(format!(
                "{} {}: {ours:?}, the document {theirs:?}",
                rule.method, rule.path
            ));
        }
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}

/// The production document's operations this server does not serve are the ones
/// `docs/unserved-operations.md` lists, each under the reason it is not: the list stays true as
/// routes are added.
#[tokio::test]
async fn the_unserved_operations_are_the_ones_the_docs_list() {
    let server = TestServer::new().await;
    let production = contract::Document::production();
    let served: HashSet<(String, String)> = platform_server::routes::table(&server.state)
        .rules()
        .iter()
        .filter_map(|rule| {
            let method = rule.method.as_str().to_lowercase();
            let operation = production.operation(&method, &rule.path)?;
            Some((operation.method.to_uppercase(), operation.path.to_string()))
        })
        .collect();
    let unserved: BTreeSet<(String, String)> = production
        .operations()
        .map(|operation| (operation.method.to_uppercase(), operation.path.to_string()))
        .filter(|operation| !served.contains(operation))
        .collect();
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/unserved-operations.md"),
    )
    .expect("docs/unserved-operations.md");
    // `- \`GET /organization/{organizationId}/billingInfo\``
    let listed: BTreeSet<(String, String)> = docs
        .lines()
        .filter_map(|line| line.strip_prefix("- `")?.split_once('`'))
        .filter_map(|(operation, _)| operation.split_once(' '))
        .map(|(method, path)| (method.to_string(), path.to_string()))
        .collect();
    let total = production.operations().count();
    println!(
        "{} of the document's {total} operations served, {} not",
        total - unserved.len(),
        unserved.len()
    );
    let missing: Vec<_> = unserved.difference(&listed).collect();
    let served_but_listed: Vec<_> = listed.difference(&unserved).collect();
    assert!(
        missing.is_empty() && served_but_listed.is_empty(),
        "docs/unserved-operations.md lacks {missing:?} and lists served or unknown ones {served_but_listed:?}"
    );
}
