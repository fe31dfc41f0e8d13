//! A database's master credentials: made when first asked for, the same afterwards, kept sealed,
//! kept across an update, refused to a READ token, and each reading in the audit log without
//! the password.

use crate::common::TestServer;

use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_databases_credentials_are_made_once_kept_sealed_and_audited() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER", "accessibility": "PRIVATE"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let database = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/database/{database}/masterCredentials");

    let first = server.get(&path).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    let short = &environment.replace('-', "")[..8];
    assert_eq!(
        first.body["host"],
        format!("orders.{short}.svc.cluster.local")
    );
    assert_eq!(first.body["port"], 5432);
    assert_eq!(first.body["login"], "superuser");
    let password = first.body["password"].as_str().unwrap().to_string();
    assert_eq!(password.len(), 24);
    assert_eq!(server.get(&path).await.body["password"], password.as_str());

    // Stored sealed: the database holds no clear password.
    let stored: String = sqlx::query_scalar("SELECT secrets FROM services WHERE id = ?")
        .bind(&database)
        .fetch_one(&server.state.db)
        .await
        .unwrap();
    assert!(!stored.contains(&password), "{stored}");
    assert!(stored.contains("sealed:v1:"), "{stored}");

    // An update of the database keeps it.
    let updated = server
        .call(
            Method::PUT,
            &format!("/api/database/{database}"),
            Some(&server.auth()),
            Some(&json!({"name": "orders", "version": "17"}).to_string()),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(server.get(&path).await.body["password"], password.as_str());

    // Revealing a password takes WRITE.
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let refused = server.call(Method::GET, &path, Some(&reader), None).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);

    // Each reading is in the audit log, the password in none of it.
    let organization = &server.organization_id;
    let events = server
        .get(&format!(
            "/api/organization/{organization}/events?targetId={database}"
        ))
        .await;
    assert_eq!(events.status, StatusCode::OK, "{}", events.body);
    let exported = events.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["event_type"] == "EXPORT")
        .count();
    assert_eq!(exported, 3, "{}", events.body);
    assert!(!events.body.to_string().contains(&password));
}

#[tokio::test]
async fn only_a_database_has_master_credentials() {
    let server = TestServer::new().await;
    let (_, _, application) = server.hierarchy().await;
    let reply = server
        .get(&format!("/api/database/{application}/masterCredentials"))
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
}
