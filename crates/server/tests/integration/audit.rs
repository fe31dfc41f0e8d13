//! The audit log: every mutating route of the route table writes exactly one entry (with the
//! right event and target) when it succeeds and none when it fails; entries carry no secret; the
//! log pages and filters as the production document's `GET /organization/{id}/events` does.

use std::collections::BTreeSet;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::common::{self, concrete, fresh_variable, is_variable, Records, TestServer};
use crate::contract_writes::{
    hold_for_cancels, is_action, prepared, release, settle_services, writes,
    REFUSED_BY_A_RULE_OF_THE_SPEC, SERVICE_KINDS,
};

/// Mutating routes that change nothing a person would audit, with the reason.
const NOT_AUDITED: &[(&str, &str, &str)] = &[
    (
        "DELETE",
        "/organization/{organization_id}",
        "the organization goes with its audit log; the server's log says who deleted it",
    ),
    (
        "POST",
        "/service/{service_id}/gitWebhook/sync",
        "reads the service's branch now; a push it acts on is audited as the push's deployment",
    ),
    (
        "POST",
        "/organization/{organization_id}/webhook/{webhook_id}/test",
        "sends a sample event to the webhook; nothing of the organization changes",
    ),
    (
        "POST",
        "/organization/{organization_id}/listTfVarsFilesFromGitRepo",
        "reads a repository's files (a read the document makes a POST)",
    ),
    (
        "POST",
        "/organization/{organization_id}/listDirectoriesFromGitRepository",
        "reads a repository's folders (a read the document makes a POST)",
    ),
    (
        "POST",
        "/organization/{organization_id}/parseTerraformVariablesFromGitRepo",
        "reads a repository's files (a read the document makes a POST)",
    ),
    (
        "POST",
        "/environment/{environment_id}/helmDefaultValues",
        "reads a chart's values file (a read the document makes a POST)",
    ),
    (
        "POST",
        "/environment/{environment_id}/checkDockerfile",
        "reads a repository's file (a read the document makes a POST)",
    ),
    (
        "POST",
        "/environment/{environment_id}/checkContainerImage",
        "reads what the organization's containers run (a read the document makes a POST)",
    ),
    (
        "POST",
        "/environment/{environment_id}/checkHelmRepository",
        "reads a repository's file (a read the document makes a POST)",
    ),
    (
        "POST",
        "/environment/{environment_id}/checkGitFile",
        "reads a repository's files (a read the document makes a POST)",
    ),
    (
        "POST",
        "/alert-receivers/validate",
        "sends a test message to a receiver not saved; nothing of the organization changes",
    ),
    (
        "POST",
        "/alert-receivers/{alert_receiver_id}/validate",
        "sends a test message to the receiver; nothing of the organization changes",
    ),
];

/// The entries written for callers: not those the engine writes as actions end.
async fn entry_count(server: &TestServer) -> i64 {
    let (count,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM audit_events WHERE origin != 'QOVERY_INTERNAL'")
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    count
}

async fn newest_entry(server: &TestServer, ids: &Records) -> Value {
    let page = server
        .get(&format!(
            "/api/organization/{}/events?pageSize=1&origin=API",
            ids.id("organization_id")
        ))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    page.body["events"][0].clone()
}

/// The event a successful call of `method template` records.
fn expected_event(method: &Method, template: &str) -> &'static str {
    let path = template.split('?').next().unwrap_or_default();
    let last = path.rsplit('/').next().unwrap_or_default();
    match (method.as_str(), last) {
        ("POST", "deploy" | "upgrade") => "TRIGGER_DEPLOY",
        ("POST", "restart-service" | "restart") => "TRIGGER_RESTART",
        ("POST", "stop") => "TRIGGER_STOP",
        ("POST", "uninstall") => "TRIGGER_UNINSTALL",
        ("POST", "cancel" | "cancelDeployment") => "TRIGGER_CANCEL",
        ("POST", "redeploy") => "TRIGGER_REDEPLOY",
        // A preview environment is a clone.
        ("POST", "clone" | "preview") => "CLONE",
        ("POST", "import") => "IMPORT",
        ("POST", "bulk") => "UPDATE",
        // Choosing the credentials a cluster is reached with changes the cluster.
        ("POST", "cloudProviderInfo") => "UPDATE",
        ("POST", "lock") => "LOCK",
        ("DELETE", "lock") => "UNLOCK",
        // A backup takes the database's data out.
        ("POST", "backup") => "EXPORT",
        // The deletion of selected services.
        ("POST", "delete") => "DELETE",
        ("PUT", _) => "UPDATE",
        ("DELETE", _) => "DELETE",
        _ => "CREATE",
    }
}

