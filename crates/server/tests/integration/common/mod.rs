//! A server on a temporary database, called in-process through `tower::ServiceExt::oneshot`.

#![allow(dead_code)]

pub mod oidc;
pub mod receiver;
pub mod smtp;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use platform_server::{app, prepare, AppState, Config};
use serde_json::{json, Value};
use tempfile::TempDir;
use tower::ServiceExt;

/// Engine speed of the tests: a 43 s deployment takes about 43 ms.
pub const FAST: f64 = 1000.0;

pub struct TestServer {
    pub router: Router,
    pub state: AppState,
    pub token: String,
    pub organization_id: String,
    pub dir: TempDir,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Value,
}

pub fn config(dir: &TempDir) -> Config {
    Config {
        engine_speed: FAST,
        identity_provider: Some(oidc::shared().provider()),
        rate_limit_per_minute: 100_000,
        webhook_retry_base: std::time::Duration::from_millis(20),
        // The tests' webhook receivers listen on loopback.
        allowed_target_networks: vec![LOOPBACK.parse().unwrap()],
        // The tests' repositories are temporary folders.
        git_roots: vec![std::env::temp_dir()],
        ..Config::local(dir.path().to_path_buf())
    }
}

/// The network of the tests' receivers, which a server allows only when told to.
pub const LOOPBACK: &str = "127.0.0.0/8";

impl TestServer {
    pub async fn new() -> Self {
        Self::in_dir(TempDir::new().unwrap()).await
    }

    /// A server on the database in `dir`, created or reopened.
    pub async fn in_dir(dir: TempDir) -> Self {
        let config = config(&dir);
        Self::with_config(dir, config).await
    }

    /// A server of `workers` engine workers: with few, an action can be held in the queue.
    pub async fn with_workers(workers: usize) -> Self {
        let dir = TempDir::new().unwrap();
        let mut config = config(&dir);
        config.engine_workers = workers;
        Self::with_config(dir, config).await
    }

