//! Commits read from the service's real git repository: newest first, at most 100, `startId`
//! and `gitCommitId`; an unreachable repository is a clear error.

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, assert_invalid_fields, repository, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn commits_come_from_the_repository_itself() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (_repository, url) = repository();
    let created = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    let id = created.body["id"].as_str().unwrap();
    let commits = server.get(&format!("/api/application/{id}/commit")).await;
    assert_eq!(commits.status, StatusCode::OK, "{}", commits.body);
    let list = commits.body["results"].as_array().unwrap();
    let messages: Vec<&str> = list
        .iter()
        .map(|c| c["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages, ["second", "first"]);
    assert_eq!(list[0]["author_name"], "Platform demo");
    assert!(list[0]["created_at"].is_string());
    let newest = list[0]["git_commit_id"].as_str().unwrap();
    assert_eq!(newest.len(), 40);

    let after = server
        .get(&format!("/api/application/{id}/commit?startId={newest}"))
        .await
        .body;
    assert_eq!(after["results"].as_array().unwrap().len(), 1);
    assert_eq!(after["results"][0]["message"], "first");
    let one = server
        .get(&format!(
            "/api/application/{id}/commit?gitCommitId={newest}"
        ))
        .await
        .body;
    assert_eq!(one["results"][0]["git_commit_id"], newest);
    let unknown = server
        .get(&format!(
            "/api/application/{id}/commit?gitCommitId=0123456789abcdef"
        ))
        .await;
    assert_error(&unknown, StatusCode::BAD_REQUEST, "REPOSITORY_ERROR");

    // Deploying a listed commit records it as the deployed one.
    server
        .post(
            &format!("/api/application/{id}/deploy"),
            json!({"git_commit_id": newest}),
        )
        .await;
    server.settled_status(id).await;
    let application = server.get(&format!("/api/application/{id}")).await.body;
    assert_eq!(application["git_repository"]["deployed_commit_id"], newest);
}

#[tokio::test]
async fn unreachable_repositories_and_services_without_git_say_so() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let remote = server
        .get(&format!("/api/application/{application}/commit"))
        .await;
    assert_error(&remote, StatusCode::BAD_REQUEST, "REPOSITORY_UNREACHABLE");
    assert!(remote.body["message"].as_str().unwrap().contains("file://"));
    let database = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "db", "type": "REDIS", "version": "7", "mode": "CONTAINER"}),
        )
        .await;
    let database = database.body["id"].as_str().unwrap();
    let none = server
        .get(&format!("/api/database/{database}/commit"))
        .await;
    assert_error(&none, StatusCode::NOT_FOUND, "NOT_FOUND");
    let registry = server
        .post(
            &format!(
                "/api/organization/{}/containerRegistry",
                server.organization_id
            ),
            json!({"name": "hub", "kind": "PUBLIC_ECR", "url": "https://public.example"}),
        )
        .await;
    let job = server
        .post(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                   "source": {"image": {"registry_id": registry.body["id"], "image_name": "tools/backup", "tag": "1"}}}),
        )
        .await;
    let job = job.body["id"].as_str().unwrap();
    let from_image = server.get(&format!("/api/job/{job}/commit")).await;
    assert_error(&from_image, StatusCode::BAD_REQUEST, "NO_GIT_REPOSITORY");
}

