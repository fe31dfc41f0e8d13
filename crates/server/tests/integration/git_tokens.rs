//! Git tokens: sealed, never answered or logged; chosen on a repository only when they are the
//! organization's and of its code host; named on the services that use them as they are named
//! now; not deleted while used, the refusal naming the services; the clone says which one it read
//! with.

use crate::common::{self, assert_invalid_fields, records, TestServer, GIT_TOKEN_SECRET};

use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_git_token_is_chosen_named_and_kept_while_used() {
    let server = TestServer::new().await;
    let records = records(&server).await;
    let org = &server.organization_id;
    let token = records.id("git_token_id").to_string();
    let application = records.id("application_id").to_string();
    let repository = |extra: serde_json::Value| {
        let mut git =
            json!({"url": format!("file://{}", records.1.path().display()), "branch": "main"});
        git.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!({"name": "web", "git_repository": git})
    };

    // The job of `records` reads with it.
    let listed = server
        .get(&format!("/api/organization/{org}/gitToken"))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert_eq!(listed.body["results"][0]["associated_services_count"], 1);
    assert_eq!(listed.body["results"][0]["type"], "PROVIDER_G");
    assert!(!listed.body.to_string().contains(GIT_TOKEN_SECRET));

    // Not another organization's, not another code host's.
    let unknown = server
        .put(
            &format!("/api/application/{application}"),
            repository(json!({"git_token_id": uuid::Uuid::new_v4()})),
        )
        .await;
    assert_invalid_fields(&unknown, &["git_repository.git_token_id"]);
    let other_host = server
        .put(
            &format!("/api/application/{application}"),
            repository(json!({"git_token_id": token, "provider": "PROVIDER_C"})),
        )
        .await;
    assert_invalid_fields(&other_host, &["git_repository.git_token_id"]);
    assert!(
        other_host.body.to_string().contains("Provider G"),
        "{}",
        other_host.body
    );

    let chosen = server
        .put(
            &format!("/api/application/{application}"),
            repository(json!({"git_token_id": token})),
        )
        .await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.body);
    assert_eq!(
        chosen.body["git_repository"]["git_token_id"],
        token.as_str()
    );
    assert_eq!(chosen.body["git_repository"]["git_token_name"], "ci");

    // Renamed, the token is named so where it is used; its token is kept.
    let renamed = server
        .put(
            &format!("/api/organization/{org}/gitToken/{token}"),
            json!({"name": "ci-bot", "type": "PROVIDER_G", "workspace": "acme"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    let read = server.get(&format!("/api/application/{application}")).await;
    assert_eq!(read.body["git_repository"]["git_token_name"], "ci-bot");

    let used_by = server
        .get(&format!(
            "/api/organization/{org}/gitToken/{token}/associatedServices"
        ))
        .await;
    assert_eq!(used_by.status, StatusCode::OK, "{}", used_by.body);
    let services: Vec<(&str, &str)> = used_by.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["service_name"].as_str().unwrap(),
                s["service_type"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(services, [("backup", "CRON"), ("web", "APPLICATION")]);

    let refused = server
        .call(
            axum::http::Method::DELETE,
            &format!("/api/organization/{org}/gitToken/{token}"),
            Some(&server.auth()),
            None,
        )
        .await;
    common::assert_error(&refused, StatusCode::CONFLICT, "CONFLICT");
    let message = refused.body["message"].as_str().unwrap();
    assert!(
        message.contains("backup") && message.contains("web"),
        "{message}"
    );

    // The clone says which token it read with, never the token.
    let deployed = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    server.settled_status(&application).await;
    let log = server
        .service_log(&application, None, None)
        .await
        .to_string();
    assert!(
        log.contains("read with the git token \\\"ci-bot\\\""),
        "{log}"
    );
    assert!(!log.contains(GIT_TOKEN_SECRET));

    // The audit log names the token's changes, never the token.
    let events = server
        .get(&format!("/api/organization/{org}/events?pageSize=100"))
        .await
        .body
        .to_string();
    assert!(events.contains("GIT_TOKEN"), "{events}");
    assert!(!events.contains(GIT_TOKEN_SECRET));
}

#[tokio::test]
async fn a_git_tokens_rules_name_their_fields() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/gitToken", server.organization_id);
    let bare = server
        .post(&path, json!({"name": " ", "type": "PROVIDER_G"}))
        .await;
    assert_invalid_fields(&bare, &["name", "token", "workspace"]);
    let created = server
        .post(
            &path,
            json!({"name": "deploy", "type": "PROVIDER_C", "token": "t0k3n"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["associated_services_count"], 0);
    // Another host's token replaces the stored one: a new token is asked for.
    let id = created.body["id"].as_str().unwrap();
    let moved = server
        .put(
            &format!("{path}/{id}"),
            json!({"name": "deploy", "type": "PROVIDER_D"}),
        )
        .await;
    assert_invalid_fields(&moved, &["token"]);
    let twice = server
        .post(
            &path,
            json!({"name": "deploy", "type": "PROVIDER_C", "token": "other"}),
        )
        .await;
    assert_eq!(twice.status, StatusCode::CONFLICT, "{}", twice.body);
}