/// Every UUID written in `text`.
fn uuids(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_hexdigit() || c == '-'))
        .filter(|word| uuid::Uuid::parse_str(word).is_ok() && word.len() == 36)
        .map(str::to_string)
        .collect()
}

/// Whether a driven template (whose parameters may be named otherwise) is the route `rule`.
fn same_route(template: &str, rule: &str) -> bool {
    let template = template.split('?').next().unwrap_or_default();
    let parameter = |segment: &str| segment.starts_with('{');
    let (ours, theirs): (Vec<&str>, Vec<&str>) =
        (template.split('/').collect(), rule.split('/').collect());
    ours.len() == theirs.len()
        && ours
            .iter()
            .zip(&theirs)
            .all(|(a, b)| a == b || parameter(a) && parameter(b))
}

/// Calls `method template` as the admin token and checks what the audit log gained: one entry
/// naming the event, the target and the caller when it succeeds; none when it fails or changes
/// nothing audited. The reply's body.
async fn drive(
    server: &TestServer,
    ids: &Records,
    (method, template, body): &(Method, String, Option<Value>),
    refused: bool,
) -> Value {
    let path = if is_variable(template) {
        fresh_variable(server, ids, template).await
    } else {
        concrete(template, ids)
    };
    let before = entry_count(server).await;
    let text = body.as_ref().map(Value::to_string);
    let admin = format!("Token {}", server.token);
    let reply = server
        .call(method.clone(), &path, Some(&admin), text.as_deref())
        .await;
    let label = format!("{method} {template}");
    let added = entry_count(server).await - before;
    let exempt = NOT_AUDITED
        .iter()
        .any(|(m, route, _)| *m == method.as_str() && same_route(template, route));
    if !reply.status.is_success() || exempt {
        assert!(
            refused || exempt,
            "{label} failed: {} {}",
            reply.status,
            reply.body
        );
        assert_eq!(
            added, 0,
            "{label} answered {} yet wrote {added} audit entries",
            reply.status
        );
        return reply.body;
    }
    assert_eq!(added, 1, "{label} wrote {added} audit entries");
    let entry = newest_entry(server, ids).await;
    assert_eq!(
        entry["event_type"],
        expected_event(method, template),
        "{label}: {entry}"
    );
    assert!(
        entry["triggered_by"]
            .as_str()
            .is_some_and(|who| who.starts_with("API token ")),
        "{label}: {entry}"
    );
    assert_eq!(entry["origin"], "API", "{label}");
    let mut reachable = uuids(&path);
    reachable.extend(uuids(&text.unwrap_or_default()));
    reachable.extend(uuids(&reply.body.to_string()));
    // An entry may name the environment of a service the answer names (a preview's).
    for id in uuids(&reply.body.to_string()) {
        let environment: Option<(String,)> =
            sqlx::query_as("SELECT environment_id FROM services WHERE id = ?")
                .bind(&id)
                .fetch_optional(&server.state.db)
                .await
                .unwrap();
        reachable.extend(environment.map(|(environment,)| environment));
    }
    // A deployment request's entry names its service.
    for id in uuids(&path) {
        let service: Option<(String,)> =
            sqlx::query_as("SELECT service_id FROM deployments WHERE id = ?")
                .bind(&id)
                .fetch_optional(&server.state.db)
                .await
                .unwrap();
        reachable.extend(service.map(|(service,)| service));
    }
    // A deleted deployment stage's entry names its environment, as the stage it records did.
    if entry["sub_target_type"] == "DEPLOYMENT_STAGE" {
        let before: Value =
            serde_json::from_str(entry["original_change"].as_str().unwrap_or("null")).unwrap();
        reachable.extend(before["environment"]["id"].as_str().map(str::to_string));
    }
    let target = entry["target_id"].as_str().unwrap_or_default();
    let of_a_variable =
        ["VARIABLE", "SECRET"].contains(&entry["sub_target_type"].as_str().unwrap_or(""));
    assert!(
        reachable.contains(target) || of_a_variable,
        "{label}: the entry's target {target} is none of the request's: {entry}"
    );
    if entry["event_type"] == "UPDATE" {
        assert!(
            entry["original_change"].is_string() && entry["change"] != "",
            "{label}: an update records the target before and after: {entry}"
        );
    }
    if is_action(template) || template.ends_with("/restart") || template.ends_with("/cancel") {
        settle_services(server, ids).await;
    }
    reply.body
}