#[tokio::test]
async fn tfvars_files_are_found_and_read_as_hcl() {
    let server = TestServer::new().await;
    let dir = tempfile::TempDir::new().unwrap();
    platform_server::git::create_repository(
        dir.path(),
        &[(
            "infrastructure",
            &[
                ("infra/main.tf", "variable \"region\" {}\n"),
                (
                    "infra/prod.tfvars",
                    "region   = \"eu-west-3\"\nreplicas = 3\ntags = { team = \"web\" }\n",
                ),
                (
                    "infra/staging.tfvars",
                    "region = \"eu-west-1\"\nreplicas = 1\n",
                ),
                ("other/dev.tfvars", "debug = true\n"),
            ],
        )],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    let path = format!(
        "/api/organization/{}/listTfVarsFilesFromGitRepo",
        server.organization_id
    );
    let listing = server
        .post(
            &path,
            json!({"git_repository": {"url": url, "branch": "main", "root_path": "/infra"},
                   "mode": {"type": "AutoDiscover"}}),
        )
        .await;
    assert_eq!(listing.status, StatusCode::OK, "{}", listing.body);
    let files = listing.body["results"].as_array().unwrap();
    let sources: Vec<&str> = files
        .iter()
        .map(|f| f["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["infra/prod.tfvars", "infra/staging.tfvars"]);
    assert_eq!(files[0]["variables"]["region"], "eu-west-3");
    // Every value as text, as the production document types them.
    assert_eq!(files[0]["variables"]["replicas"], "3");
    let tags = files[0]["variables"]["tags"].as_str().unwrap();
    assert!(tags.contains("team") && tags.contains("\"web\""), "{tags}");

    let everywhere = server
        .post(
            &path,
            json!({"git_repository": {"url": url}, "mode": {"type": "AutoDiscover"}}),
        )
        .await;
    let all = everywhere.body["results"].as_array().unwrap();
    assert_eq!(all.len(), 3);
    assert_eq!(all[2]["source"], "other/dev.tfvars");
    assert_eq!(all[2]["variables"]["debug"], "true");

    // The production document's other mode: the files named, in the order given.
    let named = server
        .post(
            &path,
            json!({"git_repository": {"url": url},
                   "mode": {"type": "SpecificPaths", "paths": ["other/dev.tfvars", "/infra/prod.tfvars"]}}),
        )
        .await;
    assert_eq!(named.status, StatusCode::OK, "{}", named.body);
    let sources: Vec<&Value> = named.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["source"])
        .collect();
    assert_eq!(
        sources,
        [&json!("other/dev.tfvars"), &json!("infra/prod.tfvars")]
    );
    let missing = server
        .post(
            &path,
            json!({"git_repository": {"url": url},
                   "mode": {"type": "SpecificPaths", "paths": ["infra/none.tfvars"]}}),
        )
        .await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST, "{}", missing.body);
    assert!(missing.body["message"]
        .as_str()
        .unwrap()
        .contains("infra/none.tfvars"));
    assert_invalid_fields(
        &server
            .post(
                &path,
                json!({"git_repository": {"url": url}, "mode": {"type": "SpecificPaths"}}),
            )
            .await,
        &["mode.paths"],
    );

    let remote = server
        .post(
            &path,
            json!({"git_repository": {"url": "https://git.example.com/infra.git"}, "mode": {"type": "AutoDiscover"}}),
        )
        .await;
    assert_error(&remote, StatusCode::BAD_REQUEST, "REPOSITORY_UNREACHABLE");
    let mode = server
        .post(
            &path,
            json!({"git_repository": {"url": url}, "mode": {"type": "Explicit"}}),
        )
        .await;
    assert_error(&mode, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
    assert_eq!(mode.body["fields"][0]["field"], "mode.type");

    platform_server::git::create_repository(
        dir.path(),
        &[("broken", &[("infra/bad.tfvars", "region = \n")])],
    )
    .unwrap();
    let broken = server
        .post(
            &path,
            json!({"git_repository": {"url": url, "root_path": "/infra"}, "mode": {"type": "AutoDiscover"}}),
        )
        .await;
    assert_error(&broken, StatusCode::BAD_REQUEST, "TFVARS_NOT_HCL");
    assert!(broken.body["message"]
        .as_str()
        .unwrap()
        .contains("infra/bad.tfvars"));
}

/// Deploys the service with `body`, waits for the end, and returns the deployed commit its
/// record shows at `path` (where its kind keeps its repository).
async fn deployed_commit(
    server: &TestServer,
    kind: &str,
    id: &str,
    body: serde_json::Value,
    path: &str,
) -> serde_json::Value {
    let deployed = server.post(&format!("/api/{kind}/{id}/deploy"), body).await;
    assert_eq!(
        deployed.status,
        StatusCode::ACCEPTED,
        "{kind}: {}",
        deployed.body
    );
    server.settled(&format!("/api/{kind}/{id}/status")).await;
    let record = server.get(&format!("/api/{kind}/{id}")).await.body;
    record
        .pointer(&format!("{path}/deployed_commit_id"))
        .cloned()
        .unwrap_or_else(|| panic!("{kind}: no {path} in {record}"))
}

#[tokio::test]
async fn every_kind_built_from_git_records_the_commit_it_deployed() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (_repository, url) = repository();
    let git = json!({"url": url, "branch": "main"});
    for (kind, body, path) in [
        (
            "application",
            json!({"name": "web", "git_repository": git}),
            "/git_repository",
        ),
        (
            "job",
            json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                   "source": {"docker": {"git_repository": git}}}),
            "/source/docker/git_repository",
        ),
        (
            "helm",
            json!({"name": "redis", "source": {"git": {"git_repository": git, "chart_path": "/charts/redis"}}}),
            "/source/git/git_repository",
        ),
        (
            "terraform",
            json!({"name": "cdn", "engine": "TERRAFORM", "backend": {"kubernetes": {}},
                   "terraform_files_source": {"git": {"git_repository": git}}}),
            "/terraform_files_source/git/git_repository",
        ),
    ] {
        let created = server
            .post(&format!("/api/environment/{environment}/{kind}"), body)
            .await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let id = created.body["id"].as_str().unwrap();
        let commits = server.get(&format!("/api/{kind}/{id}/commit")).await.body;
        let newest = commits["results"][0]["git_commit_id"].as_str().unwrap();
        let oldest = commits["results"][1]["git_commit_id"].as_str().unwrap();

        // A deploy of the branch finds its tip at the clone and records it.
        let deployed = deployed_commit(&server, kind, id, json!({}), path).await;
        assert_eq!(deployed, newest, "{kind}");
        let history = server
            .get(&format!("/api/{kind}/{id}/deploymentHistoryV2"))
            .await
            .body;
        assert_eq!(
            history["results"][0]["details"]["commit"]["git_commit_id"],
            newest
        );
        let log = server.service_log(id, None, None).await;
        assert!(
            log.to_string()
                .contains(&format!("the branch is at commit {newest}")),
            "{kind}: {log}"
        );

        // An abbreviated id is the commit it names; a change of settings keeps what was deployed.
        let body = json!({"git_commit_id": &oldest[..10]});
        let deployed = deployed_commit(&server, kind, id, body, path).await;
        assert_eq!(deployed, oldest, "{kind}");
    }
    let application = server
        .get(&format!("/api/environment/{environment}/application"))
        .await
        .body["results"][0]
        .clone();
    let id = application["id"].as_str().unwrap();
    let renamed = server
        .put(
            &format!("/api/application/{id}"),
            json!({"name": "web-2", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(
        renamed.body["git_repository"]["deployed_commit_id"],
        application["git_repository"]["deployed_commit_id"]
    );
}

#[tokio::test]
async fn a_commit_the_repository_does_not_have_is_refused_before_anything_runs() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (_repository, url) = repository();
    let created = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web", "git_repository": {"url": url}}),
        )
        .await;
    let id = created.body["id"].as_str().unwrap();
    let unknown = server
        .post(
            &format!("/api/application/{id}/deploy"),
            json!({"git_commit_id": "0123456789abcdef0123456789abcdef01234567"}),
        )
        .await;
    assert_invalid_fields(&unknown, &["git_commit_id"]);
    let status = server.get(&format!("/api/application/{id}/status")).await;
    assert_eq!(status.body["state"], "READY", "nothing was queued");

    // Services not built from git take no commit.
    let database = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "db", "type": "REDIS", "version": "7", "mode": "CONTAINER"}),
        )
        .await;
    let database = database.body["id"].as_str().unwrap();
    let refused = server
        .post(
            &format!("/api/database/{database}/deploy"),
            json!({"git_commit_id": "0123456789abcdef"}),
        )
        .await;
    assert_invalid_fields(&refused, &["git_commit_id"]);
}

