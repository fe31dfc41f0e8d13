//! What one caller hands the server, at its worst, route by route (the route table's, so that a
//! new route is covered without being listed here): bodies nested past the limit, as large as a
//! body may be and larger; repositories of hostile files (nested a thousand deep, megabytes
//! long) behind every route that reads one; folders that are not themselves repositories. The
//! server runs in this process: a stack overflow would abort the tests. No answer is a 5xx, each
//! refusal is a 4xx naming the limit, and the slowest answer is printed.

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::common::{self, records, Reply, TestServer};
use crate::fuzz::{fields, fuzzed_path};

/// Bodies generated per route when looking for its repository fields.
const BODIES_PER_ROUTE: usize = 8;
const SEED: u64 = 0x5eed_0079;

/// `levels` lists within one another around `1`.
fn nested(levels: usize) -> String {
    format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
}

/// The answers of a suite: each 5xx, and the slowest.
#[derive(Default)]
struct Answers {
    cases: usize,
    failures: Vec<String>,
    slowest: (Duration, String),
}

impl Answers {
    async fn send(
        &mut self,
        server: &TestServer,
        method: &Method,
        path: &str,
        body: &str,
    ) -> Reply {
        let admin = format!("Token {}", server.token);
        let sent = Instant::now();
        let reply = server
            .call(method.clone(), path, Some(&admin), Some(body))
            .await;
        let took = sent.elapsed();
        self.cases += 1;
        let label = format!("{method} {path} {:.120}", body);
        if took > self.slowest.0 {
            self.slowest = (took, label.clone());
        }
        if reply.status.is_server_error() {
            self.failures
                .push(format!("{label}: answered {} {}", reply.status, reply.body));
        }
        reply
    }

    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.failures.push(what());
        }
    }

    fn assert_clean(&self, suite: &str) {
        println!(
            "{suite}: {} cases, {} failures, slowest {:?} ({})",
            self.cases,
            self.failures.len(),
            self.slowest.0,
            self.slowest.1
        );
        assert!(
            self.failures.is_empty(),
            "{} failures; the first ones:\n{}",
            self.failures.len(),
            self.failures
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// The routes that take a JSON body, each with its path filled and the document's operation.
fn routes_with_bodies<'d>(
    server: &TestServer,
    document: &'d contract::Document,
    fuzzer: &mut contract::Fuzzer,
    ids: &common::Records,
) -> Vec<(Method, String, contract::Operation<'d>)> {
    let mut rules: Vec<_> = platform_server::routes::table(&server.state)
        .rules()
        .to_vec();
    // Deletions last, so that the records the other routes need live until then.
    rules.sort_by_key(|rule| rule.method == Method::DELETE);
    rules
        .iter()
        .filter_map(|rule| {
            let operation = document.operation(rule.method.as_str(), &rule.path)?;
            operation.request_schema()?;
            let (path, _) = fuzzed_path(fuzzer, &rule.path, ids, 0);
            Some((rule.method.clone(), path, operation))
        })
        .collect()
}

#[tokio::test]
async fn every_body_nested_past_the_limit_or_too_large_is_refused_and_none_breaks_the_server() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let document = server.own_document().await;
    let mut fuzzer = contract::Fuzzer::new(&document, SEED);
    let mut answers = Answers::default();
    let routes = routes_with_bodies(&server, &document, &mut fuzzer, &ids);
    let (mut refused_deep, mut fields_tried, mut too_large) = (0, 0, 0);
    for (method, path, operation) in &routes {
        let body = fuzzer.body(operation.request_schema().unwrap());
        // Each field (the body itself too) nested just past the limit, then far past it.
        for (field, pointer) in fields(&body) {
            fields_tried += 1;
            let at_depth = pointer.matches('/').count();
            let past = platform_server::untrusted::MOST_DEPTH + 1 - at_depth.min(64);
            for levels in [past, 100_000] {
                let mut sent = body.clone();
                let text = if pointer.is_empty() {
                    nested(levels)
                } else {
                    *sent.pointer_mut(&pointer).unwrap() = json!("NESTED");
                    sent.to_string().replacen("\"NESTED\"", &nested(levels), 1)
                };
                let reply = answers.send(&server, method, path, &text).await;
                let deep = reply.body["error"] == "CONTENT_TOO_DEEP";
                refused_deep += usize::from(deep);
                // A body is JSON (most routes) or a text (a kubeconfig): refused either way.
                answers.check(reply.status.is_client_error(), || {
                    format!(
                        "{method} {path} with {field} nested {levels}: {} {}",
                        reply.status, reply.body
                    )
                });
            }
        }
        // As large as a body may be (read off the workers), then larger.
        let padded = format!(
            "{body}{}",
            " ".repeat(1024 * 1024 - body.to_string().len() - 1)
        );
        answers.send(&server, method, path, &padded).await;
        let over = format!("{body}{}", " ".repeat(1024 * 1024));
        let reply = answers.send(&server, method, path, &over).await;
        // 413, or a 400 of a query parameter checked before the body is read.
        too_large += usize::from(reply.status == StatusCode::PAYLOAD_TOO_LARGE);
        answers.check(reply.status.is_client_error(), || {
            format!(
                "{method} {path} over 1 MiB: {} {}",
                reply.status, reply.body
            )
        });
    }
    println!(
        "bodies: {} routes, {fields_tried} fields nested, {refused_deep} refused as too deep",
        routes.len()
    );
    assert!(
        routes.len() > 100,
        "only {} routes take a body",
        routes.len()
    );
    assert!(
        too_large > routes.len() * 9 / 10,
        "{too_large} answered 413"
    );
    assert!(
        refused_deep > fields_tried,
        "{refused_deep} of {} nested bodies refused as too deep",
        fields_tried * 2
    );
    answers.assert_clean("bodies");
}

