//! Every operation of the server's own document (`/api/openapi.json`) fuzzed with requests
//! generated from its schemas (`contract::Fuzzer`, seeded): real and unknown and malformed ids in
//! the path, bodies mostly valid and sometimes not, tokens present or not. For every case: no
//! 5xx; the answer is one the document gives for the operation (code and schema); and a body the
//! document accepts is refused only for a stated rule (a 400 naming the field, or a 400 of its
//! own code), never as malformed.
//!
//! Bounded in cases, not in time: `CASES_PER_OPERATION` per operation.

use crate::common;

use axum::http::Method;
use common::{concrete, records, TestServer};
use serde_json::Value;

const CASES_PER_OPERATION: usize = 24;
const SEED: u64 = 0x5eed_2026;

#[tokio::test]
async fn the_servers_document_holds_under_fuzzing() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let document = server.own_document().await;
    let mut fuzzer = contract::Fuzzer::new(&document, SEED);
    let admin = format!("Token {}", server.token);

    let mut rules: Vec<_> = platform_server::routes::table(&server.state)
        .rules()
        .to_vec();
    // Deletions last, so that the records the other operations need live until then.
    rules.sort_by_key(|rule| rule.method == Method::DELETE);
    let (mut cases, mut valid_bodies) = (0, 0);
    let mut failures = Vec::new();
    for rule in &rules {
        let operation = document
            .operation(rule.method.as_str(), &rule.path)
            .unwrap_or_else(|| panic!("{} {} is not documented", rule.method, rule.path));
        for case in 0..CASES_PER_OPERATION {
            let (mut path, malformed_path) = fuzzed_path(&mut fuzzer, &rule.path, &ids, case);
            let query: Vec<String> = operation
                .query_parameters()
                .into_iter()
                .filter(|(_, _, required)| *required || case % 2 == 0)
                .map(|(name, schema, _)| {
                    let value = fuzzer.query_value(schema);
                    format!(
                        "{name}={}",
                        url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
                    )
                })
                .collect();
            if !query.is_empty() {
                // Replaces the query `concrete` gives the variable list.
                path = format!(
                    "{}?{}",
                    path.split('?').next().unwrap_or(&path),
                    query.join("&")
                );
            }
            let body = operation.request_schema().map(|schema| fuzzer.body(schema));
            let text = body.as_ref().map(Value::to_string);
            let authorization = if case % 8 == 7 {
                None
            } else {
                Some(admin.as_str())
            };
            let reply = server
                .call(rule.method.clone(), &path, authorization, text.as_deref())
                .await;
            cases += 1;
            let status = reply.status.as_u16();
            let label = format!("{} {path} {}", rule.method, text.as_deref().unwrap_or(""));
            if status >= 500 {
                failures.push(format!("{label}: answered {status} {}", reply.body));
                continue;
            }
            if let Err(errors) = operation.check_documented(status, &reply.body) {
                failures.push(format!("{label}: {} {}", errors.join("; "), reply.body));
            }
            let accepted_by_document = !malformed_path
                && body
                    .as_ref()
                    .is_some_and(|body| operation.check_request(body).is_ok());
            if accepted_by_document {
                valid_bodies += 1;
                // A body the document takes may break a stated rule, not be refused as malformed.
                if status == 400 && reply.body["error"] == "BAD_REQUEST" {
                    failures.push(format!("{label}: a valid body refused: {}", reply.body));
                }
            }
        }
    }
    println!(
        "fuzz: {} operations, {cases} cases ({valid_bodies} bodies the document accepts), {} failures",
        rules.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures; the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The route's path with its parameters filled: mostly the real records, sometimes an unknown
/// id, sometimes one that is not a uuid (then `true`: the request breaks the document).
fn fuzzed_path(
    fuzzer: &mut contract::Fuzzer,
    template: &str,
    ids: &common::Records,
    case: usize,
) -> (String, bool) {
    let real = concrete(template, ids);
    if !template.contains('{') {
        return (real, false);
    }
    match case % 6 {
        4 => (replace_ids(&real, &uuid::Uuid::new_v4().to_string()), false),
        5 => {
            let malformed = fuzzer.pick(&["not-a-uuid", "%00", "..", "0"]);
            (replace_ids(&real, malformed), true)
        }
        _ => (real, false),
    }
}

/// `path` with its last uuid segment replaced by `with`.
fn replace_ids(path: &str, with: &str) -> String {
    let mut segments: Vec<String> = path.split('/').map(str::to_string).collect();
    if let Some(last) = segments
        .iter_mut()
        .rev()
        .find(|segment| uuid::Uuid::parse_str(segment.split('?').next().unwrap_or("")).is_ok())
    {
        *last = with.to_string();
    }
    segments.join("/")
}