/// The mutating routes the production document does not have, each called once in an order
/// that works, with what they need around them.
async fn drive_our_own_routes(
    server: &TestServer,
    ids: &mut Records,
) -> BTreeSet<(String, String)> {
    let (post, put, delete) = (Method::POST, Method::PUT, Method::DELETE);
    let mut driven = BTreeSet::new();
    let mut run = |call: (Method, String, Option<Value>)| {
        driven.insert((call.0.to_string(), call.1.clone()));
        call
    };
    // Cancels: every kind deployed while a step never ends, then canceled.
    let hang = drive(
        server,
        ids,
        &run((
            post.clone(),
            "/environment/{environment_id}/environmentVariable".into(),
            Some(json!({"key": "PLATFORM_HANG_AT", "value": "DEPLOY"})),
        )),
        false,
    )
    .await;
    ids.0
        .insert("hang_variable_id", hang["id"].as_str().unwrap().to_string());
    for kind in SERVICE_KINDS {
        // Deployed without `drive`, which would wait for it to settle: it waits for the cancel.
        let path = concrete(&format!("/{kind}/{{{kind}_id}}/deploy"), ids);
        let deployed = server.post(&path, json!({})).await;
        assert_eq!(
            deployed.status,
            StatusCode::ACCEPTED,
            "{path}: {}",
            deployed.body
        );
        let cancel = run((post.clone(), format!("/{kind}/{{{kind}_id}}/cancel"), None));
        drive(server, ids, &cancel, false).await;
    }
    drive(
        server,
        ids,
        &(
            delete.clone(),
            "/environment/{environment_id}/environmentVariable/{hang_variable_id}".into(),
            None,
        ),
        false,
    )
    .await;
    // Actions on running services: the environment deployed first.
    drive(
        server,
        ids,
        &(
            post.clone(),
            "/environment/{environment_id}/deploy".into(),
            None,
        ),
        false,
    )
    .await;
    for call in [
        (
            post.clone(),
            "/environment/{environment_id}/restart".to_string(),
            None,
        ),
        (post.clone(), "/job/{job_id}/restart-service".into(), None),
        (post.clone(), "/helm/{helm_id}/restart-service".into(), None),
        (
            post.clone(),
            "/terraform/{terraform_id}/restart-service".into(),
            None,
        ),
        (post.clone(), "/terraform/{terraform_id}/stop".into(), None),
    ] {
        drive(server, ids, &run(call), false).await;
    }
    // Imports at the scopes the document has none for.
    for (scope, parameter, name) in [
        ("project", "project_id", "PROJECT"),
        ("environment", "environment_id", "ENVIRONMENT"),
        ("helm", "helm_id", "HELM"),
        ("terraform", "terraform_id", "TERRAFORM"),
    ] {
        let body = json!({"overwrite": false, "vars": [
            {"name": format!("IMPORTED_AT_{name}"), "value": "1", "scope": name, "is_secret": false}]});
        let call = (
            post.clone(),
            format!("/{scope}/{{{parameter}}}/environmentVariable/import"),
            Some(body),
        );
        drive(server, ids, &run(call), false).await;
    }
    // Bulk changes at every scope: a variable set.
    for (scope, parameter) in [
        ("project", "project_id"),
        ("environment", "environment_id"),
        ("application", "application_id"),
        ("container", "container_id"),
        ("job", "job_id"),
        ("helm", "helm_id"),
        ("terraform", "terraform_id"),
    ] {
        let call = (
            post.clone(),
            format!("/{scope}/{{{parameter}}}/environmentVariable/bulk"),
            Some(json!({"set": [{"key": "SET_IN_BULK", "value": "1"}]})),
        );
        drive(server, ids, &run(call), false).await;
    }
    // Variables and secrets of helm charts and terraform services.
    for kind in ["helm", "terraform"] {
        let scope = format!("/{kind}/{{{kind}_id}}");
        for call in [
            (
                post.clone(),
                format!("{scope}/environmentVariable"),
                Some(json!({"key": "AUDITED", "value": "1"})),
            ),
            (
                post.clone(),
                format!("{scope}/secret"),
                Some(json!({"key": "AUDITED_SECRET", "value": "s"})),
            ),
            (
                post.clone(),
                format!("{scope}/environmentVariable/{{project_variable_id}}/override"),
                Some(json!({"value": "overridden"})),
            ),
            (
                post.clone(),
                format!("{scope}/secret/{{project_secret_id}}/override"),
                Some(json!({"value": "overridden"})),
            ),
            (
                post.clone(),
                format!("{scope}/environmentVariable/{{project_variable_id}}/alias"),
                Some(json!({"key": "AUDITED_ALIAS"})),
            ),
            (
                post.clone(),
                format!("{scope}/secret/{{project_secret_id}}/alias"),
                Some(json!({"key": "AUDITED_SECRET_ALIAS"})),
            ),
            (
                put.clone(),
                format!("{scope}/environmentVariable/{{variable_id}}"),
                Some(json!({"key": format!("AUDITED_UPDATE_{kind}"), "value": "2"})),
            ),
            (
                put.clone(),
                format!("{scope}/secret/{{secret_id}}"),
                Some(json!({"key": format!("AUDITED_SECRET_UPDATE_{kind}"), "value": "t"})),
            ),
            (
                delete.clone(),
                format!("{scope}/environmentVariable/{{variable_id}}"),
                None,
            ),
            (
                delete.clone(),
                format!("{scope}/secret/{{secret_id}}"),
                None,
            ),
        ] {
            drive(server, ids, &run(call), false).await;
        }
    }
    // An annotations group of its own, created, changed and deleted.
    let groups = "/organization/{organization_id}/annotationsGroups";
    let created = drive(
        server,
        ids,
        &run((
            post.clone(),
            groups.into(),
            Some(
                json!({"name": "audited", "annotations": [{"key": "team", "value": "a"}],
                        "scopes": ["DEPLOYMENTS"]}),
            ),
        )),
        false,
    )
    .await;
    ids.0.insert(
        "fresh_group_id",
        created["id"].as_str().unwrap().to_string(),
    );
    let group = format!("{groups}/{{fresh_group_id}}");
    for call in [
        (
            put.clone(),
            group.clone(),
            Some(
                json!({"name": "audited", "annotations": [{"key": "team", "value": "b"}],
                        "scopes": ["DEPLOYMENTS"]}),
            ),
        ),
        (delete.clone(), group, None),
    ] {
        drive(server, ids, &run(call), false).await;
    }
    // A cluster locked and unlocked.
    let lock = "/cluster/{cluster_id}/lock".to_string();
    for call in [
        (
            post.clone(),
            lock.clone(),
            Some(json!({"reason": "audit", "ttl_in_days": 1})),
        ),
        (delete.clone(), lock, None),
    ] {
        drive(server, ids, &run(call), false).await;
    }
    // Changes nothing audited: checked to write nothing.
    drive(
        server,
        ids,
        &run((
            post,
            "/organization/{organization_id}/webhook/{webhook_id}/test".into(),
            None,
        )),
        false,
    )
    .await;
    driven
}

