//! Container registries: the rules of spec 2.9.1, and secrets that never come back.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

fn path(server: &TestServer) -> String {
    format!(
        "/api/organization/{}/containerRegistry",
        server.organization_id
    )
}

#[tokio::test]
async fn a_registry_is_created_read_listed_and_deleted() {
    let server = TestServer::new().await;
    let created = server
        .post(
            &path(&server),
            json!({"name": "builds", "kind": "GENERIC_CR", "url": "https://registry.example/",
                   "description": "CI images", "config": {"username": "robot", "password": "p4ss"}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let registry = &created.body;
    assert_eq!(registry["kind"], "GENERIC_CR");
    assert_eq!(registry["url"], "https://registry.example");
    assert_eq!(registry["config"]["username"], "robot");
    assert_eq!(registry["associated_services_count"], 0);
    assert!(registry["cluster"].is_null());
    let one = format!("{}/{}", path(&server), registry["id"].as_str().unwrap());
    assert_eq!(&server.get(&one).await.body, registry);
    let list = server.get(&path(&server)).await;
    assert_eq!(list.body["results"][0]["id"], registry["id"]);
    for body in [&created.body, &list.body] {
        assert!(!body.to_string().contains("p4ss"), "{body}");
        assert!(body["config"].get("password").is_none());
    }

    assert_error(
        &server
            .post(
                &path(&server),
                json!({"name": "BUILDS", "kind": "PUBLIC_ECR", "url": "https://p.example"}),
            )
            .await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    let auth = format!("Token {}", server.token);
    let deleted = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_error(&server.get(&one).await, StatusCode::NOT_FOUND, "NOT_FOUND");
}

#[tokio::test]
async fn the_kinds_rules_name_the_field() {
    let server = TestServer::new().await;
    let registries = path(&server);
    let post = |body: Value| server.post(&registries, body);
    let docr = post(json!({"name": "d", "kind": "DOCR", "url": "https://d.example"})).await;
    assert_invalid_fields(&docr, &["kind"]);
    assert!(docr.body["fields"][0]["message"]
        .as_str()
        .unwrap()
        .contains("no longer supported"));
    assert_invalid_fields(&post(json!({"name": "x", "kind": "NOPE"})).await, &["kind"]);
    assert_invalid_fields(
        &post(json!({"name": "e", "kind": "ECR", "url": "https://e.example"})).await,
        &[
            "config.region",
            "config.access_key_id",
            "config.secret_access_key",
        ],
    );
    assert_invalid_fields(
        &post(json!({"name": "a", "kind": "PROVIDER_A_CR", "url": "https://a.example", "config": {"region": "eu"}})).await,
        &["config.provider_a_access_key", "config.provider_a_secret_key"],
    );
    assert_invalid_fields(
        &post(json!({"name": "g", "kind": "GENERIC_CR", "url": "http://g.example", "config": {"username": "u"}})).await,
        &["url"],
    );
    assert_invalid_fields(
        &post(json!({"name": "g", "kind": "GENERIC_CR", "config": {"username": "u"}})).await,
        &["url"],
    );
    assert_invalid_fields(
        &post(json!({"name": "h", "kind": "PROVIDER_C_CR", "url": "https://elsewhere.example", "config": {"username": "u"}})).await,
        &["url"],
    );
    let defaulted =
        post(json!({"name": "h", "kind": "PROVIDER_B_HUB", "config": {"username": "u"}})).await;
    assert_eq!(defaulted.status, StatusCode::CREATED, "{}", defaulted.body);
    assert_eq!(defaulted.body["url"], "https://hub.provider-b.example");
    assert_invalid_fields(
        &post(json!({"name": "", "kind": "PUBLIC_ECR", "url": "https://p.example", "description": "d".repeat(256)})).await,
        &["name", "description"],
    );
}

#[tokio::test]
async fn an_update_keeps_the_secrets_it_leaves_out() {
    let server = TestServer::new().await;
    let created = server
        .post(
            &path(&server),
            json!({"name": "ecr", "kind": "ECR", "url": "https://ecr.example",
                   "config": {"region": "eu-west-3", "access_key_id": "AKIA1", "secret_access_key": "first-secret"}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let one = format!("{}/{}", path(&server), created.body["id"].as_str().unwrap());

    let updated = server
        .put(
            &one,
            json!({"name": "ecr-eu", "kind": "ECR", "url": "https://ecr.example",
               "config": {"region": "eu-west-1", "access_key_id": "AKIA2"}}),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["name"], "ecr-eu");
    assert_eq!(updated.body["config"]["region"], "eu-west-1");
    assert_eq!(updated.body["created_at"], created.body["created_at"]);
    assert!(updated.body["updated_at"].is_string());
    let (secrets,): (String,) =
        sqlx::query_as("SELECT secrets FROM organization_resources WHERE id = ?")
            .bind(created.body["id"].as_str().unwrap())
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    let secrets: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&secrets).unwrap();
    assert_eq!(
        server
            .state
            .sealer
            .open(&secrets["secret_access_key"])
            .unwrap(),
        "first-secret",
        "the kept secret"
    );

    // Another kind keeps no secret of the old one.
    let switched = server.put(&one,
        json!({"name": "ecr-eu", "kind": "PROVIDER_E_ARTIFACT_REGISTRY", "url": "https://ar.example",
               "config": {"region": "eu"}}),
    )
    .await;
    assert_invalid_fields(&switched, &["config.json_credentials"]);
}

#[tokio::test]
async fn a_registry_counts_the_services_using_it_and_is_kept_while_they_do() {
    let server = TestServer::new().await;
    let registry = server
        .post(
            &path(&server),
            json!({"name": "hub", "kind": "PUBLIC_ECR", "url": "https://public.ecr.example"}),
        )
        .await
        .body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let one = format!("{}/{registry}", path(&server));
    let (_, environment) = server.staging().await;
    let container = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "registry_id": registry, "image_name": "acme/api", "tag": "1.0"}),
        )
        .await;
    assert_eq!(container.status, StatusCode::CREATED, "{}", container.body);
    let job = server
        .post(
            &format!("/api/environment/{environment}/job"),
            json!({"name": "nightly", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                   "source": {"image": {"registry_id": registry, "image_name": "acme/job", "tag": "2"}}}),
        )
        .await;
    assert_eq!(job.status, StatusCode::CREATED, "{}", job.body);
    assert_eq!(server.get(&one).await.body["associated_services_count"], 2);
    assert_eq!(
        server.get(&path(&server)).await.body["results"][0]["associated_services_count"],
        2
    );

    // Which services they are, and where they live.
    let associated = server.get(&format!("{one}/associatedServices")).await;
    assert_eq!(associated.status, StatusCode::OK, "{}", associated.body);
    let services: Vec<(String, String, String)> = associated.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|service| {
            assert_eq!(service["environment_id"], environment.as_str());
            assert_eq!(service["project_name"], "shop");
            let text = |field: &str| service[field].as_str().unwrap().to_string();
            (
                text("service_id"),
                text("service_name"),
                text("service_type"),
            )
        })
        .collect();
    let id = |reply: &common::Reply| reply.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        services,
        [
            (id(&container), "api".to_string(), "CONTAINER".to_string()),
            (id(&job), "nightly".to_string(), "CRON".to_string())
        ]
    );

    // The statuses of its containers (not its jobs): the container, never deployed yet.
    let statuses = server.get(&format!("{one}/container/status")).await;
    assert_eq!(statuses.status, StatusCode::OK, "{}", statuses.body);
    let listed = statuses.body["results"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "{}", statuses.body);
    assert_eq!(listed[0]["id"], id(&container).as_str());
    assert_eq!(listed[0]["service_deployment_status"], "NEVER_DEPLOYED");

    let auth = format!("Token {}", server.token);
    let refused = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_error(&refused, StatusCode::CONFLICT, "CONFLICT");
    assert_eq!(
        refused.body["message"],
        "This container registry is used by 2 services (api, nightly); change or delete them first."
    );
    for service in [
        format!("/api/container/{}", container.body["id"].as_str().unwrap()),
        format!("/api/job/{}", job.body["id"].as_str().unwrap()),
    ] {
        let deleted = server
            .call(Method::DELETE, &service, Some(&auth), None)
            .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
    }
    assert_eq!(server.get(&one).await.body["associated_services_count"], 0);
    let deleted = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn the_kinds_that_may_be_added_are_listed_with_their_config() {
    let server = TestServer::new().await;
    let registries = server.get("/api/availableContainerRegistry").await;
    assert_eq!(registries.status, StatusCode::OK, "{}", registries.body);
    let ecr = registries.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|kind| kind["kind"] == "ECR")
        .unwrap_or_else(|| panic!("{}", registries.body))
        .clone();
    assert_eq!(ecr["required_config"]["region"], "required");
    assert_eq!(ecr["required_config"]["role_arn"], "optional");
    // A kind refused on creation is not offered.
    assert!(!registries.body.to_string().contains("\"DOCR\""));
    let repositories = server.get("/api/availableHelmRepository").await;
    assert!(
        repositories.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|kind| kind["kind"] == "HTTPS"),
        "{}",
        repositories.body
    );
}
