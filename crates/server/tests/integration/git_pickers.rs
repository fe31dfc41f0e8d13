//! What a repository field offers: the account, its repositories and their branches, a
//! repository's folders and a terraform module's variables, read from a real local repository.

use crate::common::{self, assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

const MAIN_TF: &str = r#"
variable "region" {
  type        = string
  default     = "eu-west-3"
  description = "Where the bucket lives"
}

variable "replicas" {
  type     = number
  nullable = false
}

variable "password" {
  type      = string
  sensitive = true
  default   = null
}

resource "null_resource" "noop" {}
"#;

/// A repository with folders, a terraform module in `infra` and a second branch.
fn repository() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::TempDir::new().unwrap();
    platform_server::git::create_repository(
        dir.path(),
        &[
            ("app", &[("app/Dockerfile", "FROM scratch\n")]),
            (
                "infra",
                &[
                    ("infra/main.tf", MAIN_TF),
                    ("infra/modules/net/main.tf", "variable \"cidr\" {}\n"),
                ],
            ),
        ],
    )
    .unwrap();
    platform_server::git::create_branch(dir.path(), "feature").unwrap();
    let url = format!("file://{}", dir.path().display());
    let name = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    (dir, url, name)
}

fn names(list: &Value) -> Vec<String> {
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item.as_str().or(item["name"].as_str()).unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_person_picks_a_repository_then_a_branch_then_a_folder() {
    let server = TestServer::new().await;
    let (_dir, url, name) = repository();
    let org = server.organization_id.clone();

    let accounts = server
        .get(&format!("/api/organization/{org}/account/gitAuthProvider"))
        .await;
    assert_eq!(accounts.status, StatusCode::OK, "{}", accounts.body);
    assert_eq!(accounts.body["results"][0]["name"], "PROVIDER_G");

    // The sampled code host's account lists the local repositories.
    let listed = server
        .get(&format!(
            "/api/organization/{org}/account/bitbucket/repository"
        ))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    let ours = listed.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|repository| repository["name"] == name.as_str())
        .unwrap_or_else(|| panic!("{name} not in {}", listed.body))
        .clone();
    assert_eq!(ours["default_branch"], "main");
    let real = std::fs::canonicalize(url.trim_start_matches("file://")).unwrap();
    assert_eq!(ours["url"], format!("file://{}", real.display()));

    // Another host has no account here: a git token of that host is needed, and only one.
    let github = format!("/api/organization/{org}/account/github/repository");
    assert_invalid_fields(&server.get(&github).await, &["gitTokenId"]);
    let sampled_token = server
        .create(
            &format!("/api/organization/{org}/gitToken"),
            json!({"name": "g", "type": "PROVIDER_G", "workspace": "acme", "token": "t-g"}),
        )
        .await;
    assert_invalid_fields(
        &server
            .get(&format!("{github}?gitTokenId={sampled_token}"))
            .await,
        &["gitTokenId"],
    );
    let token = server
        .create(
            &format!("/api/organization/{org}/gitToken"),
            json!({"name": "c", "type": "PROVIDER_C", "token": "t-c"}),
        )
        .await;
    let with_token = server.get(&format!("{github}?gitTokenId={token}")).await;
    assert!(
        names(&with_token.body).contains(&name),
        "{}",
        with_token.body
    );

    let branches = server
        .get(&format!(
            "/api/organization/{org}/account/github/repository/branch?gitTokenId={token}&name={name}"
        ))
        .await;
    assert_eq!(branches.status, StatusCode::OK, "{}", branches.body);
    assert_eq!(names(&branches.body), ["feature", "main"]);
    assert_invalid_fields(
        &server
            .get(&format!(
                "/api/organization/{org}/account/bitbucket/repository/branch?name=no-such-repository"
            ))
            .await,
        &["name"],
    );
    // The deprecated account routes answer for the token's organization.
    let account_branches = server
        .get(&format!(
            "/api/account/bitbucket/repository/branch?name={name}"
        ))
        .await;
    assert_eq!(names(&account_branches.body), ["feature", "main"]);

    let folders = format!("/api/organization/{org}/listDirectoriesFromGitRepository");
    let at_top = server.post(&folders, json!({"url": url})).await;
    assert_eq!(at_top.status, StatusCode::OK, "{}", at_top.body);
    assert_eq!(names(&at_top.body), ["app", "infra"]);
    let below = server
        .post(
            &folders,
            json!({"url": url, "branch": "main", "root_path": "/infra"}),
        )
        .await;
    assert_eq!(names(&below.body), ["modules"]);
    assert_invalid_fields(
        &server
            .post(&folders, json!({"url": url, "root_path": "infra"}))
            .await,
        &["root_path"],
    );
    assert_invalid_fields(
        &server
            .post(
                &folders,
                json!({"url": url, "provider": "PROVIDER_C", "git_token_id": sampled_token}),
            )
            .await,
        &["git_token_id"],
    );
}

