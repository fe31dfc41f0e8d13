//! Auto-deploy for real: a push to a watched branch deploys each service with `auto_deploy`
//! once, at the newest commit of a burst, unless its restrictions exclude every changed path;
//! a new image tag announced to the organization deploys the containers that run the image.

use std::time::Duration;

use crate::common;

use axum::http::StatusCode;
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};
use tempfile::TempDir;

/// A server whose watch reads the branches every 20 ms, its engine `speed` times faster than
/// real life.
async fn watching_server(speed: f64) -> TestServer {
    let dir = TempDir::new().unwrap();
    let mut config = common::config(&dir);
    config.git_watch_every = Duration::from_millis(20);
    config.engine_speed = speed;
    TestServer::with_config(dir, config).await
}

/// A monorepo: a web app and an API side by side, and their docs.
fn monorepo() -> (TempDir, String) {
    let dir = TempDir::new().unwrap();
    platform_server::git::create_repository(
        dir.path(),
        &[(
            "both apps",
            &[
                ("web/app.js", "1"),
                ("api/main.go", "1"),
                ("docs/index.md", "1"),
            ],
        )],
    )
    .unwrap();
    let url = format!("file://{}", dir.path().display());
    (dir, url)
}

async fn application(server: &TestServer, environment: &str, name: &str, body: Value) -> String {
    let mut request = json!({"name": name});
    request
        .as_object_mut()
        .unwrap()
        .extend(body.as_object().unwrap().clone());
    server
        .create(
            &format!("/api/environment/{environment}/application"),
            request,
        )
        .await
}

