//! API tokens and roles: the secret is shown once and stored as a hash, the role applies, and a
//! deleted token fails at once.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::json;

#[tokio::test]
async fn the_four_roles_are_listed() {
    let server = TestServer::new().await;
    let roles = server
        .get(&format!(
            "/api/organization/{}/customRole",
            server.organization_id
        ))
        .await;
    assert_eq!(roles.status, StatusCode::OK);
    let names: Vec<&str> = roles.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|role| role["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ADMIN", "DEPLOY", "READ", "WRITE"]);
    for role in roles.body["results"].as_array().unwrap() {
        assert!(role["id"].is_string() && role["description"].is_string());
        assert_eq!(role["built_in"], true);
        assert_eq!(role["permission"], role["name"]);
    }
}

#[tokio::test]
async fn every_member_sees_the_roles_available_by_name_and_only_admins_manage_them() {
    let server = TestServer::new().await;
    let org = &server.organization_id;
    server
        .create(
            &format!("/api/organization/{org}/customRole"),
            json!({"name": "release-manager", "permission": "DEPLOY"}),
        )
        .await;
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let available = server
        .call(
            Method::GET,
            &format!("/api/organization/{org}/availableRole"),
            Some(&reader),
            None,
        )
        .await;
    assert_eq!(available.status, StatusCode::OK, "{}", available.body);
    let names: Vec<&str> = available.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|role| role["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["ADMIN", "DEPLOY", "READ", "WRITE", "release-manager"]
    );
    assert!(available.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|role| role["id"].is_string()));
    let managed = server
        .call(
            Method::GET,
            &format!("/api/organization/{org}/customRole"),
            Some(&reader),
            None,
        )
        .await;
    assert_error(&managed, StatusCode::FORBIDDEN, "FORBIDDEN");
}