#[tokio::test]
async fn every_mutating_route_writes_exactly_one_audit_entry() {
    let server = TestServer::with_workers(2).await;
    drive_every_write(&server).await;
}

/// Calls every mutating route of the route table once, each checked to write its one audit
/// entry.
pub async fn drive_every_write(server: &TestServer) {
    let (mut ids, commit) = prepared(server).await;
    let document = contract::Document::production();
    let mut driven = drive_our_own_routes(server, &mut ids).await;
    // Only a person makes these: `people` checks the entry each writes.
    driven.extend(
        crate::people::WRITES_OF_PEOPLE
            .iter()
            .map(|(method, template)| (method.to_string(), template.to_string())),
    );
    for call in hold_for_cancels(server, &mut ids).await {
        driven.insert((call.0.to_string(), call.1.clone()));
        drive(server, &ids, &call, false).await;
    }
    release(server, &ids).await;
    let refused: Vec<&str> = REFUSED_BY_A_RULE_OF_THE_SPEC
        .iter()
        .map(|(l, _)| *l)
        .collect();
    for call in writes(&ids, &commit) {
        let label = document
            .operation(call.0.as_str(), &call.1)
            .map(|operation| operation.label())
            .unwrap_or_default();
        driven.insert((call.0.to_string(), call.1.clone()));
        drive(server, &ids, &call, refused.contains(&label.as_str())).await;
    }
    let table = platform_server::routes::table(&server.state);
    let undriven: Vec<String> = table
        .rules()
        .iter()
        .filter(|rule| rule.method != Method::GET)
        .filter(|rule| {
            !driven.iter().any(|(method, template)| {
                *method == rule.method.as_str() && same_route(template, &rule.path)
            })
        })
        .map(|rule| format!("{} {}", rule.method, rule.path))
        .collect();
    assert!(
        undriven.is_empty(),
        "mutating routes whose audit entry no test checks (drive them here): {undriven:?}"
    );
    println!(
        "audit: {} mutating routes, each checked ({} write nothing audited)",
        table
            .rules()
            .iter()
            .filter(|rule| rule.method != Method::GET)
            .count(),
        NOT_AUDITED.len()
    );
}