/// Polls the service's watch until `done` holds.
async fn watch_until(server: &TestServer, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let watch = server
            .get(&format!("/api/application/{id}/autoDeploy"))
            .await;
        assert_eq!(watch.status, StatusCode::OK, "{}", watch.body);
        if done(&watch.body) {
            return watch.body;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the watch of {id} never got there");
}

fn pushes(watch: &Value) -> &Vec<Value> {
    watch["pushes"].as_array().unwrap()
}

#[tokio::test]
async fn a_push_deploys_each_watching_service_once_unless_its_restrictions_exclude_it() {
    let server = watching_server(common::FAST).await;
    let (_, environment) = server.staging().await;
    let (repository, url) = monorepo();
    let git = json!({"git_repository": {"url": url, "branch": "main"}});
    let mut watching = git.clone();
    watching["auto_deploy"] = json!(true);
    let web = application(&server, &environment, "web", watching.clone()).await;
    let api = application(&server, &environment, "api", watching).await;
    let manual = application(&server, &environment, "manual", git).await;
    for (id, value) in [(&web, "web/"), (&api, "api/")] {
        let restriction = server
            .post(
                &format!("/api/application/{id}/deploymentRestriction"),
                json!({"mode": "MATCH", "type": "PATH", "value": value}),
            )
            .await;
        assert_eq!(
            restriction.status,
            StatusCode::CREATED,
            "{}",
            restriction.body
        );
    }
    // The watch starts from the branch's tip as it finds it: nothing deploys for what was there.
    for id in [&web, &api] {
        let watch = watch_until(&server, id, |w| w["last_seen"].is_object()).await;
        assert_eq!(watch["watching"], true);
        assert_eq!(watch["branch"], "main");
        assert_eq!(watch["last_seen"]["message"], "both apps");
    }
    let off = server
        .get(&format!("/api/application/{manual}/autoDeploy"))
        .await;
    assert_eq!(off.body["watching"], false);
    assert!(off.body["not_watching_because"]
        .as_str()
        .unwrap()
        .contains("Auto-deploy is off"));

    // A burst of three pushes to the web app, and one to the docs.
    for (message, files) in [
        ("web: header", &[("web/app.js", "2")][..]),
        ("web: footer", &[("web/app.js", "3")][..]),
        (
            "docs and web",
            &[("docs/index.md", "2"), ("web/app.js", "4")][..],
        ),
    ] {
        platform_server::git::commit(repository.path(), message, files).unwrap();
    }
    let newest = server
        .get(&format!("/api/application/{web}/commit"))
        .await
        .body["results"][0]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();
    let watch = watch_until(&server, &web, |w| !pushes(w).is_empty()).await;
    let pushed = &pushes(&watch)[0];
    assert_eq!(pushed["outcome"], "DEPLOYED", "{watch}");
    assert_eq!(pushed["git_commit_id"], newest.as_str());
    assert_eq!(pushed["author_name"], "Platform demo");
    let status = server.settled_status(&web).await;
    assert_eq!(status["state"], "DEPLOYED", "{status}");
    let history = server
        .get(&format!("/api/application/{web}/deploymentHistoryV2"))
        .await
        .body;
    let deployments = history["results"].as_array().unwrap();
    assert_eq!(
        deployments.len(),
        1,
        "one deployment for the burst: {history}"
    );
    let deployment = &deployments[0];
    assert_eq!(deployment["auditing_data"]["origin"], "GIT");
    assert_eq!(deployment["auditing_data"]["triggered_by"], "Platform demo");
    assert_eq!(
        deployment["details"]["commit"]["git_commit_id"],
        newest.as_str()
    );
    assert_eq!(
        deployment["identifier"]["execution_id"],
        pushed["execution_id"]
    );

    // The API's restriction let none of the changed paths through: skipped, and why.
    let watch = watch_until(&server, &api, |w| !pushes(w).is_empty()).await;
    let skipped = &pushes(&watch)[0];
    assert_eq!(skipped["outcome"], "SKIPPED", "{watch}");
    assert_eq!(skipped["reason"], "no changed path is under api/");
    let api_status = server.get(&format!("/api/application/{api}/status")).await;
    assert_eq!(api_status.body["state"], "READY", "{}", api_status.body);
    // And the service without auto-deploy was left alone.
    let manual_status = server
        .get(&format!("/api/application/{manual}/status"))
        .await;
    assert_eq!(manual_status.body["state"], "READY");
    assert!(pushes(
        &server
            .get(&format!("/api/application/{manual}/autoDeploy"))
            .await
            .body
    )
    .is_empty());

    // The audit log names the push's author and its origin.
    let events = server
        .get(&format!(
            "/api/organization/{}/events?targetId={web}&origin=GIT",
            server.organization_id
        ))
        .await
        .body;
    let event = &events["events"][0];
    assert_eq!(event["triggered_by"], "Platform demo", "{events}");
    assert_eq!(event["event_type"], "TRIGGER_DEPLOY");
    assert!(
        event["change"].as_str().unwrap().contains(&newest),
        "{event}"
    );
}

#[tokio::test]
async fn a_push_to_a_busy_service_deploys_when_it_is_free() {
    // A deployment of about a second: the push arrives while it runs.
    let server = watching_server(40.0).await;
    let (_, environment) = server.staging().await;
    let (repository, url) = monorepo();
    let web = application(
        &server,
        &environment,
        "web",
        json!({"git_repository": {"url": url, "branch": "main"}, "auto_deploy": true}),
    )
    .await;
    watch_until(&server, &web, |w| w["last_seen"].is_object()).await;
    // A deployment asked by hand holds the service while the push arrives.
    let by_hand = server
        .post(&format!("/api/application/{web}/deploy"), json!({}))
        .await;
    assert_eq!(by_hand.status, StatusCode::ACCEPTED, "{}", by_hand.body);
    platform_server::git::commit(repository.path(), "web: later", &[("web/app.js", "2")]).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let busy = server
        .get(&format!("/api/application/{web}/autoDeploy"))
        .await;
    assert!(pushes(&busy.body).is_empty(), "{}", busy.body);
    let status = server.get(&format!("/api/application/{web}/status")).await;
    let state: platform_api::ServiceState =
        serde_json::from_value(status.body["state"].clone()).unwrap();
    assert!(state.is_in_progress(), "{}", status.body);
    let watch = watch_until(&server, &web, |w| !pushes(w).is_empty()).await;
    assert_eq!(pushes(&watch)[0]["outcome"], "DEPLOYED");
    assert_eq!(pushes(&watch)[0]["message"], "web: later");
    server.settled_status(&web).await;
    let history = server
        .get(&format!("/api/application/{web}/deploymentHistoryV2"))
        .await
        .body;
    let origins: Vec<&str> = history["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["auditing_data"]["origin"].as_str().unwrap())
        .collect();
    assert_eq!(origins, ["GIT", "API"], "{history}");
}

#[tokio::test]
async fn restrictions_are_checked_kept_apart_and_previewed_against_real_commits() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (repository, url) = monorepo();
    platform_server::git::commit(repository.path(), "docs", &[("docs/index.md", "2")]).unwrap();
    let web = application(
        &server,
        &environment,
        "web",
        json!({"git_repository": {"url": url, "branch": "main"}}),
    )
    .await;
    let path = format!("/api/application/{web}/deploymentRestriction");
    for (body, field) in [
        (
            json!({"mode": "MATCH", "type": "PATH", "value": "/web"}),
            "value",
        ),
        (
            json!({"mode": "MATCH", "type": "PATH", "value": " "}),
            "value",
        ),
        (
            json!({"mode": "MATCH", "type": "PATH", "value": "a/../b"}),
            "value",
        ),
    ] {
        assert_invalid_fields(&server.post(&path, body).await, &[field]);
    }
    let wrong_mode = server
        .post(
            &path,
            json!({"mode": "ONLY", "type": "PATH", "value": "web/"}),
        )
        .await;
    assert_invalid_fields(&wrong_mode, &["mode"]);

    let created = server
        .post(
            &path,
            json!({"mode": "EXCLUDE", "type": "PATH", "value": "docs/"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    let again = server
        .post(
            &path,
            json!({"mode": "EXCLUDE", "type": "PATH", "value": "docs/"}),
        )
        .await;
    assert_error(&again, StatusCode::CONFLICT, "CONFLICT");
    let changed = server
        .put(
            &format!("{path}/{id}"),
            json!({"mode": "MATCH", "type": "PATH", "value": "web/"}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    assert_eq!(changed.body["mode"], "MATCH");
    assert_eq!(changed.body["created_at"], created.body["created_at"]);
    assert!(changed.body["updated_at"].is_string());
    let listed = server.get(&path).await.body;
    assert_eq!(listed["results"].as_array().unwrap().len(), 1);
    assert_eq!(listed["results"][0]["value"], "web/");

    // Another service's restriction is not reached through this one.
    let other = application(
        &server,
        &environment,
        "other",
        json!({"git_repository": {"url": url, "branch": "main"}}),
    )
    .await;
    let elsewhere = server
        .get(&format!("/api/application/{other}/deploymentRestriction"))
        .await;
    assert!(elsewhere.body["results"].as_array().unwrap().is_empty());
    let crossed = server
        .call(
            axum::http::Method::DELETE,
            &format!("/api/application/{other}/deploymentRestriction/{id}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_error(&crossed, StatusCode::NOT_FOUND, "NOT_FOUND");

    // The branch's commits with what each changed, newest first.
    let preview = server
        .get(&format!("/api/application/{web}/commitChanges"))
        .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let commits = preview.body["results"].as_array().unwrap();
    assert_eq!(commits[0]["commit"]["message"], "docs");
    assert_eq!(commits[0]["changed_paths"], json!(["docs/index.md"]));
    assert_eq!(
        commits[1]["changed_paths"],
        json!(["api/main.go", "docs/index.md", "web/app.js"])
    );

    let deleted = server
        .call(
            axum::http::Method::DELETE,
            &format!("{path}/{id}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert!(server.get(&path).await.body["results"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_new_image_tag_deploys_the_containers_with_auto_deploy_that_run_the_image() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let container = |name: &str, auto_deploy: bool| {
        json!({"name": name, "registry_id": registry, "image_name": "shop/web", "tag": "1.0",
               "auto_deploy": auto_deploy, "ports": []})
    };
    let watching = server
        .create(
            &format!("/api/environment/{environment}/container"),
            container("web", true),
        )
        .await;
    let manual = server
        .create(
            &format!("/api/environment/{environment}/container"),
            container("web-manual", false),
        )
        .await;
    let path = format!(
        "/api/organization/{}/container/deploy",
        server.organization_id
    );
    let bad = server
        .post(&path, json!({"image_name": "shop/web", "tag": "-x"}))
        .await;
    assert_invalid_fields(&bad, &["tag"]);
    let deployed = server
        .post(&path, json!({"image_name": "shop/web", "tag": "1.1"}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    assert_eq!(deployed.body["id"], watching.as_str());
    server
        .settled(&format!("/api/container/{watching}/status"))
        .await;
    let now = server.get(&format!("/api/container/{watching}")).await.body;
    assert_eq!(now["tag"], "1.1");
    let untouched = server.get(&format!("/api/container/{manual}")).await.body;
    assert_eq!(untouched["tag"], "1.0");
    // The same tag again finds nothing to deploy.
    let again = server
        .post(&path, json!({"image_name": "shop/web", "tag": "1.1"}))
        .await;
    assert_error(&again, StatusCode::NOT_FOUND, "NOT_FOUND");
}

#[tokio::test]
async fn the_webhook_status_is_the_watch_and_a_sync_reads_the_branch_now() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (repository, url) = monorepo();
    let git = json!({"git_repository": {"url": url, "branch": "main"}});
    let mut watching = git.clone();
    watching["auto_deploy"] = json!(true);
    let web = application(&server, &environment, "web", watching).await;
    let manual = application(&server, &environment, "manual", git).await;
    let remote = application(
        &server,
        &environment,
        "remote",
        json!({"auto_deploy": true, "git_repository": {"url": "https://git.example.com/shop.git"}}),
    )
    .await;
    let server = &server;
    let status = |id: &str| {
        let path = format!("/api/service/{id}/gitWebhookStatus");
        async move { server.get(&path).await }
    };
    let active = status(&web).await;
    assert_eq!(active.status, StatusCode::OK, "{}", active.body);
    assert_eq!(active.body["status"], "ACTIVE");
    assert_eq!(active.body["provider"], "PROVIDER_G");
    assert_eq!(status(&manual).await.body["status"], "NOT_CONFIGURED");
    assert_eq!(status(&remote).await.body["status"], "UNABLE_TO_VERIFY");
    let container = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "registry_id": server.container_registry().await, "image_name": "acme/api", "tag": "1"}),
        )
        .await;
    let no_git = status(container.body["id"].as_str().unwrap()).await;
    assert_error(&no_git, StatusCode::BAD_REQUEST, "NO_GIT_REPOSITORY");

    // A sync reads the branch at once: its first read is where pushes count from, a push is
    // acted on at the read after the one that saw it (or a round's, whichever comes first).
    let sync = format!("/api/service/{web}/gitWebhook/sync");
    let synced = server.post(&sync, json!({})).await;
    assert_eq!(synced.status, StatusCode::OK, "{}", synced.body);
    assert_eq!(synced.body["status"], "ACTIVE");
    platform_server::git::commit(repository.path(), "web: new page", &[("web/page.js", "2")])
        .unwrap();
    server.post(&sync, json!({})).await;
    server.post(&sync, json!({})).await;
    let watch = server
        .get(&format!("/api/application/{web}/autoDeploy"))
        .await
        .body;
    assert_eq!(pushes(&watch)[0]["message"], "web: new page", "{watch}");
    assert_eq!(pushes(&watch)[0]["outcome"], "DEPLOYED");
    // The service that does not deploy on push is left alone by a sync.
    let manual_sync = server
        .post(&format!("/api/service/{manual}/gitWebhook/sync"), json!({}))
        .await;
    assert_eq!(manual_sync.body["status"], "NOT_CONFIGURED");
    assert!(pushes(
        &server
            .get(&format!("/api/application/{manual}/autoDeploy"))
            .await
            .body
    )
    .is_empty());
}