    /// A server on the database in `dir` started with `config` (its sign-in token renewed).
    pub async fn with_config(dir: TempDir, mut config: Config) -> Self {
        config.new_sign_in_token = true;
        let (state, outcome) = prepare(&config).await.unwrap();
        let router = app(state.clone(), None);
        let mut server = Self {
            router,
            state,
            token: outcome.sign_in_token.unwrap(),
            organization_id: String::new(),
            dir,
        };
        server.organization_id = server.get("/api/organization").await.body["results"][0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        server
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        authorization: Option<&str>,
        body: Option<&str>,
    ) -> Reply {
        let mut request = Request::builder().method(method).uri(path);
        if let Some(authorization) = authorization {
            request = request.header("Authorization", authorization);
        }
        if body.is_some() {
            request = request.header("Content-Type", "application/json");
        }
        let request = request
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        self.send(request).await
    }

    /// The server's own OpenAPI document, read as the contract reads the production one.
    pub async fn own_document(&self) -> contract::Document {
        let reply = self
            .call(Method::GET, "/api/openapi.json", None, None)
            .await;
        contract::Document::from_yaml(&reply.body.to_string())
    }

    /// Sends a request built whole (its own headers), and reads the answer.
    pub async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = headers
            .get(axum::http::header::CONTENT_TYPE)
            .is_some_and(|media| {
                media.as_bytes().starts_with(b"application/x-yaml")
                    || media.as_bytes().starts_with(b"application/octet-stream")
                    || media.as_bytes().starts_with(b"text/plain")
            });
        let body = if bytes.is_empty() {
            Value::Null
        } else if text {
            // A text the document answers as YAML (a kubeconfig), as a file (an export) or as
            // plain text (a chart's values).
            Value::String(String::from_utf8(bytes.to_vec()).expect("a text answer is UTF-8"))
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| panic!("{status} answered a body that is not JSON: {bytes:?}"))
        };
        Reply {
            status,
            headers,
            body,
        }
    }

    /// A page of the server that is not JSON (`/run/…`), unauthenticated: its status and text.
    pub async fn page(&self, path: &str) -> (StatusCode, String) {
        let request = Request::builder().uri(path).body(Body::empty()).unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The `Authorization` header of the server's token.
    pub fn auth(&self) -> String {
        format!("Token {}", self.token)
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.call(Method::GET, path, Some(&self.auth()), None).await
    }

    /// What the engine wrote for the service `service_id`: the lines of its environment's log
    /// (`GET /environment/{id}/logs`, of the execution `version` when given) that name it,
    /// oldest first, the last `tail` when given, as `{"results": [{"message", "execution_id"}]}`.
    pub async fn service_log(
        &self,
        service_id: &str,
        version: Option<&str>,
        tail: Option<usize>,
    ) -> Value {
        let (environment,): (String,) =
            sqlx::query_as("SELECT environment_id FROM services WHERE id = ?")
                .bind(service_id)
                .fetch_one(&self.state.db)
                .await
                .expect("the service exists");
        let query = version.map(|v| format!("?version={v}")).unwrap_or_default();
        let reply = self
            .get(&format!("/api/environment/{environment}/logs{query}"))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        let lines: Vec<Value> = reply
            .body
            .as_array()
            .expect("a bare array")
            .iter()
            .filter(|line| line["details"]["transmitter"]["id"] == service_id)
            .map(|line| {
                serde_json::json!({
                    "message": line["message"]["safe_message"],
                    "execution_id": line["details"]["execution_id"],
                })
            })
            .collect();
        let skipped = tail.map_or(0, |tail| lines.len().saturating_sub(tail));
        serde_json::json!({ "results": lines[skipped..] })
    }

    pub async fn put(&self, path: &str, body: Value) -> Reply {
        self.call(
            Method::PUT,
            path,
            Some(&self.auth()),
            Some(&body.to_string()),
        )
        .await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.call(
            Method::POST,
            path,
            Some(&self.auth()),
            Some(&body.to_string()),
        )
        .await
    }

    pub async fn project(&self, name: &str) -> String {
        let reply = self
            .post(
                &format!("/api/organization/{}/project", self.organization_id),
                json!({"name": name}),
            )
            .await;
        // The production document creates a project with 200, not 201.
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        reply.body["id"].as_str().unwrap().to_string()
    }

    pub async fn environment(&self, project_id: &str, name: &str) -> String {
        let reply = self
            .post(
                &format!("/api/project/{project_id}/environment"),
                json!({"name": name, "mode": "STAGING"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body["id"].as_str().unwrap().to_string()
    }

    /// A new environment of the project on a new cluster of `cloud_provider` in `region`.
    pub async fn environment_on(
        &self,
        project_id: &str,
        name: &str,
        cloud_provider: &str,
        region: &str,
    ) -> String {
        let cluster = self
            .create(
                &format!("/api/organization/{}/cluster", self.organization_id),
                json!({"name": format!("{name}-cluster"), "cloud_provider": cloud_provider, "region": region}),
            )
            .await;
        self.create(
            &format!("/api/project/{project_id}/environment"),
            json!({"name": name, "mode": "STAGING", "cluster_id": cluster}),
        )
        .await
    }

    /// Creates a record with `body` at `path` (201 expected) and returns its id.
    pub async fn create(&self, path: &str, body: Value) -> String {
        let reply = self.post(path, body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{path}: {}", reply.body);
        reply.body["id"].as_str().unwrap().to_string()
    }

    /// A container registry of the organization, with no credentials.
    pub async fn container_registry(&self) -> String {
        self.create(
            &format!(
                "/api/organization/{}/containerRegistry",
                self.organization_id
            ),
            json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example"}),
        )
        .await
    }

    /// A helm repository of the organization, with no credentials.
    pub async fn helm_repository(&self) -> String {
        self.create(
            &format!("/api/organization/{}/helmRepository", self.organization_id),
            json!({"name": "bitnami", "kind": "HTTPS", "url": "https://charts.example"}),
        )
        .await
    }

    pub async fn application(&self, environment_id: &str, name: &str) -> String {
        let reply = self
            .post(
                &format!("/api/environment/{environment_id}/application"),
                json!({"name": name, "git_repository": {"url": "https://git.example.com/a/b.git"}}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body["id"].as_str().unwrap().to_string()
    }

    /// A project, an environment and an application; returns their ids.
    pub async fn hierarchy(&self) -> (String, String, String) {
        let (project, environment) = self.staging().await;
        let application = self.application(&environment, "web").await;
        (project, environment, application)
    }

    /// The cluster the environment runs on.
    pub async fn cluster_of(&self, environment: &str) -> String {
        self.get(&format!("/api/environment/{environment}"))
            .await
            .body["cluster_id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// A project `shop` and its environment `staging`: `(project, environment)`.
    pub async fn staging(&self) -> (String, String) {
        let project = self.project("shop").await;
        let environment = self.environment(&project, "staging").await;
        (project, environment)
    }

    /// The secret of a new API token of `role` (ADMIN, WRITE, DEPLOY, READ).
    pub async fn token_with_role(&self, role: &str) -> String {
        self.api_token(role).await["token"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The id of the organization's role named `name`.
    pub async fn role_id(&self, name: &str) -> String {
        let roles = self
            .get(&format!(
                "/api/organization/{}/customRole",
                self.organization_id
            ))
            .await;
        roles.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|role| role["name"] == name)
            .unwrap_or_else(|| panic!("no role {name}: {}", roles.body))["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Creates an API token of `role` through the API; the answer carries the secret.
    pub async fn api_token(&self, role: &str) -> Value {
        let role_id = self.role_id(role).await;
        let reply = self
            .post(
                &format!("/api/organization/{}/apiToken", self.organization_id),
                json!({"name": format!("{role} token"), "role_id": role_id}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body
    }

    /// Polls the application's status until it leaves the in-progress states.
    pub async fn settled_status(&self, application_id: &str) -> Value {
        self.settled(&format!("/api/application/{application_id}/status"))
            .await
    }

    /// Polls a cluster's status path until the engine is done with it.
    pub async fn settled_cluster(&self, status_path: &str) -> Value {
        for _ in 0..500 {
            let reply = self.get(status_path).await;
            let state: platform_api::ClusterState =
                serde_json::from_value(reply.body["status"].clone()).unwrap();
            if !state.is_in_progress() {
                return reply.body;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{status_path} never settled");
    }

    /// Polls a status path until it leaves the in-progress states.
    pub async fn settled(&self, status_path: &str) -> Value {
        for _ in 0..500 {
            let reply = self.get(status_path).await;
            let state: platform_api::ServiceState =
                serde_json::from_value(reply.body["state"].clone()).unwrap();
            if !state.is_in_progress() {
                return reply.body;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{status_path} never settled");
    }
}

/// Asserts the error body shape of DESIGN §3 and returns it.
pub fn assert_error(reply: &Reply, status: StatusCode, code: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.body["status"], status.as_u16(), "{}", reply.body);
    assert_eq!(reply.body["error"], code, "{}", reply.body);
    assert!(
        reply.body["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{}",
        reply.body
    );
}

/// Asserts a 400 naming exactly these fields.
pub fn assert_invalid_fields(reply: &Reply, fields: &[&str]) {
    assert_error(reply, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    let named: Vec<&str> = reply.body["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(named, fields, "{}", reply.body);
}

/// A real record for every path parameter of the routes: parameter name to id. The services
/// built from git read the local repository kept here.
pub struct Records(
    pub std::collections::HashMap<&'static str, String>,
    pub TempDir,
);

impl Records {
    pub fn id(&self, parameter: &str) -> &str {
        &self.0[parameter]
    }
}

/// A local git repository of two commits, and its `file://` URL.
pub fn repository() -> (TempDir, String) {
    let dir = TempDir::new().unwrap();
    platform_server::git::create_repository(
        dir.path(),
        &[
            (
                "first",
                &[("a.txt", "1"), ("values.yaml", "replicaCount: 1\n")],
            ),
            ("second", &[("a.txt", "2")]),
        ],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    (dir, url)
}

pub async fn records(server: &TestServer) -> Records {
    let (repository, url) = repository();
    let (project, environment, application) = server.hierarchy().await;
    let moved = server
        .call(
            axum::http::Method::PUT,
            &format!("/api/application/{application}"),
            Some(&format!("Token {}", server.token)),
            Some(
                &json!({"name": "web", "git_repository": {"url": url, "branch": "main"}})
                    .to_string(),
            ),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    let org = &server.organization_id;
    let api_token = server.api_token("READ").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ids = std::collections::HashMap::from([
        ("organization_id", org.clone()),
        ("project_id", project),
        ("environment_id", environment),
        ("application_id", application),
        ("api_token_id", api_token),
    ]);
    let created = [
        (
            "container_registry_id",
            "containerRegistry",
            json!({"name": "hub", "kind": "GENERIC_CR", "url": "https://registry.example",
                   "config": {"username": "robot", "password": REGISTRY_PASSWORD}}),
        ),
        (
            "webhook_id",
            "webhook",
            json!({"target_url": "https://hooks.example/deployments", "target_secret": WEBHOOK_SECRET,
                   "events": ["DEPLOYMENT_SUCCESSFUL"]}),
        ),
        (
            "helm_repository_id",
            "helmRepository",
            json!({"name": "charts", "kind": "HTTPS", "url": "https://charts.example",
                   "config": {"username": "robot", "password": HELM_PASSWORD}}),
        ),
        (
            "labels_group_id",
            "labelsGroups",
            json!({"name": "team", "labels": [{"key": "team", "value": "web", "propagate_to_cloud_provider": true}]}),
        ),
        (
            "annotations_group_id",
            "annotationsGroups",
            json!({"name": "scrape", "annotations": [{"key": "prometheus.io/scrape", "value": "true"}],
                   "scopes": ["DEPLOYMENTS"]}),
        ),
        (
            "role_id",
            "customRole",
            json!({"name": "auditor", "description": "Reads everything", "permission": "READ"}),
        ),
        (
            "cluster_id",
            "cluster",
            json!({"name": "main", "cloud_provider": "AWS", "region": "eu-west-3"}),
        ),
        (
            "git_token_id",
            "gitToken",
            json!({"name": "ci", "type": "PROVIDER_G", "workspace": "acme", "token": GIT_TOKEN_SECRET}),
        ),
        (
            "provider_c_git_token_id",
            "gitToken",
            json!({"name": format!("ci-c-{}", uuid::Uuid::new_v4()), "type": "PROVIDER_C", "token": GIT_TOKEN_SECRET}),
        ),
        (
            "provider_d_git_token_id",
            "gitToken",
            json!({"name": format!("ci-d-{}", uuid::Uuid::new_v4()), "type": "PROVIDER_D", "token": GIT_TOKEN_SECRET}),
        ),
        (
            "credentials_id",
            "onPremise/credentials",
            json!({"name": "rack", "access_key_id": "AKIARACK", "secret_access_key": ON_PREMISE_SECRET}),
        ),
        (
            "aws_credentials_id",
            "aws/credentials",
            json!({"type": "AWS_STATIC", "name": "prod-aws", "access_key_id": "AKIAPROD",
                   "secret_access_key": CLOUD_SECRET}),
        ),
        (
            "provider_a_credentials_id",
            "scaleway/credentials",
            json!({"name": "prod-a", "provider_a_access_key": "SCWPROD", "provider_a_secret_key": CLOUD_SECRET,
                   "provider_a_project_id": "project-1", "provider_a_organization_id": "org-1"}),
        ),
        (
            "provider_e_credentials_id",
            "gcp/credentials",
            json!({"name": "prod-e", "provider_e_credentials": PROVIDER_E_KEY}),
        ),
        (
            "provider_f_credentials_id",
            "azure/credentials",
            json!({"name": "prod-f", "provider_f_subscription_id": "sub-1", "provider_f_tenant_id": "tenant-1"}),
        ),
    ];
    let receiver = server
        .post(
            "/api/alert-receivers",
            json!({"organization_id": org, "name": "on-call", "description": "Pages the on-call",
                   "type": "SLACK", "send_resolved": true, "webhook_url": ALERT_WEBHOOK_URL}),
        )
        .await;
    assert_eq!(receiver.status, StatusCode::CREATED, "{}", receiver.body);
    ids.insert(
        "alert_receiver_id",
        receiver.body["id"].as_str().unwrap().to_string(),
    );
    for (parameter, collection, body) in created {
        let reply = server
            .post(&format!("/api/organization/{org}/{collection}"), body)
            .await;
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "{collection}: {}",
            reply.body
        );
        ids.insert(parameter, reply.body["id"].as_str().unwrap().to_string());
    }
    // A member who accepted their invitation, and an invitation still pending.
    let write_role = server.role_id("WRITE").await;
    for (parameter, email) in [
        ("member_id", "ada@example.com"),
        ("invitation_id", "grace@example.com"),
    ] {
        let invited = server
            .post(
                &format!("/api/organization/{org}/inviteMember"),
                json!({"email": email, "role_id": write_role}),
            )
            .await;
        assert_eq!(invited.status, StatusCode::CREATED, "{}", invited.body);
        let id = invited.body["id"].as_str().unwrap().to_string();
        if parameter == "member_id" {
            let code = invited.body["invitation_link"]
                .as_str()
                .unwrap()
                .split("#code=")
                .nth(1)
                .unwrap();
            let accepted = server
                .call(
                    axum::http::Method::POST,
                    "/api/invitation/accept",
                    None,
                    Some(
                        &json!({"organization_id": org, "invitation_id": id, "code": code})
                            .to_string(),
                    ),
                )
                .await;
            assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.body);
            ids.insert(
                parameter,
                accepted.body["member"]["id"].as_str().unwrap().to_string(),
            );
        } else {
            ids.insert(parameter, id);
        }
    }
    let environment = ids["environment_id"].clone();
    let registry = ids["container_registry_id"].clone();
    let git_token = ids["git_token_id"].clone();
    for (parameter, kind, body) in [
        (
            "container_id",
            "container",
            json!({"name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27",
                   "auto_deploy": true, "auto_preview": true}),
        ),
        (
            "database_id",
            "database",
            json!({"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER"}),
        ),
        (
            "job_id",
            "job",
            json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                   "source": {"docker": {"git_repository": {"url": url, "branch": "main", "git_token_id": git_token}}}}),
        ),
        // A job run from an image, deployed by a new tag of it.
        (
            "image_job_id",
            "job",
            json!({"name": "report", "auto_deploy": true, "schedule": {"cronjob": {"scheduled_at": "0 4 * * *"}},
                   "source": {"image": {"registry_id": registry, "image_name": "tools/report", "tag": "1"}}}),
        ),
        (
            "helm_id",
            "helm",
            json!({"name": "redis", "source": {"git": {"git_repository": {"url": url, "branch": "main"}, "chart_path": "/redis"}}}),
        ),
        (
            "terraform_id",
            "terraform",
            json!({"name": "infra", "engine": "TERRAFORM", "backend": {"kubernetes": {}},
                   "terraform_files_source": {"git": {"git_repository": {"url": url, "branch": "main"}}},
                   "terraform_variables_source": {"tf_vars": [{"key": "api_token", "value": TERRAFORM_SECRET, "secret": true}]}}),
        ),
    ] {
        let reply = server
            .post(&format!("/api/environment/{environment}/{kind}"), body)
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{kind}: {}", reply.body);
        ids.insert(parameter, reply.body["id"].as_str().unwrap().to_string());
    }
    // A custom domain of each kind that has them.
    for (parameter, kind) in [
        ("application_domain_id", "application"),
        ("container_domain_id", "container"),
        ("helm_domain_id", "helm"),
    ] {
        let service = ids[format!("{kind}_id").as_str()].clone();
        let reply = server
            .post(
                &format!("/api/{kind}/{service}/customDomain"),
                json!({"domain": format!("{kind}.shop.example.com"), "generate_certificate": true}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{kind}: {}", reply.body);
        ids.insert(parameter, reply.body["id"].as_str().unwrap().to_string());
    }
    // A deployment restriction of each kind built from git.
    for kind in ["application", "job", "helm", "terraform"] {
        let service = ids[format!("{kind}_id").as_str()].clone();
        let reply = server
            .post(
                &format!("/api/{kind}/{service}/deploymentRestriction"),
                json!({"mode": "EXCLUDE", "type": "PATH", "value": "docs/"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{kind}: {}", reply.body);
        let parameter: &'static str = match kind {
            "application" => "application_restriction_id",
            "job" => "job_restriction_id",
            "helm" => "helm_restriction_id",
            _ => "terraform_restriction_id",
        };
        ids.insert(parameter, reply.body["id"].as_str().unwrap().to_string());
    }
    // A deployment stage of the environment, and another to move it next to.
    let environment = ids["environment_id"].clone();
    let stage = server
        .post(
            &format!("/api/environment/{environment}/deploymentStage"),
            json!({"name": "checks", "description": "after the applications"}),
        )
        .await;
    assert_eq!(stage.status, StatusCode::OK, "{}", stage.body);
    ids.insert(
        "deployment_stage_id",
        stage.body["id"].as_str().unwrap().to_string(),
    );
    let stages = server
        .get(&format!("/api/environment/{environment}/deploymentStage"))
        .await;
    ids.insert(
        "stage_id",
        stages.body["results"][0]["id"]
            .as_str()
            .unwrap()
            .to_string(),
    );
    // A deployment rule of the project, and the environment's own.
    let project = ids["project_id"].clone();
    let rule = server
        .post(
            &format!("/api/project/{project}/deploymentRule"),
            json!({"name": "previews", "mode": "DEVELOPMENT", "cluster_id": ids["cluster_id"],
                   "wildcard": "pr-*", "auto_stop": true, "timezone": "Europe/Paris",
                   "start_time": "1970-01-01T08:00:00.000Z", "stop_time": "1970-01-01T19:00:00.000Z",
                   "weekdays": ["MONDAY", "FRIDAY"]}),
        )
        .await;
    assert_eq!(rule.status, StatusCode::CREATED, "{}", rule.body);
    ids.insert(
        "project_rule_id",
        rule.body["id"].as_str().unwrap().to_string(),
    );
    let environment_rule = server
        .get(&format!("/api/environment/{environment}/deploymentRule"))
        .await;
    ids.insert(
        "environment_rule_id",
        environment_rule.body["id"].as_str().unwrap().to_string(),
    );
    // Previews on demand: a new tag of the container's image makes one.
    let on_demand = server
        .put(
            &format!(
                "/api/environment/{environment}/deploymentRule/{}",
                ids["environment_rule_id"]
            ),
            json!({"on_demand_preview": true, "timezone": "Etc/UTC",
                   "start_time": "1970-01-01T08:00:00.000Z", "stop_time": "1970-01-01T19:00:00.000Z",
                   "weekdays": ["MONDAY"]}),
        )
        .await;
    assert_eq!(on_demand.status, StatusCode::OK, "{}", on_demand.body);
    // A deployment request, of the database deployed once.
    let database = ids["database_id"].clone();
    let deployed = server
        .post(&format!("/api/database/{database}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    ids.insert(
        "deployment_request_id",
        deployed.body["deployment_request_id"]
            .as_str()
            .unwrap()
            .to_string(),
    );
    server
        .settled(&format!("/api/database/{database}/status"))
        .await;
    // A backup of it, taken to its end.
    let backup = server
        .post(
            &format!("/api/database/{database}/backup"),
            json!({"name": "nightly", "message": "kept a week"}),
        )
        .await;
    assert_eq!(backup.status, StatusCode::CREATED, "{}", backup.body);
    for _ in 0..500 {
        let listed = server
            .get(&format!("/api/database/{database}/backup"))
            .await;
        if listed.body["results"][0]["status"]["state"] == "READY" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    ids.insert("backup_id", backup.body["id"].as_str().unwrap().to_string());
    let application = ids["application_id"].clone();
    // Routes of any service kind (`/service/{service_id}/...`) are read on the application.
    ids.insert("service_id", application.clone());
    // An alert rule on the application, on its environment's cluster, sent to the receiver.
    let environment = server
        .get(&format!("/api/environment/{}", ids["environment_id"]))
        .await;
    let workload = platform_api::Workload {
        service_id: application.parse().unwrap(),
        name: Some("app-zweb".into()),
        namespace: None,
        ingress: None,
        stateful: false,
    };
    let receivers = vec![ids["alert_receiver_id"].parse().unwrap()];
    let mut rule =
        serde_json::to_value(platform_api::Preset::Cpu.rule(&workload, receivers)).unwrap();
    rule["organization_id"] = json!(org);
    let cluster = environment.body["cluster_id"].as_str().unwrap().to_string();
    rule["cluster_id"] = json!(cluster);
    rule["target"] = json!({"target_type": "APPLICATION", "target_id": application});
    let created = server.post("/api/alert-rules", rule).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    ids.insert(
        "alert_rule_id",
        created.body["id"].as_str().unwrap().to_string(),
    );
    ids.insert("environment_cluster_id", cluster);
    for (parameter, collection, body) in [
        (
            "variable_id",
            "environmentVariable",
            json!({"key": "LOG_LEVEL", "value": "debug"}),
        ),
        (
            "secret_id",
            "secret",
            json!({"key": "API_KEY", "value": VARIABLE_SECRET}),
        ),
    ] {
        let reply = server
            .post(
                &format!("/api/application/{application}/{collection}"),
                body,
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::CREATED,
            "{collection}: {}",
            reply.body
        );
        ids.insert(parameter, reply.body["id"].as_str().unwrap().to_string());
    }
    let repository_name = repository.path().file_name().unwrap().to_string_lossy();
    ids.insert("repository_name", repository_name.into_owned());
    // The environment's cloud's first lifecycle template.
    let templates = server
        .get(&format!(
            "/api/environment/{}/lifecycleTemplate",
            ids["environment_id"]
        ))
        .await;
    let template = templates.body["results"][0]["id"].as_str().unwrap();
    ids.insert("template_id", template.to_string());
    // The places whose instance types are listed, and a database type, by path parameter.
    for (parameter, place) in [
        ("database_type", "POSTGRESQL"),
        ("aws_region", "eu-west-3"),
        ("provider_a_zone", "fr-par-1"),
        ("provider_e_region", "europe-west9"),
        ("provider_f_region", "francecentral"),
    ] {
        ids.insert(parameter, place.to_string());
    }
    Records(ids, repository)
}

/// Secrets `records` stores, to look for in answers.
pub const REGISTRY_PASSWORD: &str = "registry-password-never-returned";
pub const WEBHOOK_SECRET: &str = "webhook-signing-secret-never-returned";
pub const HELM_PASSWORD: &str = "helm-password-never-returned";
pub const ON_PREMISE_SECRET: &str = "on-premise-secret-never-returned";
/// The secret key of the AWS and Provider A credentials `records` stores.
pub const CLOUD_SECRET: &str = "cloud-secret-never-returned";
/// A service account key, base64-encoded, whose private key is `PROVIDER_E_PRIVATE_KEY`.
pub const PROVIDER_E_KEY: &str = "eyJ0eXBlIjoic2VydmljZV9hY2NvdW50IiwiY2xpZW50X2VtYWlsIjoiZGVwbG95ZXJAYWNtZS5leGFtcGxlIiwicHJpdmF0ZV9rZXkiOiJjbG91ZC1rZXktbmV2ZXItcmV0dXJuZWQifQ==";
pub const PROVIDER_E_PRIVATE_KEY: &str = "cloud-key-never-returned";
pub const TERRAFORM_SECRET: &str = "terraform-secret-variable-never-returned";
pub const VARIABLE_SECRET: &str = "variable-secret-value-never-returned";
pub const GIT_TOKEN_SECRET: &str = "git-token-never-returned";
pub const ALERT_WEBHOOK_URL: &str = "https://hooks.slack.com/services/never/returned";

/// A route template with its parameters filled with real records.
pub fn concrete(path: &str, records: &Records) -> String {
    // Every `{parameter}`, in the path or its query.
    let mut filled = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}').expect("a closed parameter");
        filled.push_str(&rest[..open]);
        filled.push_str(records.id(&rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    filled.push_str(rest);
    // The one list that takes its parent in the query.
    if filled == "/variable" {
        let application = records.id("application_id");
        return format!("/api/variable?parent_id={application}&scope=APPLICATION");
    }
    // The monitoring routes, with the parameters they require.
    let application = records.id("application_id");
    let selector = url::form_urlencoded::byte_serialize(
        format!("{{qovery_com_service_id=\"{application}\"}}").as_bytes(),
    )
    .collect::<String>();
    let query = match filled.rsplit('/').next() {
        Some("metrics") if filled.starts_with("/cluster/") => {
            "?endpoint=api/v1/query&query=sum(kube_pod_labels)".to_string()
        }
        Some("logs") if filled.starts_with("/cluster/") => {
            format!("?endpoint=/loki/api/v1/query_range&query={selector}")
        }
        Some("events") if filled.starts_with("/cluster/") => {
            "?from_date_time=2026-01-01T00:00:00%2B00:00&to_date_time=2036-01-01T00:00:00%2B00:00"
                .to_string()
        }
        Some("repository") | Some("branch") if filled.contains("/repository") => {
            // The code host's token (none for the sampled host, whose account lists), and the
            // repository by its listed name.
            let host = filled
                .split('/')
                .rev()
                .find(|part| ["github", "gitlab", "bitbucket"].contains(part));
            let token = match host {
                Some("github") => format!("gitTokenId={}", records.id("provider_c_git_token_id")),
                Some("gitlab") => format!("gitTokenId={}", records.id("provider_d_git_token_id")),
                _ => String::new(),
            };
            let name = format!("name={}", records.id("repository_name"));
            let parts: Vec<String> = [token, name]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect();
            format!("?{}", parts.join("&"))
        }
        Some("deploymentStatus") => format!(
            "?deploymentRequestId={}",
            records.id("deployment_request_id")
        ),
        _ => String::new(),
    };
    format!("/api{filled}{query}")
}

/// Whether the route addresses one variable or secret.
pub fn is_variable(path: &str) -> bool {
    path.ends_with("{variable_id}") || path.ends_with("{secret_id}")
}

/// A new variable (or secret) of the scope of the route `template`, and the route's path to it.
pub async fn fresh_variable(server: &TestServer, ids: &Records, template: &str) -> String {
    let collection = template.rsplit_once('/').unwrap().0;
    let key = format!("FRESH_{}", uuid::Uuid::new_v4().simple());
    let created = if collection == "/variable" {
        server
            .post(
                "/api/variable",
                json!({"key": key, "value": "x", "variable_scope": "APPLICATION",
                       "variable_parent_id": ids.id("application_id")}),
            )
            .await
    } else {
        server
            .post(
                &concrete(collection, ids),
                json!({"key": key, "value": "x"}),
            )
            .await
    };
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "{collection}: {}",
        created.body
    );
    let id = created.body["id"].as_str().unwrap();
    // `concrete` gives the list its query; the item is under the bare path.
    if collection == "/variable" {
        format!("/api/variable/{id}")
    } else {
        format!("{}/{id}", concrete(collection, ids))
    }
}
