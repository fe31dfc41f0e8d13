//! Preview environments: a branch of a service's repository opens a preview of its environment,
//! deployed at the branch, and the branch's deletion closes it; a new tag of a container's image
//! opens one on demand. Rounds are run by the test (the watch's own rounds are an hour apart).

use std::time::Duration;

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, TestServer};
use platform_server::{git, previews};
use serde_json::{json, Value};
use tempfile::TempDir;

async fn server() -> TestServer {
    let dir = TempDir::new().unwrap();
    let mut config = common::config(&dir);
    config.git_watch_every = Duration::from_secs(3600);
    TestServer::with_config(dir, config).await
}

/// Sets the environment's rule's preview switches.
async fn allow_previews(server: &TestServer, environment: &str, auto: bool, on_demand: bool) {
    let path = format!("/api/environment/{environment}/deploymentRule");
    let rule = server.get(&path).await;
    let id = rule.body["id"].as_str().unwrap();
    let mut request = json!({"timezone": "Etc/UTC",
                             "start_time": "1970-01-01T08:00:00.000Z",
                             "stop_time": "1970-01-01T19:00:00.000Z",
                             "weekdays": ["MONDAY"]});
    request["auto_preview"] = json!(auto);
    request["on_demand_preview"] = json!(on_demand);
    let saved = server.put(&format!("{path}/{id}"), request).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.body);
}

async fn previews_of(server: &TestServer, environment: &str) -> Value {
    let reply = server
        .get(&format!("/api/environment/{environment}/previews"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

#[tokio::test]
async fn a_branch_opens_a_preview_environment_and_its_deletion_closes_it() {
    let server = server().await;
    let (repository, url) = common::repository();
    let (_, environment) = server.staging().await;
    let web = server
        .create(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web", "auto_preview": true,
                   "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    let (engine, db) = (&server.state.engine, &server.state.db);
    // Previews not allowed by the environment: a branch changes nothing.
    git::create_branch(repository.path(), "feat-login").unwrap();
    assert_eq!(previews::once(engine, db).await.unwrap(), 0);
    allow_previews(&server, &environment, true, false).await;
    assert_eq!(previews::once(engine, db).await.unwrap(), 1);
    assert_eq!(previews::once(engine, db).await.unwrap(), 0);

    let listed = previews_of(&server, &environment).await;
    let preview = &listed["previews"][0];
    assert_eq!(preview["name"], "staging-feat-login", "{listed}");
    assert_eq!(preview["trigger"], "BRANCH");
    assert_eq!(preview["reference"], "feat-login");
    assert_eq!(preview["service_id"], web.as_str());
    let preview_id = preview["environment_id"].as_str().unwrap().to_string();
    let copy = server.get(&format!("/api/environment/{preview_id}")).await;
    assert_eq!(copy.body["mode"], "PREVIEW");
    let of = previews_of(&server, &preview_id).await;
    assert_eq!(
        of["preview_of"]["source_environment_id"],
        environment.as_str()
    );
    let services = server
        .get(&format!("/api/environment/{preview_id}/application"))
        .await;
    let copied = &services.body["results"][0];
    assert_eq!(copied["git_repository"]["branch"], "feat-login");
    assert_eq!(copied["auto_preview"], false);
    // Deployed at once, at the branch.
    let status = server.settled_status(copied["id"].as_str().unwrap()).await;
    assert_eq!(status["state"], "DEPLOYED", "{status}");

    git::delete_branch(repository.path(), "feat-login").unwrap();
    assert_eq!(previews::once(engine, db).await.unwrap(), 1);
    let gone = server.get(&format!("/api/environment/{preview_id}")).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_eq!(
        previews_of(&server, &environment).await["previews"],
        json!([])
    );
}

#[tokio::test]
async fn a_new_tag_of_a_containers_image_opens_a_preview_on_demand() {
    let server = server().await;
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    server
        .create(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "web", "registry_id": registry, "image_name": "shop/web",
                   "tag": "1.0", "auto_preview": true, "ports": []}),
        )
        .await;
    let path = format!(
        "/api/organization/{}/container/preview",
        server.organization_id
    );
    let tag = json!({"image_name": "shop/web", "tag": "1.1"});
    // Not while the environment does not allow previews.
    assert_error(
        &server.post(&path, tag.clone()).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    allow_previews(&server, &environment, false, true).await;
    let opened = server.post(&path, tag.clone()).await;
    assert_eq!(opened.status, StatusCode::ACCEPTED, "{}", opened.body);
    let listed = previews_of(&server, &environment).await;
    let preview = &listed["previews"][0];
    assert_eq!(preview["trigger"], "IMAGE_TAG", "{listed}");
    assert_eq!(preview["name"], "staging-1-1");
    let preview_id = preview["environment_id"].as_str().unwrap();
    let containers = server
        .get(&format!("/api/environment/{preview_id}/container"))
        .await;
    assert_eq!(containers.body["results"][0]["tag"], "1.1");
    // That tag has its preview already.
    assert_error(
        &server.post(&path, tag).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
}
