//! The contract with the production platform's API document, write side: every POST, PUT and
//! DELETE this server serves that the document also has is called with a request the document
//! accepts (checked against its request schema first), and the answer checked against the
//! document's success codes and schema.

use std::collections::{BTreeMap, BTreeSet};

use crate::common;

use axum::http::Method;
use common::{concrete, fresh_variable, is_variable, records, Records, TestServer};
use serde_json::{json, Value};

/// Writes the document allows that the spec refuses, answered with a 400 naming the rule.
pub(crate) const REFUSED_BY_A_RULE_OF_THE_SPEC: &[(&str, &str)] = &[
    // A project is the highest scope: it has no variable or secret of a higher scope to
    // override.
    (
        "POST /project/{projectId}/environmentVariable/{environmentVariableId}/override",
        "variable_id",
    ),
    (
        "POST /project/{projectId}/secret/{secretId}/override",
        "variable_id",
    ),
];

#[tokio::test]
async fn every_shared_write_takes_the_documents_requests_and_answers_in_its_shapes() {
    let document = contract::Document::production();
    let server = TestServer::with_workers(2).await;
    // The server's own document must say the same of every one of these writes.
    let own = server.own_document().await;
    let (mut ids, commit) = prepared(&server).await;
    let (_receiver, received_at) = common::receiver::Receiver::start(0).await;
    ids.0
        .insert(ALERTS_RECEIVED_AT, format!("{received_at}/alerts"));
    let mut writes = hold_for_cancels(&server, &mut ids).await;
    let holding = writes.len();
    writes.extend(self::writes(&ids, &commit));

    let table = platform_server::routes::table(&server.state);
    let shared: BTreeMap<String, (Method, String)> = table
        .rules()
        .iter()
        .filter(|rule| rule.method != Method::GET)
        .filter_map(|rule| {
            let operation = document.operation(rule.method.as_str(), &rule.path)?;
            Some((operation.label(), (rule.method.clone(), rule.path.clone())))
        })
        .collect();
    let driven: BTreeSet<String> = writes
        .iter()
        .map(|(method, path, _)| {
            document
                .operation(method.as_str(), path)
                .unwrap_or_else(|| panic!("{method} {path} is not in the document"))
                .label()
        })
        .collect();
    // Only a person makes these: `people` holds each to the document.
    let of_people: BTreeSet<String> = crate::people::WRITES_OF_PEOPLE
        .iter()
        .filter_map(|(method, template)| document.operation(method, template))
        .map(|operation| operation.label())
        .collect();
    let undriven: Vec<&String> = shared
        .keys()
        .filter(|l| !driven.contains(*l) && !of_people.contains(*l))
        .collect();
    assert!(
        undriven.is_empty(),
        "shared writes without a request here: {undriven:?}"
    );

    let admin = format!("Token {}", server.token);
    let refused: BTreeMap<&str, &str> = REFUSED_BY_A_RULE_OF_THE_SPEC.iter().copied().collect();
    let mut messages = Vec::new();
    let mut own_messages = Vec::new();
    for (at, (method, template, body)) in writes.iter().enumerate() {
        if at == holding {
            release(&server, &ids).await;
        }
        let operation = document.operation(method.as_str(), template).unwrap();
        let label = operation.label();
        let own_operation = own
            .operation(method.as_str(), template)
            .unwrap_or_else(|| panic!("{label} is not in the server's own document"));
        if let Some(body) = body {
            if let Err(errors) = operation.check_request(body) {
                panic!("the request written for {label} is not the document's: {errors:?}");
            }
            if let Err(errors) = own_operation.check_request(body) {
                own_messages.push(format!("{label} request: {}", errors.join("; ")));
            }
        }
        // Each update and deletion of a variable or secret takes one of its own scope.
        let path = if is_variable(template) {
            fresh_variable(&server, &ids, template).await
        } else {
            concrete(template, &ids)
        };
        let text = body.as_ref().map(Value::to_string);
        let reply = server
            .call(method.clone(), &path, Some(&admin), text.as_deref())
            .await;
        if let Some(field) = refused.get(label.as_str()) {
            let named = reply.body["fields"]
                .as_array()
                .is_some_and(|fields| fields.iter().any(|f| f["field"] == *field));
            assert!(
                reply.status == 400 && named,
                "{label}: expected a 400 naming {field}, got {} {}",
                reply.status,
                reply.body
            );
            continue;
        }
        if let Err(errors) = operation.check_response(reply.status.as_u16(), &reply.body) {
            messages.push(format!("{label}: {}; {}", errors.join("; "), reply.body));
        }
        if let Err(errors) = own_operation.check_response(reply.status.as_u16(), &reply.body) {
            own_messages.push(format!(
                "{label} answer: {}; {}",
                errors.join("; "),
                reply.body
            ));
        }
        if is_action(template) {
            settle_services(&server, &ids).await;
        }
    }

    println!(
        "contract: {} writes shared with the production document, all driven; {} in its shapes, {} refused by a rule of the spec",
        shared.len(),
        shared.len() - messages.len() - refused.len(),
        refused.len(),
    );
    assert!(
        messages.is_empty(),
        "writes that do not fit the document:\n{}",
        messages.join("\n")
    );
    assert!(
        own_messages.is_empty(),
        "writes the server's own document does not describe:\n{}",
        own_messages.join("\n")
    );
    assert!(shared.len() >= 110, "only {} writes shared", shared.len());
}