#[tokio::test]
async fn a_failed_request_writes_no_entry() {
    let server = TestServer::new().await;
    let (project, environment, application) = server.hierarchy().await;
    let organization = server.organization_id.clone();
    let read_only = server.token_with_role("READ").await;
    let before = entry_count(&server).await;
    let failures = [
        // A rule broken: the name is empty.
        server
            .post(
                &format!("/api/organization/{organization}/project"),
                json!({"name": ""}),
            )
            .await,
        // A name taken.
        server
            .post(
                &format!("/api/project/{project}/environment"),
                json!({"name": "staging"}),
            )
            .await,
        // Nothing there.
        server
            .call(
                Method::DELETE,
                &format!("/api/project/{}", uuid::Uuid::new_v4()),
                Some(&format!("Token {}", server.token)),
                None,
            )
            .await,
        // One bad line of an import: nothing of it is written.
        server
            .post(
                &format!("/api/application/{application}/environmentVariable/import"),
                json!({"overwrite": false, "vars": [
                    {"name": "GOOD", "value": "1", "scope": "APPLICATION", "is_secret": false},
                    {"name": "1BAD", "value": "1", "scope": "APPLICATION", "is_secret": false}]}),
            )
            .await,
        // A role that may not write.
        server
            .call(
                Method::PUT,
                &format!("/api/environment/{environment}"),
                Some(&format!("Token {read_only}")),
                Some(&json!({"name": "renamed"}).to_string()),
            )
            .await,
        // Nothing runs to cancel.
        server
            .post(&format!("/api/application/{application}/cancel"), json!({}))
            .await,
    ];
    for reply in &failures {
        assert!(!reply.status.is_success(), "{}", reply.body);
    }
    assert_eq!(entry_count(&server).await, before);
}