/// A repository of hostile files, one folder each: a module nested 1,000 deep, one whose
/// description is 200 parentheses deep, one past the size of a file, tfvars nested and large,
/// a Dockerfile and a chart's values past their size, and one file of each that is fine.
fn hostile_repository() -> (tempfile::TempDir, String) {
    let dir = tempfile::TempDir::new().unwrap();
    let large = "#".repeat(2 * 1024 * 1024);
    let deep_tf = format!("variable \"x\" {{\n  default = {}\n}}\n", nested(1000));
    let parens = format!(
        "variable \"x\" {{\n  description = {}\"d\"{}\n}}\n",
        "(".repeat(200),
        ")".repeat(200)
    );
    let deep_tfvars = format!("x = {}\n", nested(1000));
    platform_server::git::create_repository(
        dir.path(),
        &[(
            "hostile",
            &[
                ("deep/main.tf", deep_tf.as_str()),
                ("parens/main.tf", parens.as_str()),
                ("large/main.tf", large.as_str()),
                ("vars/deep.tfvars", deep_tfvars.as_str()),
                ("vars_large/large.tfvars", large.as_str()),
                ("docker/Dockerfile", large.as_str()),
                ("chart/Chart.yaml", "name: chart\n"),
                ("chart/values.yaml", large.as_str()),
                (
                    "fine/main.tf",
                    "variable \"region\" {\n  default = \"eu\"\n}\n",
                ),
                ("fine/Dockerfile", "FROM alpine\nARG VERSION\n"),
            ],
        )],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    (dir, url)
}

/// The folders of `hostile_repository`, and a root path that would leave it.
const ROOTS: [&str; 9] = [
    "/deep",
    "/parens",
    "/large",
    "/vars",
    "/vars_large",
    "/docker",
    "/chart",
    "/fine",
    "/..",
];

/// `body` with each repository it names pointed at `url` below `root`, and the files it names
/// the hostile ones; whether it names a repository at all.
fn aimed_at(body: &mut Value, url: &str, root: &str) -> bool {
    let mut aimed = false;
    for (_, pointer) in fields(body) {
        if !pointer.ends_with("/git_repository") {
            continue;
        }
        if let Some(repository) = body.pointer_mut(&pointer) {
            *repository = json!({"url": url, "branch": "main", "root_path": root});
            aimed = true;
        }
    }
    if let Some(path) = body.pointer_mut("/dockerfile_path") {
        *path = json!("Dockerfile");
    }
    if let Some(files) = body.pointer_mut("/files") {
        *files = json!(["Dockerfile", "values.yaml"]);
    }
    if let Some(mode) = body.pointer_mut("/mode") {
        *mode = json!({"type": "AutoDiscover"});
    }
    aimed
}

#[tokio::test]
async fn every_route_that_reads_a_repository_refuses_its_hostile_files_in_milliseconds() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let document = server.own_document().await;
    let mut fuzzer = contract::Fuzzer::new(&document, SEED ^ 0x9_u64);
    let (_repository, url) = hostile_repository();
    let mut answers = Answers::default();
    let mut aimed_routes = Vec::new();
    for (method, path, operation) in routes_with_bodies(&server, &document, &mut fuzzer, &ids) {
        let schema = operation.request_schema().unwrap();
        let Some(mut body) = (0..BODIES_PER_ROUTE)
            .map(|_| fuzzer.body(schema))
            .find(|body| aimed_at(&mut body.clone(), &url, "/"))
        else {
            continue;
        };
        aimed_routes.push(format!("{method} {path}"));
        for root in ROOTS {
            aimed_at(&mut body, &url, root);
            answers
                .send(&server, &method, &path, &body.to_string())
                .await;
        }
    }
    println!("repositories: {} routes name one", aimed_routes.len());
    assert!(aimed_routes.len() >= 10, "{aimed_routes:?}");

    // The routes that read files, each refusal said with the file and the limit.
    let organization = &server.organization_id;
    let environment = ids.id("environment_id");
    let parse = format!("/api/organization/{organization}/parseTerraformVariablesFromGitRepo");
    let tfvars = format!("/api/organization/{organization}/listTfVarsFilesFromGitRepo");
    let dockerfile = format!("/api/environment/{environment}/checkDockerfile");
    let values = format!("/api/environment/{environment}/helmDefaultValues");
    let at = |root: &str| json!({"url": url, "branch": "main", "root_path": root});
    let reads = [
        (
            &parse,
            json!({"git_repository": at("/deep")}),
            "CONTENT_TOO_DEEP",
            "deep/main.tf",
        ),
        (
            &parse,
            json!({"git_repository": at("/parens")}),
            "CONTENT_TOO_DEEP",
            "parens/main.tf",
        ),
        (
            &parse,
            json!({"git_repository": at("/large")}),
            "CONTENT_TOO_LARGE",
            "large/main.tf",
        ),
        (
            &tfvars,
            json!({"git_repository": at("/vars"), "mode": {"type": "AutoDiscover"}}),
            "CONTENT_TOO_DEEP",
            "vars/deep.tfvars",
        ),
        (
            &tfvars,
            json!({"git_repository": at("/vars_large"), "mode": {"type": "AutoDiscover"}}),
            "CONTENT_TOO_LARGE",
            "vars_large/large.tfvars",
        ),
        (
            &dockerfile,
            json!({"git_repository": at("/docker"), "dockerfile_path": "Dockerfile"}),
            "CONTENT_TOO_LARGE",
            "docker/Dockerfile",
        ),
        (
            &values,
            json!({"source": {"git_repository": at("/chart")}}),
            "CONTENT_TOO_LARGE",
            "chart/values.yaml",
        ),
    ];
    for (path, body, code, file) in reads {
        let reply = answers
            .send(&server, &Method::POST, path, &body.to_string())
            .await;
        let message = reply.body["message"].as_str().unwrap_or_default();
        answers.check(
            reply.status == StatusCode::BAD_REQUEST
                && reply.body["error"] == code
                && message.contains(file)
                && (message.contains("64 levels") || message.contains("1.0 MiB")),
            || format!("{path} {body}: {} {}", reply.status, reply.body),
        );
    }
    let fine = server
        .post(
            &format!("/api/organization/{organization}/parseTerraformVariablesFromGitRepo"),
            json!({"git_repository": {"url": url, "branch": "main", "root_path": "/fine"}}),
        )
        .await;
    assert_eq!(fine.status, StatusCode::OK, "{}", fine.body);
    assert_eq!(fine.body["results"][0]["default"], "eu");

    // A terraform service built from the deep module: its resources are refused at each read,
    // and the server goes on.
    let mut service = crate::terraform::body(json!({"kubernetes": {}}), 600, json!([]));
    service["terraform_files_source"]["git"]["git_repository"] =
        json!({"url": url, "branch": "main", "root_path": "/deep"});
    service["terraform_variables_source"]["tf_var_file_paths"] = json!([]);
    service["name"] = json!("hostile");
    let id = server
        .create(
            &format!("/api/environment/{environment}/terraform"),
            service,
        )
        .await;
    server
        .post(&format!("/api/terraform/{id}/deploy"), json!({}))
        .await;
    server.settled(&format!("/api/terraform/{id}/status")).await;
    for _ in 0..2 {
        let resources = server
            .get(&format!("/api/terraform/{id}/terraformResources"))
            .await;
        assert_eq!(
            resources.status,
            StatusCode::BAD_REQUEST,
            "{}",
            resources.body
        );
        assert_eq!(resources.body["error"], "CONTENT_TOO_DEEP");
    }
    answers.assert_clean("repositories");
}