#[tokio::test]
async fn a_branch_that_is_gone_fails_the_clone_and_says_why() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (_repository, url) = repository();
    let created = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web", "git_repository": {"url": url, "branch": "release"}}),
        )
        .await;
    let id = created.body["id"].as_str().unwrap();
    server
        .post(&format!("/api/application/{id}/deploy"), json!({}))
        .await;
    let status = server.settled_status(id).await;
    assert_eq!(status["state"], "BUILD_ERROR", "{status}");
    let steps = status["steps"]["details"].as_array().unwrap();
    let failed = steps.iter().find(|step| step["status"] == "ERROR").unwrap();
    assert_eq!(failed["step_name"], "GIT_CLONE");
    let log = server.service_log(id, None, None).await;
    let last = log["results"].as_array().unwrap().last().unwrap().clone();
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("Git clone: The repository could not be read"),
        "{last}"
    );
}

#[tokio::test]
async fn repositories_outside_the_allowed_folders_are_refused_alike() {
    // A server given no folder: the tests' temporary repositories are outside what it reads.
    let dir = tempfile::TempDir::new().unwrap();
    let mut no_roots = common::config(&dir);
    no_roots.git_roots.clear();
    let server = TestServer::with_config(dir, no_roots).await;
    let (_repository, existing) = repository();
    let missing = "file:///nowhere/at/all".to_string();
    // WRITE may read the variables of any repository the server reads: the folders decide.
    let write = format!("Token {}", server.token_with_role("WRITE").await);
    let tfvars = format!(
        "/api/organization/{}/listTfVarsFilesFromGitRepo",
        server.organization_id
    );
    let mut messages = Vec::new();
    for url in [&existing, &missing, &"/etc".to_string()] {
        let body = json!({"git_repository": {"url": url}, "mode": {"type": "AutoDiscover"}});
        let refused = server
            .call(
                axum::http::Method::POST,
                &tfvars,
                Some(&write),
                Some(&body.to_string()),
            )
            .await;
        assert_error(&refused, StatusCode::BAD_REQUEST, "REPOSITORY_UNREACHABLE");
        messages.push(
            refused.body["message"]
                .as_str()
                .unwrap()
                .replace(url.as_str(), "URL"),
        );
    }
    // The same words whether the path exists, is a repository, or not: the disk is not probed.
    assert!(messages.iter().all(|m| *m == messages[0]), "{messages:?}");

    // An application built from such a path lists no commits, and does not deploy.
    let (_, environment, _) = server.hierarchy().await;
    let application = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "peek", "git_repository": {"url": existing}}),
        )
        .await;
    let id = application.body["id"].as_str().unwrap();
    let commits = server.get(&format!("/api/application/{id}/commit")).await;
    assert_error(&commits, StatusCode::BAD_REQUEST, "REPOSITORY_UNREACHABLE");
    let deploy = server
        .post(
            &format!("/api/application/{id}/deploy"),
            json!({"git_commit_id": "0123456789abcdef0123456789abcdef01234567"}),
        )
        .await;
    assert_error(&deploy, StatusCode::BAD_REQUEST, "REPOSITORY_UNREACHABLE");
}