#[tokio::test]
async fn entries_hold_no_secret_and_show_what_changed() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let organization = server.organization_id.clone();
    let secrets = ["first-secret-value-81", "second-secret-value-82"];
    let created = server
        .post(
            &format!("/api/application/{application}/secret"),
            json!({"key": "DB_PASSWORD", "value": secrets[0]}),
        )
        .await;
    let secret_id = created.body["id"].as_str().unwrap().to_string();
    server
        .put(
            &format!("/api/application/{application}/secret/{secret_id}"),
            json!({"key": "DB_PASSWORD", "value": secrets[1], "description": "rotated"}),
        )
        .await;
    let token = server.api_token("READ").await;
    let events = server
        .get(&format!(
            "/api/organization/{organization}/events?pageSize=100"
        ))
        .await;
    let text = events.body.to_string();
    for secret in secrets.iter().copied().chain(token["token"].as_str()) {
        assert!(!text.contains(secret), "a secret in the audit log: {text}");
    }
    let update = &events.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|event| event["event_type"] == "UPDATE" && event["sub_target_type"] == "SECRET")
        .unwrap_or_else(|| panic!("no secret update: {text}"))
        .clone();
    assert_eq!(update["target_type"], "APPLICATION");
    assert_eq!(update["target_id"], application.as_str());
    assert_eq!(update["changed_secrets"], json!(["value"]));
    let event: platform_api::audit::OrganizationEvent =
        serde_json::from_value(update.clone()).unwrap();
    let changes: Vec<String> = event.field_changes().into_iter().map(|c| c.path).collect();
    assert_eq!(changes, ["description"], "{update}");
}