/// The records every write needs, with variables of the highest scope for the overrides, a spare
/// service for the deletion of selected services, and a commit of the application's repository.
pub(crate) async fn prepared(server: &TestServer) -> (Records, String) {
    let mut ids = records(server).await;
    // Variables of the highest scope, for the overrides to override.
    for (parameter, key) in [
        ("project_variable_id", "OVERRIDDEN"),
        ("other_project_variable_id", "OVERRIDDEN_BY_VARIABLE"),
    ] {
        let created = server
            .post(
                &format!("/api/project/{}/environmentVariable", ids.id("project_id")),
                json!({"key": key, "value": "project"}),
            )
            .await;
        ids.0
            .insert(parameter, created.body["id"].as_str().unwrap().to_string());
    }
    let secret = server
        .post(
            &format!("/api/project/{}/secret", ids.id("project_id")),
            json!({"key": "OVERRIDDEN_SECRET", "value": "project"}),
        )
        .await;
    ids.0.insert(
        "project_secret_id",
        secret.body["id"].as_str().unwrap().to_string(),
    );
    // Clusters of their own for a deployment (one never deployed) and a stop (one deployed).
    for (parameter, name, deployed) in [
        ("fresh_cluster_id", "contract-fresh", false),
        ("deployed_cluster_id", "contract-deployed", true),
    ] {
        let created = server
            .post(
                &format!("/api/organization/{}/cluster", server.organization_id),
                json!({"name": name, "cloud_provider": "AWS", "region": "eu-west-1"}),
            )
            .await;
        let id = created.body["id"].as_str().unwrap().to_string();
        if deployed {
            let item = format!("/api/organization/{}/cluster/{id}", server.organization_id);
            server.post(&format!("{item}/deploy"), json!({})).await;
            server.settled_cluster(&format!("{item}/status")).await;
        }
        ids.0.insert(parameter, id);
    }
    // Files the checks before create find in the records' repository.
    platform_server::git::commit(
        ids.1.path(),
        "files the checks find",
        &[
            ("Dockerfile", "ARG VERSION\nFROM debian:bookworm\n"),
            ("Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n"),
        ],
    )
    .unwrap();
    // A service of its own for the deletion of selected services.
    let spare = server
        .application(ids.id("environment_id"), "contract-spare")
        .await;
    ids.0.insert("spare_application_id", spare);
    let commits = server
        .get(&format!(
            "/api/application/{}/commit",
            ids.id("application_id")
        ))
        .await;
    let commit = commits.body["results"][0]["git_commit_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no commit: {}", commits.body))
        .to_string();

    (ids, commit)
}

/// A client written against the platform may send any field its document names: none is
/// refused as unknown (the server refuses only fields neither it nor the document knows). Every
/// shared write is sent with every field of its request schema.
#[tokio::test]
async fn no_field_the_document_names_is_refused_as_unknown() {
    let document = contract::Document::production();
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let admin = format!("Token {}", server.token);
    let table = platform_server::routes::table(&server.state);
    let mut refused = BTreeSet::new();
    for rule in table
        .rules()
        .iter()
        .filter(|rule| rule.method != Method::GET)
    {
        let Some(operation) = document.operation(rule.method.as_str(), &rule.path) else {
            continue;
        };
        let Some(body) = operation.sample_request(contract::Fields::All) else {
            continue;
        };
        let path = if is_variable(&rule.path) {
            fresh_variable(&server, &ids, &rule.path).await
        } else {
            concrete(&rule.path, &ids)
        };
        let reply = server
            .call(
                rule.method.clone(),
                &path,
                Some(&admin),
                Some(&body.to_string()),
            )
            .await;
        for field in reply.body["fields"].as_array().into_iter().flatten() {
            if field["message"] == "is not a field of this request" {
                refused.insert(format!("{}: {}", operation.label(), field["field"]));
            }
        }
    }
    assert!(
        refused.is_empty(),
        "fields of the document refused as unknown:\n{}",
        refused.into_iter().collect::<Vec<_>>().join("\n")
    );
}

pub(crate) const SERVICE_KINDS: [&str; 6] = [
    "application",
    "container",
    "database",
    "job",
    "helm",
    "terraform",
];

pub(crate) fn is_action(template: &str) -> bool {
    [
        "/deploy",
        "/redeploy",
        "/stop",
        "/restart-service",
        "/uninstall",
    ]
    .iter()
    .any(|action| template.ends_with(action))
}