#[tokio::test]
async fn an_applications_contributors_are_its_commits_authors() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (repository, url) = repository();
    let committed = std::process::Command::new("git")
        .arg("-C")
        .arg(repository.path())
        .args([
            "-c",
            "user.name=Ada Lovelace",
            "-c",
            "user.email=ada@example.com",
            "commit",
            "--allow-empty",
            "--quiet",
            "-m",
            "third",
        ])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", repository.path())
        .status()
        .unwrap();
    assert!(committed.success());
    let id = server
        .create(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web2", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    let contributors = server
        .get(&format!("/api/application/{id}/contributor"))
        .await;
    assert_eq!(contributors.status, StatusCode::OK, "{}", contributors.body);
    let list = contributors.body["results"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{}", contributors.body);
    assert_eq!(list[0]["first_name"], "Ada");
    assert_eq!(list[0]["last_name"], "Lovelace");
    assert_eq!(list[0]["email"], "ada@example.com");
    assert_eq!(list[1]["email"], "demo@platform.invalid");
    // Their first commit among those read is not after their last.
    assert!(list[1]["created_at"].as_str() <= list[1]["updated_at"].as_str());
    let again = server
        .get(&format!("/api/application/{id}/contributor"))
        .await;
    assert_eq!(again.body["results"][0]["id"], list[0]["id"]);
}
