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
pub(crate) fn fuzzed_path(
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

/// Bodies generated per operation for the bounds' cases: optional fields are there half the time.
const BODIES_PER_OPERATION: usize = 3;

/// A pattern that takes a backtracking matcher exponential time, and one that recurses once per
/// character: sent where a string goes, they are answered like any other value.
fn pathological_patterns() -> [String; 2] {
    [
        format!("{}b", "*a".repeat(100)),
        format!("{}x", "*".repeat(60_000)),
    ]
}

/// Every string field of every route's body, sent 100,000 characters long, is refused naming
/// that field; sent as a pathological pattern, it is answered (no 5xx) like any other value.
#[tokio::test]
async fn every_string_of_every_route_is_bounded() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let document = server.own_document().await;
    let mut fuzzer = contract::Fuzzer::new(&document, SEED ^ 0xb0_u64);
    let admin = format!("Token {}", server.token);
    let mut rules: Vec<_> = platform_server::routes::table(&server.state)
        .rules()
        .to_vec();
    rules.sort_by_key(|rule| rule.method == Method::DELETE);
    let long = "x".repeat(100_000);
    let (mut cases, mut fields) = (0, std::collections::BTreeSet::new());
    let mut failures = Vec::new();
    for rule in &rules {
        let operation = document
            .operation(rule.method.as_str(), &rule.path)
            .unwrap_or_else(|| panic!("{} {} is not documented", rule.method, rule.path));
        let Some(schema) = operation.request_schema() else {
            continue;
        };
        let (mut path, _) = fuzzed_path(&mut fuzzer, &rule.path, &ids, 0);
        let query: Vec<String> = operation
            .query_parameters()
            .into_iter()
            .filter(|(_, _, required)| *required)
            // Values a parameter takes, so that the body is what is put to the test.
            .map(|(name, schema, _)| {
                let first = document.resolve(schema)["enum"][0]
                    .as_str()
                    .map(str::to_string);
                let value = ids.0.get(name).cloned().or(first);
                format!(
                    "{name}={}",
                    value.unwrap_or_else(|| fuzzer.query_value(schema))
                )
            })
            .collect();
        if !query.is_empty() {
            path = format!(
                "{}?{}",
                path.split('?').next().unwrap_or(&path),
                query.join("&")
            );
        }
        for _ in 0..BODIES_PER_OPERATION {
            let body = fuzzer.body(schema);
            for (field, pointer) in string_leaves(&body) {
                fields.insert(format!("{} {} {field}", rule.method, rule.path));
                let [pattern, stars] = pathological_patterns();
                for (value, bounded) in [(long.clone(), true), (pattern, false), (stars, false)] {
                    let mut sent = body.clone();
                    *sent.pointer_mut(&pointer).unwrap() = Value::String(value);
                    let reply = server
                        .call(
                            rule.method.clone(),
                            &path,
                            Some(&admin),
                            Some(&sent.to_string()),
                        )
                        .await;
                    cases += 1;
                    let named = reply.body["fields"]
                        .as_array()
                        .is_some_and(|named| named.iter().any(|f| f["field"] == field.as_str()));
                    let kept = if bounded {
                        reply.status == 400 && named
                    } else {
                        !reply.status.is_server_error()
                    };
                    if !kept {
                        let what = if bounded { "100,000 long" } else { "a pattern" };
                        failures.push(format!(
                            "{} {path} with {field} {what}: {} {}",
                            rule.method, reply.status, reply.body
                        ));
                    }
                }
            }
        }
    }
    println!(
        "bounds: {} string fields of {} operations, {cases} cases, {} failures",
        fields.len(),
        rules.len(),
        failures.len()
    );
    assert!(
        fields.len() > 300,
        "only {} string fields were tried",
        fields.len()
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

/// Each string of `body`: the field as the server names it (`ports[0].name`), and its JSON
/// pointer.
fn string_leaves(body: &Value) -> Vec<(String, String)> {
    fields(body)
        .into_iter()
        .filter(|(_, pointer)| body.pointer(pointer).is_some_and(Value::is_string))
        .collect()
}

/// Each value of `body`, the body itself included: the field as the server names it
/// (`ports[0].name`, `body` for the whole), and its JSON pointer.
pub(crate) fn fields(body: &Value) -> Vec<(String, String)> {
    fn walk(value: &Value, field: String, pointer: String, found: &mut Vec<(String, String)>) {
        let named = if field.is_empty() {
            "body".to_string()
        } else {
            field.clone()
        };
        found.push((named, pointer.clone()));
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    walk(
                        item,
                        format!("{field}[{index}]"),
                        format!("{pointer}/{index}"),
                        found,
                    );
                }
            }
            Value::Object(object) => {
                for (key, item) in object {
                    let inner = if field.is_empty() {
                        key.clone()
                    } else {
                        format!("{field}.{key}")
                    };
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    walk(item, inner, format!("{pointer}/{escaped}"), found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(body, String::new(), String::new(), &mut found);
    found
}