/// Waits for every service of the environment to leave its action, so that the next action
/// finds them at rest.
pub(crate) async fn settle_services(server: &TestServer, ids: &Records) {
    let statuses = concrete("/environment/{environment_id}/statuses", ids);
    for _ in 0..500 {
        let reply = server.get(&statuses).await;
        let body: platform_api::EnvironmentStatuses = serde_json::from_value(reply.body)
            .unwrap_or_else(|error| panic!("{statuses}: {error}"));
        if !body.any_in_progress() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the services of {statuses} never settled");
}

/// The document's cancels, with what they need: on a server of two workers
/// (`TestServer::with_workers(2)`), two services hang in a step, so that a third one's deploy waits
/// in the queue (`ids` gains its request as `deployment_request_id`). The calls are returned to be
/// driven in order: the waiting request canceled, then the environment's deployment; `release`
/// lets the services run again.
pub(crate) async fn hold_for_cancels(
    server: &TestServer,
    ids: &mut Records,
) -> Vec<(Method, String, Option<Value>)> {
    let hang = server
        .post(
            &concrete("/environment/{environment_id}/environmentVariable", ids),
            json!({"key": "PLATFORM_HANG_AT", "value": "DEPLOYMENT"}),
        )
        .await;
    ids.0.insert(
        "hang_variable_id",
        hang.body["id"].as_str().unwrap().to_string(),
    );
    for kind in ["application", "container"] {
        let path = concrete(&format!("/{kind}/{{{kind}_id}}/deploy"), ids);
        let deployed = server.post(&path, json!({})).await;
        assert_eq!(deployed.status, 202, "{path}: {}", deployed.body);
        // Until a worker has taken it, the next one might take the worker first.
        let queue = concrete(&format!("/service/{{{kind}_id}}/deploymentQueue"), ids);
        for _ in 0..500 {
            if server.get(&queue).await.body["results"] == json!([]) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }
    let waiting = server
        .post(&concrete("/database/{database_id}/deploy", ids), json!({}))
        .await;
    assert_eq!(
        waiting.body["status_details"]["status"], "QUEUED",
        "{}",
        waiting.body
    );
    ids.0.insert(
        "deployment_request_id",
        waiting.body["deployment_request_id"]
            .as_str()
            .unwrap()
            .to_string(),
    );
    vec![
        (
            Method::POST,
            "/deploymentQueue/{deployment_request_id}/cancelDeployment".into(),
            Some(json!({})),
        ),
        (
            Method::POST,
            "/environment/{environment_id}/cancelDeployment".into(),
            Some(json!({"force_cancel": true})),
        ),
    ]
}

/// After `hold_for_cancels`' calls: nothing hangs any more, every service at rest.
pub(crate) async fn release(server: &TestServer, ids: &Records) {
    let hang = concrete(
        "/environment/{environment_id}/environmentVariable/{hang_variable_id}",
        ids,
    );
    let auth = format!("Token {}", server.token);
    let deleted = server.call(Method::DELETE, &hang, Some(&auth), None).await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    settle_services(server, ids).await;
}

/// Every shared write, in an order that works (creations, then updates, then actions, then
/// deletions, deepest first), with a request body in the document's shapes.
/// The record naming where a receiver of alerts listens, when a test started one.
pub(crate) const ALERTS_RECEIVED_AT: &str = "alerts_received_at";

pub(crate) fn writes(ids: &Records, commit: &str) -> Vec<(Method, String, Option<Value>)> {
    let (post, put, delete) = (Method::POST, Method::PUT, Method::DELETE);
    let url = format!("file://{}", ids.1.path().display());
    let git = json!({"url": url, "branch": "main", "provider": "PROVIDER_C", "owner": "shop", "name": "web"});
    let registry = ids.id("container_registry_id");
    let organization = ids.id("organization_id");
    let project = ids.id("project_id");
    let environment = ids.id("environment_id");
    // Where alert receivers are tested: a receiver on loopback when the caller started one.
    let alerts = ids
        .0
        .get(ALERTS_RECEIVED_AT)
        .map_or("https://hooks.slack.com/services/test", String::as_str);
    let mut writes: Vec<(Method, String, Option<Value>)> = vec![
        // First, while the database of `records` runs.
        (
            post.clone(),
            "/database/{database_id}/backup".into(),
            Some(json!({"name": "contract-backup", "message": "taken by the contract test"})),
        ),
        // A new tag of the images the records' container and image job run, with auto-deploy
        // (before a clone copies them: each copy would be deployed too).
        (
            post.clone(),
            "/organization/{organization_id}/container/deploy".into(),
            Some(json!({"image_name": "library/nginx", "tag": "1.29"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/job/deploy".into(),
            Some(json!({"image_name": "tools/report", "tag": "2"})),
        ),
        // A preview of the environment running the container's image at another tag.
        (
            post.clone(),
            "/organization/{organization_id}/container/preview".into(),
            Some(json!({"image_name": "library/nginx", "tag": "1.30"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/project".into(),
            Some(json!({"name": "contract"})),
        ),
        (
            post.clone(),
            "/project/{project_id}/environment".into(),
            Some(json!({"name": "only-a-name"})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/application".into(),
            Some(json!({
            "name": "contract-app", "git_repository": git, "healthchecks": {}})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/container".into(),
            Some(json!({
            "name": "contract-container", "registry_id": registry, "image_name": "library/nginx",
            "tag": "1.27", "healthchecks": {}})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/database".into(),
            Some(json!({
            "name": "contract-db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/job".into(),
            Some(json!({
            "name": "contract-job", "healthchecks": {},
            "schedule": {"cronjob": {"scheduled_at": "0 3 * * *", "timezone": "Europe/Paris"}},
            "source": {"image": {"registry_id": registry, "image_name": "tools/backup", "tag": "2"}}})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/helm".into(),
            Some(json!({
            "name": "contract-helm", "auto_deploy": false, "arguments": [], "values_override": {},
            "source": {"git_repository": {"url": url, "branch": "main", "root_path": "/redis"}}})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/helm".into(),
            Some(json!({
                "name": "contract-chart", "auto_deploy": false, "arguments": [], "values_override": {},
                "source": {"helm_repository": {"repository": ids.id("helm_repository_id"),
                           "chart_name": "redis", "chart_version": "18.0.0"}}})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/terraform".into(),
            Some(terraform("contract-infra", &url)),
        ),
        (
            post.clone(),
            "/variable".into(),
            Some(json!({
            "key": "FROM_VARIABLE", "value": "1", "is_secret": false,
            "variable_scope": "ENVIRONMENT", "variable_parent_id": environment})),
        ),
        (
            post.clone(),
            "/variable/{variable_id}/alias".into(),
            Some(json!({
            "key": "ALIASED", "alias_scope": "APPLICATION", "alias_parent_id": ids.id("application_id")})),
        ),
        (
            post.clone(),
            "/variable/{other_project_variable_id}/override".into(),
            Some(json!({
            "value": "environment", "override_scope": "ENVIRONMENT", "override_parent_id": environment})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/apiToken".into(),
            Some(json!({
            "name": "deprecated scope", "scope": "ADMIN", "role_id": null})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/cluster".into(),
            Some(json!({
            "name": "contract-cluster", "region": "eu-west-3", "cloud_provider": "AWS"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/containerRegistry".into(),
            Some(json!({
            "name": "contract-registry", "kind": "GENERIC_CR", "url": "https://registry.example", "config": {}})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/customRole".into(),
            Some(json!({"name": "contract-role"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/gitToken".into(),
            Some(json!({
            "name": "contract-token", "type": "PROVIDER_C", "token": "contract-git-token"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/helmRepository".into(),
            Some(json!({
            "name": "contract-charts", "kind": "HTTPS", "url": "https://charts.example",
            "skip_tls_verification": false, "config": {}})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/labelsGroups".into(),
            Some(json!({
            "name": "contract-labels", "labels": [{"key": "team", "value": "web", "propagate_to_cloud_provider": false}]})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/annotationsGroups".into(),
            Some(json!({
            "name": "contract-annotations", "annotations": [{"key": "team", "value": "web"}],
            "scopes": ["DEPLOYMENTS"]})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/onPremise/credentials".into(),
            Some(json!({"name": "contract-rack"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/aws/credentials".into(),
            Some(json!({"type": "AWS_ROLE", "name": "contract-aws",
                        "role_arn": "arn:aws:iam::123456789012:role/deployer"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/scaleway/credentials".into(),
            Some(
                json!({"name": "contract-a", "provider_a_access_key": "SCW1",
                        "provider_a_secret_key": "s", "provider_a_project_id": "p",
                        "provider_a_organization_id": "o"}),
            ),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/gcp/credentials".into(),
            Some(
                json!({"name": "contract-e", "credential_type": "WORKLOAD_IDENTITY_FEDERATION",
                        "service_account_email": "deployer@acme.example",
                        "workload_identity_provider_resource":
                            "projects/42/locations/global/workloadIdentityPools/p/providers/q"}),
            ),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/azure/credentials".into(),
            Some(
                json!({"name": "contract-f", "provider_f_subscription_id": "sub-2",
                        "provider_f_tenant_id": "tenant-2"}),
            ),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/cluster/{cluster_id}/cloudProviderInfo".into(),
            Some(
                json!({"cloud_provider": "AWS", "credentials": {"id": ids.id("aws_credentials_id")},
                        "region": "eu-west-3"}),
            ),
        ),
        (
            put.clone(),
            "/cluster/{cluster_id}/dnsProvider".into(),
            Some(json!({"dns_provider": {
                "provider": "ROUTE53", "domain": "apps.contract.example",
                "credentials": {"type": "STATIC", "aws_access_key_id": "AKIACONTRACT",
                                "aws_secret_access_key": "contract-secret"},
                "aws_region": "eu-west-3", "hosted_zone_id": "Z0965488LE74BWDEVQDB"}})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/cluster/{cluster_id}/routingTable".into(),
            Some(
                json!({"routes": [{"destination": "10.9.0.0/16", "target": "pcx-0a1b2c3d",
                                    "description": "peered billing network"}]}),
            ),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/webhook".into(),
            Some(json!({
            "kind": "SLACK", "target_url": "https://hooks.slack.com/services/contract",
            "events": ["DEPLOYMENT_FAILURE"]})),
        ),
        (
            post.clone(),
            "/alert-receivers".into(),
            Some(json!({
            "organization_id": organization, "name": "contract-receiver", "description": "Pages",
            "type": "SLACK", "send_resolved": false, "webhook_url": "https://hooks.slack.com/services/receiver"})),
        ),
        // A test message, to the receiver on loopback the contract test starts.
        (
            post.clone(),
            "/alert-receivers/validate".into(),
            Some(json!({"message": "contract", "alert_receiver": {
            "organization_id": organization, "name": "contract-test", "description": "",
            "type": "SLACK", "send_resolved": false, "webhook_url": alerts}})),
        ),
        (
            post.clone(),
            "/alert-rules".into(),
            Some(json!({
            "organization_id": organization, "cluster_id": ids.id("environment_cluster_id"),
            "target": {"target_type": "APPLICATION", "target_id": ids.id("application_id")},
            "name": "contract-rule", "description": "Memory", "tag": "contract",
            "condition": {"kind": "CUSTOM", "promql": "max(container_memory_working_set_bytes{container=\"app-zweb\"})",
                          "operator": "ABOVE", "threshold": 1e9, "function": "NONE"},
            "for_duration": "PT5M", "severity": "LOW", "enabled": true,
            "alert_receiver_ids": [ids.id("alert_receiver_id")],
            "presentation": {"summary": "Memory grows", "runbook_url": "https://runbooks.example/memory"}})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/listTfVarsFilesFromGitRepo".into(),
            Some(json!({
            "git_repository": git, "mode": {"type": "SpecificPaths", "paths": []}})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/listDirectoriesFromGitRepository".into(),
            Some(git.clone()),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/parseTerraformVariablesFromGitRepo".into(),
            Some(json!({"git_repository": git})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/helmDefaultValues".into(),
            Some(json!({"source": {"git_repository": git}})),
        ),
        // Updates.
        (
            put.clone(),
            "/project/{project_id}".into(),
            Some(json!({"name": "shop", "description": "The shop"})),
        ),
        (
            put.clone(),
            "/environment/{environment_id}".into(),
            Some(json!({"name": "staging"})),
        ),
        (
            put.clone(),
            "/application/{application_id}".into(),
            Some(json!({
            "name": "web", "git_repository": git, "healthchecks": {}, "cpu": 500, "memory": 512})),
        ),
        (
            put.clone(),
            "/container/{container_id}".into(),
            Some(json!({
            "name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.28",
            "auto_deploy": true, "healthchecks": {}})),
        ),
        (
            put.clone(),
            "/database/{database_id}".into(),
            Some(json!({"name": "db", "version": "17"})),
        ),
        (
            put.clone(),
            "/job/{job_id}".into(),
            Some(json!({
            "name": "backup", "healthchecks": {},
            "schedule": {"on_start": {}, "lifecycle_type": "TERRAFORM"},
            "source": {"docker": {"git_repository": git, "dockerfile_path": "Dockerfile"}}})),
        ),
        (
            put.clone(),
            "/helm/{helm_id}".into(),
            Some(json!({
            "name": "redis", "auto_deploy": true, "arguments": ["--wait"],
            "values_override": {"set": [["auth.enabled", "false"]]},
            "source": {"git_repository": {"url": url, "branch": "main", "root_path": "/redis"}}})),
        ),
        (
            put.clone(),
            "/terraform/{terraform_id}".into(),
            Some(terraform("infra", &url)),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/cluster/{cluster_id}".into(),
            Some(json!({
            "name": "main", "region": "eu-west-3", "cloud_provider": "AWS"})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/containerRegistry/{container_registry_id}".into(),
            Some(json!({
            "name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example", "config": {}})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/customRole/{role_id}".into(),
            Some(json!({
            "name": "auditor", "cluster_permissions": [], "project_permissions": [
                {"project_id": project, "is_admin": false, "permissions": []}]})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/gitToken/{git_token_id}".into(),
            Some(json!({
            "name": "ci", "type": "PROVIDER_G", "workspace": "acme", "description": "CI reads",
            "token": "rotated-contract-git-token"})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/helmRepository/{helm_repository_id}".into(),
            Some(json!({
            "name": "charts", "kind": "HTTPS", "url": "https://charts.example",
            "skip_tls_verification": true, "config": {}})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/labelsGroups/{labels_group_id}".into(),
            Some(json!({
            "name": "team", "labels": []})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/annotationsGroups/{annotations_group_id}".into(),
            Some(json!({
            "name": "scrape", "annotations": [], "scopes": ["SERVICES"]})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}".into(),
            Some(json!({"name": "Acme", "plan": "FREE", "description": "Everything Acme runs"})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/onPremise/credentials/{credentials_id}".into(),
            Some(json!({"name": "rack-2"})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/aws/credentials/{aws_credentials_id}".into(),
            Some(
                json!({"type": "AWS_STATIC", "name": "prod-aws-2", "access_key_id": "AKIA2",
                        "secret_access_key": "rotated"}),
            ),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/scaleway/credentials/{provider_a_credentials_id}"
                .into(),
            Some(json!({"name": "prod-a-2", "provider_a_access_key": "SCW2",
                        "provider_a_secret_key": "rotated", "provider_a_project_id": "p2",
                        "provider_a_organization_id": "o2"})),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/gcp/credentials/{provider_e_credentials_id}".into(),
            Some(
                json!({"name": "prod-e-2", "credential_type": "SERVICE_ACCOUNT_KEY",
                        "provider_e_credentials": common::PROVIDER_E_KEY}),
            ),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/azure/credentials/{provider_f_credentials_id}".into(),
            Some(
                json!({"name": "prod-f-2", "provider_f_subscription_id": "sub-3",
                        "provider_f_tenant_id": "tenant-3"}),
            ),
        ),
        (
            put.clone(),
            "/organization/{organization_id}/webhook/{webhook_id}".into(),
            Some(json!({
            "kind": "STANDARD", "target_url": "https://hooks.example/deployments",
            "events": ["DEPLOYMENT_SUCCESSFUL"], "enabled": false})),
        ),
        (
            put.clone(),
            "/alert-rules/{alert_rule_id}".into(),
            Some(json!({
            "name": "High CPU", "description": "CPU", "tag": "preset",
            "condition": {"kind": "BUILT", "promql": "sum(rate(container_cpu_usage_seconds_total{container=\"app-zweb\"}[5m]))",
                          "operator": "ABOVE", "threshold": 0.9, "function": "NONE"},
            "for_duration": "PT10M", "severity": "HIGH", "enabled": false,
            "alert_receiver_ids": [ids.id("alert_receiver_id")], "presentation": {}})),
        ),
        (
            put.clone(),
            "/alert-receivers/{alert_receiver_id}".into(),
            Some(json!({
            "name": "on-call", "description": "Pages the on-call", "type": "SLACK",
            "send_resolved": true, "webhook_url": alerts})),
        ),
        (
            post.clone(),
            "/alert-receivers/{alert_receiver_id}/validate".into(),
            Some(json!({"message": "contract"})),
        ),
        // Copies: the environment, then each service into it.
        (
            post.clone(),
            "/environment/{environment_id}/clone".into(),
            Some(json!({"name": "contract-copy", "mode": "PREVIEW"})),
        ),
        // Before the cluster is locked below.
        (
            put.clone(),
            "/organization/{organization_id}/cluster/{cluster_id}/advancedSettings".into(),
            Some(json!({"loki.log_retention_in_week": 4, "aws.eks.efs.performance_mode": "maxIO"})),
        ),
        // Actions: the cluster's, then each service's, then the environment's.
        (post.clone(), "/cluster/{cluster_id}/upgrade".into(), None),
        // Checks before create, each finding what it looks for.
        (
            post.clone(),
            "/environment/{environment_id}/checkDockerfile".into(),
            Some(json!({"git_repository": git, "dockerfile_path": "Dockerfile"})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/checkHelmRepository".into(),
            Some(json!({"git_repository": git})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/checkGitFile".into(),
            Some(json!({"git_repository": git, "files": ["Dockerfile", "Chart.yaml"]})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/checkContainerImage".into(),
            Some(json!({"registry_id": ids.id("container_registry_id"),
                        "registry_d": ids.id("container_registry_id"),
                        "image_name": "library/nginx", "tag": "1.27"})),
        ),
        (
            post.clone(),
            "/organization/{organization_id}/cluster/{fresh_cluster_id}/deploy".into(),
            None,
        ),
        (
            post.clone(),
            "/organization/{organization_id}/cluster/{deployed_cluster_id}/stop".into(),
            None,
        ),
        (
            post.clone(),
            "/cluster/{cluster_id}/lock".into(),
            Some(json!({"reason": "contract freeze", "ttl_in_days": 1})),
        ),
        (
            post.clone(),
            "/application/{application_id}/deploy".into(),
            Some(json!({"git_commit_id": commit})),
        ),
        (
            post.clone(),
            "/container/{container_id}/deploy".into(),
            Some(json!({"image_tag": "1.29"})),
        ),
        (post.clone(), "/database/{database_id}/deploy".into(), None),
        (post.clone(), "/job/{job_id}/deploy".into(), Some(json!({}))),
        (
            post.clone(),
            "/helm/{helm_id}/deploy".into(),
            Some(json!({})),
        ),
        (
            post.clone(),
            "/terraform/{terraform_id}/deploy".into(),
            Some(json!({})),
        ),
    ];
    for kind in SERVICE_KINDS {
        writes.push((
            post.clone(),
            format!("/{kind}/{{{kind}_id}}/redeploy"),
            None,
        ));
    }
    for kind in SERVICE_KINDS {
        writes.push((
            post.clone(),
            format!("/{kind}/{{{kind}_id}}/clone"),
            Some(json!({"name": format!("{kind}-copy"), "environment_id": environment})),
        ));
    }
    for kind in ["application", "container", "database"] {
        writes.push((
            post.clone(),
            format!("/{kind}/{{{kind}_id}}/restart-service"),
            None,
        ));
    }
    for kind in ["application", "container", "database", "job", "helm"] {
        writes.push((post.clone(), format!("/{kind}/{{{kind}_id}}/stop"), None));
    }
    for kind in SERVICE_KINDS {
        writes.push((
            post.clone(),
            format!("/{kind}/{{{kind}_id}}/uninstall"),
            Some(json!({})),
        ));
    }
    writes.push((
        post.clone(),
        "/environment/{environment_id}/deploy".into(),
        None,
    ));
    writes.push((
        post.clone(),
        "/environment/{environment_id}/redeploy".into(),
        None,
    ));
    writes.push((
        post.clone(),
        "/environment/{environment_id}/stop".into(),
        None,
    ));
    writes.push((
        post.clone(),
        "/environment/{environment_id}/uninstall".into(),
        None,
    ));
    // Selected services: deployed, restarted, stopped and uninstalled together; a spare deleted.
    let (application, container) = (ids.id("application_id"), ids.id("container_id"));
    writes.extend([
        (
            post.clone(),
            "/environment/{environment_id}/service/deploy".into(),
            Some(json!({"applications": [{"application_id": application}],
                        "containers": [{"id": container}]})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/service/restart-service".into(),
            Some(json!({"application_ids": [application]})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/service/stop".into(),
            Some(json!({"container_ids": [container]})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/service/uninstall".into(),
            Some(json!({"container_ids": [container]})),
        ),
        (
            post.clone(),
            "/environment/{environment_id}/service/delete".into(),
            Some(json!({"application_ids": [ids.id("spare_application_id")]})),
        ),
    ]);

    // Variables and secrets of every scope: create, update, alias and override a project's
    // variable and secret.
    for (kind, parameter) in [
        ("project", "project_id"),
        ("environment", "environment_id"),
        ("application", "application_id"),
        ("container", "container_id"),
        ("job", "job_id"),
    ] {
        let scope = format!("/{kind}/{{{parameter}}}");
        writes.extend([
            (
                post.clone(),
                format!("{scope}/environmentVariable"),
                Some(json!({"key": "CONTRACT", "value": "1"})),
            ),
            (
                post.clone(),
                format!("{scope}/secret"),
                Some(json!({"key": "CONTRACT_SECRET", "value": "s"})),
            ),
            (
                post.clone(),
                format!("{scope}/environmentVariable/{{project_variable_id}}/override"),
                Some(json!({})),
            ),
            (
                post.clone(),
                format!("{scope}/secret/{{project_secret_id}}/override"),
                Some(json!({"value": "overridden"})),
            ),
            (
                post.clone(),
                format!("{scope}/environmentVariable/{{project_variable_id}}/alias"),
                Some(json!({"key": "CONTRACT_ALIAS"})),
            ),
            (
                post.clone(),
                format!("{scope}/secret/{{project_secret_id}}/alias"),
                Some(json!({"key": "CONTRACT_SECRET_ALIAS"})),
            ),
        ]);
    }
    // Imports, through a service, and at the services whose own import the document has.
    writes.push((
        post.clone(),
        "/variable/import?service_id={application_id}&service_type=APPLICATION".into(),
        Some(json!({"overwrite": false, "vars": [
            {"name": "IMPORTED_THROUGH", "value": "1", "scope": "ENVIRONMENT", "is_secret": false}]})),
    ));
    for (kind, parameter, scope) in [
        ("application", "application_id", "APPLICATION"),
        ("container", "container_id", "CONTAINER"),
        ("job", "job_id", "JOB"),
    ] {
        writes.push((
            post.clone(),
            format!("/{kind}/{{{parameter}}}/environmentVariable/import"),
            Some(json!({"overwrite": false, "vars": [
                {"name": "IMPORTED", "value": "1", "scope": scope, "is_secret": false}]})),
        ));
    }
    // Updates of a variable and a secret of each scope, on fresh ones (their keys differ).
    writes.extend(variable_updates());

    // Deletions, deepest first: variables, services, the environment and the project, then the
    // organization's resources they used.
    for (kind, parameter) in [
        ("project", "project_id"),
        ("environment", "environment_id"),
        ("application", "application_id"),
        ("container", "container_id"),
        ("job", "job_id"),
    ] {
        writes.push((
            delete.clone(),
            format!("/{kind}/{{{parameter}}}/environmentVariable/{{variable_id}}"),
            None,
        ));
        writes.push((
            delete.clone(),
            format!("/{kind}/{{{parameter}}}/secret/{{secret_id}}"),
            None,
        ));
    }
    for kind in ["application", "container", "helm"] {
        let collection = format!("/{kind}/{{{kind}_id}}/customDomain");
        writes.push((
            post.clone(),
            collection.clone(),
            Some(json!({"domain": format!("new-{kind}.shop.example.com"), "generate_certificate": false, "use_cdn": true})),
        ));
        let item = format!("{collection}/{{{kind}_domain_id}}");
        writes.push((
            put.clone(),
            item.clone(),
            Some(
                json!({"domain": format!("{kind}.shop.example.org"), "generate_certificate": true}),
            ),
        ));
        writes.push((delete.clone(), item, None));
    }
    writes.push((
        delete.clone(),
        "/database/{database_id}/backup/{backup_id}".into(),
        None,
    ));
    let rule = json!({"name": "nightly", "mode": "STAGING", "cluster_id": ids.id("cluster_id"),
                      "wildcard": "night-*", "auto_stop": false, "timezone": "Etc/UTC",
                      "start_time": "1970-01-01T06:00:00Z", "stop_time": "1970-01-01T22:00:00Z",
                      "weekdays": ["SATURDAY"]});
    writes.extend([
        // Before another rule is added: the order names each of the project's rules.
        (
            put.clone(),
            "/project/{project_id}/deploymentRule/order".into(),
            Some(json!({"project_deployment_rule_ids_in_order": [ids.id("project_rule_id")]})),
        ),
        (
            post.clone(),
            "/project/{project_id}/deploymentRule".into(),
            Some(rule.clone()),
        ),
        (
            put.clone(),
            "/project/{project_id}/deploymentRule/{project_rule_id}".into(),
            Some({
                let mut renamed = rule;
                renamed["name"] = json!("previews of pull requests");
                renamed
            }),
        ),
        (
            delete.clone(),
            "/project/{project_id}/deploymentRule/{project_rule_id}".into(),
            None,
        ),
        (
            put.clone(),
            "/environment/{environment_id}/deploymentRule/{environment_rule_id}".into(),
            Some(json!({"auto_stop": true, "timezone": "Europe/Paris",
                        "start_time": "1970-01-01T08:00:00.000Z", "stop_time": "1970-01-01T19:00:00.000Z",
                        "weekdays": ["MONDAY", "TUESDAY"]})),
        ),
    ]);
    writes.extend([
        (
            post.clone(),
            "/environment/{environment_id}/deploymentStage".into(),
            Some(json!({"name": "smoke", "description": "quick checks"})),
        ),
        (
            put.clone(),
            "/deploymentStage/{deployment_stage_id}".into(),
            Some(json!({"name": "checks", "description": "after the applications"})),
        ),
        (
            put.clone(),
            "/deploymentStage/{deployment_stage_id}/moveBefore/{stage_id}".into(),
            None,
        ),
        (
            put.clone(),
            "/deploymentStage/{deployment_stage_id}/moveAfter/{stage_id}".into(),
            None,
        ),
        (
            put.clone(),
            "/deploymentStage/{deployment_stage_id}/service/{service_id}".into(),
            Some(json!({"is_skipped": false})),
        ),
        (
            delete.clone(),
            "/deploymentStage/{deployment_stage_id}".into(),
            None,
        ),
    ]);
    for kind in ["application", "job", "helm", "terraform"] {
        let collection = format!("/{kind}/{{{kind}_id}}/deploymentRestriction");
        writes.push((
            post.clone(),
            collection.clone(),
            Some(json!({"mode": "MATCH", "type": "PATH", "value": format!("{kind}/src/")})),
        ));
        let item = format!("{collection}/{{{kind}_restriction_id}}");
        writes.push((
            put.clone(),
            item.clone(),
            Some(json!({"mode": "EXCLUDE", "type": "PATH", "value": "README.md"})),
        ));
        writes.push((delete.clone(), item, None));
    }
    for (kind, setting) in [
        ("application", "security.read_only_root_filesystem"),
        ("container", "security.read_only_root_filesystem"),
        ("job", "security.read_only_root_filesystem"),
        ("helm", "network.ingress.enable_sticky_session"),
        ("terraform", "security.read_only_root_filesystem"),
    ] {
        writes.push((
            put.clone(),
            format!("/{kind}/{{{kind}_id}}/advancedSettings"),
            Some(json!({ setting: true })),
        ));
    }
    writes.push((
        post.clone(),
        "/service/{service_id}/gitWebhook/sync".into(),
        None,
    ));
    // A client generated from the document sends the YAML as a JSON string.
    writes.push((
        put.clone(),
        "/organization/{organization_id}/cluster/{cluster_id}/kubeconfig".into(),
        Some(json!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: edge\n  cluster:\n    server: https://10.0.0.1:6443\n"
        )),
    ));
    for kind in ["application", "container"] {
        writes.push((
            put.clone(),
            format!("/{kind}/{{{kind}_id}}/network"),
            Some(json!({"sticky_session": true})),
        ));
    }
    // The custom role of `records` (READ).
    let read_role = ids.id("role_id");
    writes.push((
        post.clone(),
        "/organization/{organization_id}/inviteMember".into(),
        Some(json!({"email": "lin@example.com", "role": "VIEWER"})),
    ));
    writes.push((
        put.clone(),
        "/organization/{organization_id}/member".into(),
        Some(json!({"user_id": ids.id("member_id"), "role_id": read_role})),
    ));
    writes.push((
        delete.clone(),
        "/organization/{organization_id}/member".into(),
        Some(json!({"user_id": ids.id("member_id")})),
    ));
    writes.push((
        delete.clone(),
        "/organization/{organization_id}/inviteMember/{invitation_id}".into(),
        None,
    ));
    writes.push((delete.clone(), "/variable/{variable_id}".into(), None));
    writes.push((delete.clone(), "/cluster/{cluster_id}/lock".into(), None));
    for kind in SERVICE_KINDS {
        writes.push((delete.clone(), format!("/{kind}/{{{kind}_id}}"), None));
    }
    writes.push((delete.clone(), "/environment/{environment_id}".into(), None));
    writes.push((delete.clone(), "/project/{project_id}".into(), None));
    for (collection, parameter) in [
        ("apiToken", "api_token_id"),
        ("cluster", "cluster_id"),
        ("containerRegistry", "container_registry_id"),
        ("customRole", "role_id"),
        ("helmRepository", "helm_repository_id"),
        ("gitToken", "git_token_id"),
        ("labelsGroups", "labels_group_id"),
        ("annotationsGroups", "annotations_group_id"),
        ("onPremise/credentials", "credentials_id"),
        ("aws/credentials", "aws_credentials_id"),
        ("scaleway/credentials", "provider_a_credentials_id"),
        ("gcp/credentials", "provider_e_credentials_id"),
        ("azure/credentials", "provider_f_credentials_id"),
        ("webhook", "webhook_id"),
    ] {
        writes.push((
            delete.clone(),
            format!("/organization/{{organization_id}}/{collection}/{{{parameter}}}"),
            None,
        ));
    }
    writes.push((delete.clone(), "/alert-rules/{alert_rule_id}".into(), None));
    writes.push((delete, "/alert-receivers/{alert_receiver_id}".into(), None));
    writes
}

/// PUTs of a variable and a secret at every scope (the caller makes fresh ones to update), each
/// to a key of its own.
fn variable_updates() -> Vec<(Method, String, Option<Value>)> {
    let mut updates = vec![(
        Method::PUT,
        "/variable/{variable_id}".to_string(),
        Some(json!({"key": "UPDATED_THROUGH_VARIABLE", "value": "info"})),
    )];
    for (kind, parameter) in [
        ("project", "project_id"),
        ("environment", "environment_id"),
        ("application", "application_id"),
        ("container", "container_id"),
        ("job", "job_id"),
    ] {
        updates.push((
            Method::PUT,
            format!("/{kind}/{{{parameter}}}/environmentVariable/{{variable_id}}"),
            Some(json!({"key": format!("UPDATED_{}", kind.to_uppercase()), "value": "warn"})),
        ));
        updates.push((
            Method::PUT,
            format!("/{kind}/{{{parameter}}}/secret/{{secret_id}}"),
            Some(json!({"key": format!("UPDATED_{}_SECRET", kind.to_uppercase()), "value": "rotated"})),
        ));
    }
    updates
}

/// A terraform service in the document's request shape.
fn terraform(name: &str, url: &str) -> Value {
    json!({
        "name": name, "description": "Infrastructure",
        "auto_deploy_config": {"auto_deploy": false, "terraform_action": "DEFAULT"},
        "terraform_files_source": {"git_repository": {"url": url, "branch": "main", "root_path": "/"}},
        "terraform_variables_source": {"tf_var_file_paths": [], "tf_vars": [
            {"key": "region", "value": "eu-west-3", "secret": false}]},
        "backend": {"kubernetes": {}},
        "engine": "TERRAFORM",
        "provider_version": {"explicit_version": "1.9.0", "read_from_terraform_block": false},
        "job_resources": {"cpu_milli": 500, "ram_mib": 512, "gpu": 0, "storage_gib": 1},
        "timeout_sec": 600,
    })
}