#[tokio::test]
async fn a_custom_role_grants_its_permission_and_can_change_it() {
    let server = TestServer::new().await;
    let roles = format!("/api/organization/{}/customRole", server.organization_id);
    let created = server
        .post(
            &roles,
            json!({"name": "release-manager", "description": "Ships", "permission": "DEPLOY"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["built_in"], false);
    let role_id = created.body["id"].as_str().unwrap().to_string();
    let token = server
        .post(
            &format!("/api/organization/{}/apiToken", server.organization_id),
            json!({"name": "ci", "role_id": role_id}),
        )
        .await;
    assert_eq!(token.body["role_name"], "release-manager");
    let auth = format!("Token {}", token.body["token"].as_str().unwrap());
    let projects = format!("/api/organization/{}/project", server.organization_id);
    let create_project = || {
        server.call(
            Method::POST,
            &projects,
            Some(&auth),
            Some(r#"{"name": "by-ci"}"#),
        )
    };
    assert_error(&create_project().await, StatusCode::FORBIDDEN, "FORBIDDEN");

    let admin = format!("Token {}", server.token);
    let role_path = format!("{roles}/{role_id}");
    let raised = server
        .call(
            Method::PUT,
            &role_path,
            Some(&admin),
            Some(&json!({"name": "release-manager", "permission": "WRITE"}).to_string()),
        )
        .await;
    assert_eq!(raised.status, StatusCode::OK, "{}", raised.body);
    assert_eq!(
        create_project().await.status,
        StatusCode::OK,
        "the new permission applies at once"
    );

    let in_use = server
        .call(Method::DELETE, &role_path, Some(&admin), None)
        .await;
    assert_error(&in_use, StatusCode::CONFLICT, "CONFLICT");
    let read_role = server.role_id("READ").await;
    let built_in = server
        .call(
            Method::DELETE,
            &format!("{roles}/{read_role}"),
            Some(&admin),
            None,
        )
        .await;
    assert_error(&built_in, StatusCode::CONFLICT, "CONFLICT");
    assert_invalid_fields(
        &server
            .post(&roles, json!({"name": "x", "permission": "OWNER"}))
            .await,
        &["permission"],
    );
    assert_error(
        &server
            .post(&roles, json!({"name": "READ", "permission": "READ"}))
            .await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
}

#[tokio::test]
async fn a_token_is_shown_once_and_works_with_its_role() {
    let server = TestServer::new().await;
    let created = server.api_token("READ").await;
    let secret = created["token"].as_str().unwrap().to_string();
    assert!(secret.starts_with("pt_"));
    assert_eq!(created["role_name"], "READ");
    assert_eq!(created["name"], "READ token");

    let read = format!("Token {secret}");
    let reply = server
        .call(Method::GET, "/api/organization", Some(&read), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    // The token can tell what its role allows before trying.
    let role = server
        .call(
            Method::GET,
            &format!("/api/organization/{}/currentRole", server.organization_id),
            Some(&read),
            None,
        )
        .await;
    assert_eq!(role.status, StatusCode::OK);
    assert_eq!(role.body, json!({"name": "READ", "permission": "READ"}));
    let refused = server
        .call(
            Method::POST,
            &format!("/api/organization/{}/project", server.organization_id),
            Some(&read),
            Some(r#"{"name": "nope"}"#),
        )
        .await;
    assert_error(&refused, StatusCode::FORBIDDEN, "FORBIDDEN");

    let tokens = format!("/api/organization/{}/apiToken", server.organization_id);
    let list = server.get(&tokens).await;
    assert_eq!(list.status, StatusCode::OK);
    let id = created["id"].as_str().unwrap();
    let one = server.get(&format!("{tokens}/{id}")).await;
    assert_eq!(one.body["id"], id);
    for body in [&list.body, &one.body] {
        let text = body.to_string();
        assert!(!text.contains(&secret), "the secret came back: {text}");
        assert!(
            !text.contains("token_hash") && !text.contains("\"token\""),
            "{text}"
        );
    }
}

#[tokio::test]
async fn a_deleted_token_fails_at_once() {
    let server = TestServer::new().await;
    let created = server.api_token("WRITE").await;
    let auth = format!("Token {}", created["token"].as_str().unwrap());
    let path = format!(
        "/api/organization/{}/apiToken/{}",
        server.organization_id,
        created["id"].as_str().unwrap()
    );
    assert_eq!(
        server
            .call(Method::GET, "/api/organization", Some(&auth), None)
            .await
            .status,
        StatusCode::OK
    );
    let deleted = server
        .call(
            Method::DELETE,
            &path,
            Some(&format!("Token {}", server.token)),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let refused = server
        .call(Method::GET, "/api/organization", Some(&auth), None)
        .await;
    assert_error(&refused, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    assert_error(&server.get(&path).await, StatusCode::NOT_FOUND, "NOT_FOUND");
}

#[tokio::test]
async fn token_rules_name_the_field() {
    let server = TestServer::new().await;
    let tokens = format!("/api/organization/{}/apiToken", server.organization_id);
    assert_invalid_fields(&server.post(&tokens, json!({})).await, &["name"]);
    assert_invalid_fields(
        &server.post(&tokens, json!({"name": "ci"})).await,
        &["role_id"],
    );
    assert_invalid_fields(
        &server
            .post(
                &tokens,
                json!({"name": "ci", "role_id": uuid::Uuid::new_v4()}),
            )
            .await,
        &["role_id"],
    );
    let role_id = server.role_id("DEPLOY").await;
    assert_invalid_fields(
        &server
            .post(
                &tokens,
                json!({"name": "ci", "role_id": role_id, "scope": "READ"}),
            )
            .await,
        &["scope"],
    );
    assert_invalid_fields(
        &server
            .post(
                &tokens,
                json!({"name": "ci", "role_id": role_id, "description": "d".repeat(256)}),
            )
            .await,
        &["description"],
    );
    let unknown = format!("{tokens}/{}", uuid::Uuid::new_v4());
    assert_error(
        &server.get(&unknown).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    let foreign = format!("/api/organization/{}/apiToken", uuid::Uuid::new_v4());
    assert_error(
        &server.get(&foreign).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
}

#[tokio::test]
async fn a_token_stops_working_when_it_expires() {
    let server = TestServer::new().await;
    let tokens = format!("/api/organization/{}/apiToken", server.organization_id);
    let role_id = server.role_id("READ").await;
    let past = server
        .post(
            &tokens,
            json!({"name": "late", "role_id": role_id, "expires_at": "2020-01-01T00:00:00Z"}),
        )
        .await;
    assert_invalid_fields(&past, &["expires_at"]);

    let in_a_month = chrono::Utc::now() + chrono::Duration::days(30);
    let created = server
        .post(
            &tokens,
            json!({"name": "ci", "role_id": role_id, "expires_at": in_a_month}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let listed = server.get(&tokens).await.body;
    let listed = listed["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|token| token["id"] == created.body["id"])
        .unwrap()
        .clone();
    let expires_at: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(listed["expires_at"].clone()).unwrap();
    assert_eq!(expires_at, in_a_month);
    let auth = format!("Token {}", created.body["token"].as_str().unwrap());
    let organization = || server.call(Method::GET, "/api/organization", Some(&auth), None);
    assert_eq!(organization().await.status, StatusCode::OK);

    // A month passes.
    sqlx::query("UPDATE api_tokens SET expires_at = ? WHERE id = ?")
        .bind(chrono::Utc::now() - chrono::Duration::seconds(1))
        .bind(created.body["id"].as_str().unwrap())
        .execute(&server.state.db)
        .await
        .unwrap();
    let refused = organization().await;
    assert_error(&refused, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
    assert_eq!(refused.body["message"], "The API token has expired.");
    // A token without an expiry says so.
    let first = server.get(&tokens).await.body;
    assert!(first["results"][0]["expires_at"].is_null());
}

#[tokio::test]
async fn a_role_in_the_documents_shape_reads_until_given_more() {
    let server = TestServer::new().await;
    let roles = format!("/api/organization/{}/customRole", server.organization_id);
    let created = server.post(&roles, json!({"name": "auditor"})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["permission"], "READ");
    let role = format!("{roles}/{}", created.body["id"].as_str().unwrap());
    let project = server.project("shop").await;
    // Per-project grants that give more than reading would widen to the whole organization
    // here: refused, naming the grant.
    let widened = server
        .put(
            &role,
            json!({"name": "auditor", "cluster_permissions": [], "project_permissions": [
                {"project_id": project, "is_admin": false, "permissions": ["DEPLOYER"]}]}),
        )
        .await;
    assert_invalid_fields(&widened, &["project_permissions[0]"]);
    let viewer = server
        .put(
            &role,
            json!({"name": "auditor", "cluster_permissions": [], "project_permissions": [
                {"project_id": project, "permissions": ["VIEWER"]}]}),
        )
        .await;
    assert_eq!(viewer.status, StatusCode::OK, "{}", viewer.body);
    assert_eq!(viewer.body["permission"], "READ");
    // A token of the deprecated ADMIN scope carries the built-in ADMIN role.
    let token = server
        .post(
            &format!("/api/organization/{}/apiToken", server.organization_id),
            json!({"name": "legacy", "scope": "ADMIN", "role_id": null}),
        )
        .await;
    assert_eq!(token.status, StatusCode::CREATED, "{}", token.body);
    assert_eq!(token.body["role_name"], "ADMIN");
}

#[tokio::test]
async fn the_last_admin_token_is_kept() {
    let server = TestServer::new().await;
    let tokens = format!("/api/organization/{}/apiToken", server.organization_id);
    let listed = server.get(&tokens).await;
    let sign_in = listed.body["results"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let refused = server
        .call(
            Method::DELETE,
            &format!("{tokens}/{sign_in}"),
            Some(&format!("Token {}", server.token)),
            None,
        )
        .await;
    assert_error(&refused, StatusCode::CONFLICT, "CONFLICT");
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .contains("last ADMIN token"));
    // With another ADMIN token, the first may go.
    let other = server.token_with_role("ADMIN").await;
    let deleted = server
        .call(
            Method::DELETE,
            &format!("{tokens}/{sign_in}"),
            Some(&format!("Token {other}")),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
}

/// The sign-in token printed at start expires when told to, and lasts until replaced otherwise.
#[tokio::test]
async fn the_sign_in_token_printed_at_start_expires_as_configured() {
    let expiry = |server: &crate::common::TestServer| {
        let db = server.state.db.clone();
        async move {
            sqlx::query_scalar::<_, Option<chrono::DateTime<chrono::Utc>>>(
                "SELECT expires_at FROM api_tokens WHERE name = ?",
            )
            .bind(platform_server::bootstrap::SIGN_IN_TOKEN_NAME)
            .fetch_one(&db)
            .await
            .unwrap()
        }
    };
    let dir = tempfile::TempDir::new().unwrap();
    let mut config = crate::common::config(&dir);
    config.sign_in_token_lasts = Some(std::time::Duration::from_secs(2 * 60 * 60));
    let server = crate::common::TestServer::with_config(dir, config).await;
    let expires = expiry(&server).await.expect("an expiry");
    let left = expires - chrono::Utc::now();
    assert!(
        left > chrono::Duration::minutes(119) && left <= chrono::Duration::hours(2),
        "{left}"
    );
    let lasting = crate::common::TestServer::new().await;
    assert_eq!(expiry(&lasting).await, None);
}