#[tokio::test]
async fn a_folder_that_is_not_itself_a_repository_is_never_read_nor_the_one_around_it() {
    // The allowed folder is inside a checkout, as `data/` is when `scripts/run.sh` runs.
    let checkout = tempfile::TempDir::new().unwrap();
    platform_server::git::create_repository(
        checkout.path(),
        &[(
            "outer",
            &[(
                "infra/main.tf",
                "variable \"outer_secret\" {\n  default = \"s3cr3t\"\n}\n",
            )],
        )],
    )
    .unwrap();
    let allowed = checkout.path().join("data/repositories");
    platform_server::git::create_repository(&allowed.join("web"), &[("web", &[("a.txt", "1")])])
        .unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    let mut config = common::config(&dir);
    config.git_roots = vec![allowed.clone()];
    let server = TestServer::with_config(dir, config).await;
    let organization = &server.organization_id;

    let folders = format!("/api/organization/{organization}/listDirectoriesFromGitRepository");
    let variables = format!("/api/organization/{organization}/parseTerraformVariablesFromGitRepo");
    let folder = format!("file://{}", allowed.display());
    for (path, repository) in [
        (&folders, json!({"url": folder, "root_path": "/../.."})),
        (&folders, json!({"url": folder, "root_path": "/"})),
        (&variables, json!({"url": folder, "root_path": "/infra"})),
        (
            &variables,
            json!({"url": format!("{folder}/web"), "root_path": "/../../../infra"}),
        ),
    ] {
        let body = if path == &folders {
            repository.clone()
        } else {
            json!({ "git_repository": repository })
        };
        let reply = server.post(path, body).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{repository}: {}",
            reply.body
        );
        assert!(
            !reply.body.to_string().contains("outer_secret"),
            "{}",
            reply.body
        );
        assert!(!reply.body.to_string().contains("infra"), "{}", reply.body);
    }
    // An application built from the folder reads no commits (nor authors) of the checkout.
    let (_, environment) = server.staging().await;
    let application = json!({"name": "outer", "git_repository": {"url": folder, "branch": "main"}});
    let created = server
        .post(
            &format!("/api/environment/{environment}/application"),
            application,
        )
        .await;
    if created.status == StatusCode::CREATED {
        let id = created.body["id"].as_str().unwrap();
        for read in ["commit", "contributor"] {
            let reply = server.get(&format!("/api/application/{id}/{read}")).await;
            assert_eq!(
                reply.status,
                StatusCode::BAD_REQUEST,
                "{read}: {}",
                reply.body
            );
            assert_eq!(reply.body["error"], "REPOSITORY_UNREACHABLE");
        }
    } else {
        assert_eq!(created.status, StatusCode::BAD_REQUEST, "{}", created.body);
    }
    // The repository that is one reads as ever.
    let web = server
        .post(
            &folders,
            json!({"url": format!("{folder}/web"), "root_path": "/"}),
        )
        .await;
    assert_eq!(web.status, StatusCode::OK, "{}", web.body);
}

#[tokio::test]
async fn a_kubeconfig_nested_past_yamls_bounds_is_refused_in_milliseconds() {
    let server = TestServer::new().await;
    let organization = &server.organization_id;
    let (_, environment) = server.staging().await;
    let cluster = server.cluster_of(&environment).await;
    let path = format!("/api/organization/{organization}/cluster/{cluster}/kubeconfig");
    for hostile in [
        format!(
            "apiVersion: v1\nkind: Config\nclusters: {}\n",
            nested(20_000)
        ),
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n{}",
            (0..240)
                .map(|level| format!("{}- a:\n", " ".repeat(level * 2)))
                .collect::<String>()
        ),
    ] {
        let sent = Instant::now();
        let request = axum::http::Request::builder()
            .method(Method::PUT)
            .uri(&path)
            .header("Authorization", server.auth())
            .header("Content-Type", "application/yaml")
            .body(axum::body::Body::from(hostile))
            .unwrap();
        let reply = server.send(request).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        assert_eq!(reply.body["fields"][0]["field"], "body", "{}", reply.body);
        println!("kubeconfig refused in {:?}", sent.elapsed());
    }
}
