//! The production document's vendor names taken on input as the spec's letters they stand for
//! (`GITHUB` is `PROVIDER_C`), and answered in the letters: a client generated from that document
//! creates records rather than meeting a 400 at its first value.

use crate::common::TestServer;

use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn the_documents_vendor_names_are_taken_as_the_specs_letters() {
    let server = TestServer::new().await;
    let org = &server.organization_id;
    let (_, environment) = server.staging().await;

    let server = &server;
    let application_on = |name: &str, provider: &str| {
        let path = format!("/api/environment/{environment}/application");
        let body = json!({"name": name, "git_repository": {
            "url": format!("https://git.example.com/acme/{name}.git"), "provider": provider}});
        async move { server.post(&path, body).await }
    };
    let application = application_on("web", "GITHUB").await;
    assert_eq!(
        application.status,
        StatusCode::CREATED,
        "{}",
        application.body
    );
    assert_eq!(application.body["git_repository"]["provider"], "PROVIDER_C");

    let token = server
        .post(
            &format!("/api/organization/{org}/gitToken"),
            json!({"name": "ci", "type": "BITBUCKET", "workspace": "acme", "token": "t0ken-value"}),
        )
        .await;
    assert_eq!(token.status, StatusCode::CREATED, "{}", token.body);
    assert_eq!(token.body["type"], "PROVIDER_G");

    let registry = server
        .post(
            &format!("/api/organization/{org}/containerRegistry"),
            json!({"name": "hub", "kind": "DOCKER_HUB", "config": {}}),
        )
        .await;
    assert_eq!(registry.status, StatusCode::CREATED, "{}", registry.body);
    assert_eq!(registry.body["kind"], "PROVIDER_B_HUB");

    // A name that stands for no value is refused, naming the values taken.
    let refused = application_on("api", "SOURCEFORGE").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(
        refused.body.to_string().contains("PROVIDER_C"),
        "{}",
        refused.body
    );
}