#[tokio::test]
async fn the_log_pages_and_filters_as_the_document_says() {
    let server = TestServer::new().await;
    let organization = server.organization_id.clone();
    let mut projects = Vec::new();
    for name in ["alpha", "beta", "gamma", "delta", "epsilon"] {
        projects.push(server.project(name).await);
    }
    server
        .put(
            &format!("/api/project/{}", projects[0]),
            json!({"name": "alpha-2"}),
        )
        .await;
    let events = format!("/api/organization/{organization}/events");

    // Newest first, two by two through `links.next`, then back through `links.previous`.
    let mut seen = Vec::new();
    let mut pages = Vec::new();
    let mut next = Some(format!("{events}?pageSize=2&targetType=PROJECT"));
    while let Some(link) = next {
        let path = link
            .find("/api/")
            .map_or(link.as_str(), |at| &link[at..])
            .to_string();
        let page = server.get(&path).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        seen.extend(
            page.body["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["id"].clone()),
        );
        pages.push(page.body.clone());
        next = page.body["links"]["next"].as_str().map(str::to_string);
    }
    assert_eq!(seen.len(), 6, "5 creations and 1 update");
    assert_eq!(pages.len(), 3);
    assert_eq!(pages[0]["events"][0]["event_type"], "UPDATE");
    assert!(pages[0]["links"]["previous"].is_null());
    let back = pages[1]["links"]["previous"].as_str().unwrap();
    let back = server.get(&back[back.find("/api/").unwrap()..]).await;
    assert_eq!(back.body["events"], pages[0]["events"]);

    // Filters: the target, the event, who, the origin, the time range.
    let only = |query: String| {
        let server = &server;
        let events = events.clone();
        async move {
            let page = server.get(&format!("{events}?pageSize=100&{query}")).await;
            assert_eq!(page.status, StatusCode::OK, "{query}: {}", page.body);
            page.body["events"].as_array().unwrap().clone()
        }
    };
    let of_alpha = only(format!("targetId={}", projects[0])).await;
    assert_eq!(of_alpha.len(), 2);
    assert!(of_alpha
        .iter()
        .all(|e| e["project_name"] == "alpha-2" || e["project_name"] == "alpha"));
    assert_eq!(only("eventType=UPDATE".into()).await.len(), 1);
    assert!(only("origin=CONSOLE".into()).await.is_empty());
    let who = of_alpha[0]["triggered_by"]
        .as_str()
        .unwrap()
        .replace(' ', "%20");
    assert_eq!(
        only(format!("triggeredBy={who}&targetType=PROJECT"))
            .await
            .len(),
        6
    );
    let update_at =
        chrono::DateTime::parse_from_rfc3339(of_alpha[0]["timestamp"].as_str().unwrap())
            .unwrap()
            .timestamp_nanos_opt()
            .unwrap();
    assert_eq!(only(format!("fromTimestamp={update_at}")).await.len(), 1);
    assert_eq!(
        only(format!("toTimestamp={}&targetType=PROJECT", update_at - 1))
            .await
            .len(),
        5
    );

    // A request from a browser (it sends `Origin`) is the console's.
    let admin = format!("Token {}", server.token);
    let request = axum::http::Request::builder()
        .method(Method::POST)
        .uri(format!("/api/organization/{organization}/project"))
        .header("authorization", admin)
        .header("content-type", "application/json")
        .header("origin", "https://console.example")
        .header("user-agent", "Mozilla/5.0 (audit test)")
        .body(axum::body::Body::from(
            json!({"name": "from-a-browser"}).to_string(),
        ))
        .unwrap();
    assert_eq!(server.send(request).await.status, StatusCode::OK);
    let console = only("origin=CONSOLE".into()).await;
    assert_eq!(console.len(), 1);
    assert_eq!(console[0]["user_agent"], "Mozilla/5.0 (audit test)");

    // Bad parameters are named.
    let bad = server
        .get(&format!("{events}?pageSize=0&fromTimestamp=yesterday"))
        .await;
    common::assert_invalid_fields(&bad, &["pageSize", "fromTimestamp"]);
}

#[tokio::test]
async fn a_deleted_or_expired_token_refused_is_recorded_once_a_minute() {
    let server = TestServer::new().await;
    let organization = server.organization_id.clone();
    let tokens = format!("/api/organization/{organization}/apiToken");
    let deleted = server.api_token("READ").await;
    let deleted_id = deleted["id"].as_str().unwrap();
    let reply = server
        .call(
            Method::DELETE,
            &format!("{tokens}/{deleted_id}"),
            Some(&format!("Token {}", server.token)),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    let expiring = server
        .post(
            &tokens,
            json!({"name": "short-lived", "role_id": server.role_id("READ").await,
                   "expires_at": (chrono::Utc::now() + chrono::Duration::milliseconds(600)).to_rfc3339()}),
        )
        .await;
    assert_eq!(expiring.status, StatusCode::CREATED, "{}", expiring.body);
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    for (token, reason) in [
        (deleted["token"].as_str().unwrap(), "deleted"),
        (expiring.body["token"].as_str().unwrap(), "expired"),
    ] {
        for _ in 0..3 {
            let refused = server
                .call(
                    Method::GET,
                    "/api/organization",
                    Some(&format!("Token {token}")),
                    None,
                )
                .await;
            assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
            assert!(
                refused.body.to_string().contains(reason),
                "{}",
                refused.body
            );
        }
    }
    let refusals = server
        .get(&format!(
            "/api/organization/{organization}/events?eventType=ACCESS_REFUSED"
        ))
        .await;
    let events = refusals.body["events"].as_array().unwrap();
    let names: Vec<&str> = events
        .iter()
        .map(|e| e["target_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["short-lived", deleted["name"].as_str().unwrap()],
        "{}",
        refusals.body
    );
    assert!(events.iter().all(|e| e["sub_target_type"] == "API_TOKEN"));
    let text = refusals.body.to_string();
    assert!(!text.contains(deleted["token"].as_str().unwrap()));
}

#[tokio::test]
async fn an_actions_history_says_where_it_was_asked_from() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let deploy = format!("/api/application/{application}/deploy");
    let from_a_browser = axum::http::Request::builder()
        .method(Method::POST)
        .uri(&deploy)
        .header("authorization", format!("Token {}", server.token))
        .header("content-type", "application/json")
        .header("origin", "https://console.example")
        .body(axum::body::Body::from("{}"))
        .unwrap();
    assert_eq!(
        server.send(from_a_browser).await.status,
        StatusCode::ACCEPTED
    );
    server.settled_status(&application).await;
    let again = server.post(&deploy, json!({})).await;
    assert_eq!(again.status, StatusCode::ACCEPTED);
    server.settled_status(&application).await;
    let history = server
        .get(&format!(
            "/api/application/{application}/deploymentHistoryV2"
        ))
        .await;
    let origins: Vec<&str> = history.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["auditing_data"]["origin"].as_str().unwrap())
        .collect();
    assert_eq!(origins, ["API", "CONSOLE"], "newest first");
}