#[tokio::test]
async fn a_terraform_modules_variables_are_read_from_its_files() {
    let server = TestServer::new().await;
    let (_dir, url, _) = repository();
    let path = format!(
        "/api/organization/{}/parseTerraformVariablesFromGitRepo",
        server.organization_id
    );
    let parsed = server
        .post(
            &path,
            json!({"git_repository": {"url": url, "root_path": "/infra"}}),
        )
        .await;
    assert_eq!(parsed.status, StatusCode::OK, "{}", parsed.body);
    assert_eq!(
        parsed.body["results"],
        json!([
            {"key": "region", "sensitive": false, "nullable": true, "default": "eu-west-3",
             "source": "infra/main.tf", "description": "Where the bucket lives"},
            {"key": "replicas", "sensitive": false, "nullable": false, "source": "infra/main.tf"},
            {"key": "password", "sensitive": true, "nullable": true, "source": "infra/main.tf"},
        ])
    );
    // Only the module's own folder: the nested module's variable is its own.
    let at_top = server
        .post(&path, json!({"git_repository": {"url": url}}))
        .await;
    assert_eq!(at_top.body["results"], json!([]), "{}", at_top.body);
    assert_invalid_fields(
        &server
            .post(&path, json!({"git_repository": {"url": ""}}))
            .await,
        &["git_repository.url"],
    );
}

#[tokio::test]
async fn a_reader_picks_only_among_the_repositories_its_services_use() {
    let server = TestServer::new().await;
    let (_dir, url, name) = repository();
    let org = server.organization_id.clone();
    let read = format!("Token {}", server.token_with_role("READ").await);
    let list = format!("/api/organization/{org}/account/bitbucket/repository");
    let folders = format!("/api/organization/{org}/listDirectoriesFromGitRepository");
    let body = json!({"url": url}).to_string();

    let unused = server.call(Method::GET, &list, Some(&read), None).await;
    assert!(!names(&unused.body).contains(&name), "{}", unused.body);
    let refused = server
        .call(Method::POST, &folders, Some(&read), Some(&body))
        .await;
    common::assert_error(&refused, StatusCode::FORBIDDEN, "FORBIDDEN");

    let (_, environment, _) = server.hierarchy().await;
    server
        .create(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "shop", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    let used = server.call(Method::GET, &list, Some(&read), None).await;
    assert!(names(&used.body).contains(&name), "{}", used.body);
    let read_folders = server
        .call(Method::POST, &folders, Some(&read), Some(&body))
        .await;
    assert_eq!(read_folders.status, StatusCode::OK, "{}", read_folders.body);
}

#[tokio::test]
async fn a_charts_default_values_are_read_from_its_directory() {
    let server = TestServer::new().await;
    let dir = tempfile::TempDir::new().unwrap();
    let values = "replicaCount: 2\nimage:\n  tag: \"1.4\"\n";
    platform_server::git::create_repository(
        dir.path(),
        &[(
            "chart",
            &[
                ("charts/web/Chart.yaml", "name: web\nversion: 0.1.0\n"),
                ("charts/web/values.yaml", values),
            ],
        )],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    let (_, environment) = server.staging().await;
    let path = format!("/api/environment/{environment}/helmDefaultValues");
    let read = server
        .post(
            &path,
            json!({"source": {"git_repository": {"url": url, "root_path": "/charts/web"}}}),
        )
        .await;
    assert_eq!(read.status, StatusCode::CREATED, "{}", read.body);
    assert_eq!(read.body, values);

    // A directory without values, a chart of a helm repository: each named.
    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"source": {"git_repository": {"url": url, "root_path": "/charts"}}}),
            )
            .await,
        &["source.git_repository.root_path"],
    );
    let repository = server.helm_repository().await;
    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"source": {"helm_repository": {"repository": repository,
                       "chart_name": "web", "chart_version": "0.1.0"}}}),
            )
            .await,
        &["source.helm_repository"],
    );
}
