//! Where services are reached: `GET /{kind}/{id}/link` and `GET /environment/{id}/link`, and the
//! `/run/…` page each address answers with on the reference server.

use crate::common::TestServer;

use axum::http::StatusCode;
use serde_json::{json, Value};

/// An application with a default public port 8080, a public 9090 and a private 7000.
async fn reachable_application(server: &TestServer, environment: &str) -> String {
    let reply = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({
                "name": "shop-front",
                "git_repository": {"url": "https://git.example.com/a/b.git"},
                "ports": [
                    {"internal_port": 7000, "publicly_accessible": false},
                    {"internal_port": 9090, "external_port": 443, "publicly_accessible": true},
                    {"internal_port": 8080, "external_port": 443, "publicly_accessible": true, "is_default": true},
                ],
            }),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body["id"].as_str().unwrap().to_string()
}

fn urls(list: &Value) -> Vec<(String, i64, bool)> {
    list["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|link| {
            (
                link["url"].as_str().unwrap().to_string(),
                link["internal_port"].as_i64().unwrap(),
                link["is_default"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// The path of a link's URL on this server.
fn path_of(url: &str) -> String {
    let after_scheme = url.split_once("://").unwrap().1;
    format!("/{}", after_scheme.split_once('/').unwrap().1)
}

#[tokio::test]
async fn a_service_is_reached_at_the_root_of_its_address_and_at_each_public_port() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let application = reachable_application(&server, &environment).await;
    let reply = server
        .get(&format!("/api/application/{application}/link"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let links = urls(&reply.body);
    let paths: Vec<(String, i64, bool)> = links
        .iter()
        .map(|(url, port, default)| (path_of(url), *port, *default))
        .collect();
    assert_eq!(
        paths,
        vec![
            (format!("/run/{application}/"), 8080, true),
            (format!("/run/{application}/p9090/"), 9090, false),
            (format!("/run/{application}/p8080/"), 8080, false),
        ]
    );
    for link in reply.body["results"].as_array().unwrap() {
        assert_eq!(link["service_id"], json!(application));
        assert_eq!(link["service_type"], "APPLICATION");
        assert_eq!(link["external_port"], 443);
        assert_eq!(link["is_qovery_domain"], true);
    }
    // The environment lists its services' links; a service without a public port has none.
    server.application(&environment, "worker").await;
    let all = server
        .get(&format!("/api/environment/{environment}/link"))
        .await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    assert_eq!(urls(&all.body), links);
    // Kinds without addresses have no such route.
    let database = server
        .post(
            &format!("/api/environment/{environment}/database"),
            json!({"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "CONTAINER", "accessibility": "PRIVATE"}),
        )
        .await;
    assert_eq!(database.status, StatusCode::CREATED, "{}", database.body);
    let id = database.body["id"].as_str().unwrap();
    let none = server.get(&format!("/api/database/{id}/link")).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND, "{}", none.body);
}

#[tokio::test]
async fn a_links_page_says_it_stands_for_the_service_and_answers_503_until_it_runs() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let application = reachable_application(&server, &environment).await;
    let root = format!("/run/{application}/");
    let (status, text) = server.page(&root).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{text}");
    assert!(text.contains("shop-front is not running"), "{text}");
    let deployed = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    assert_eq!(
        server.settled_status(&application).await["state"],
        "DEPLOYED"
    );
    let (status, text) = server.page(&root).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("<h1>shop-front</h1>"), "{text}");
    assert!(text.contains("answering on port 8080"), "{text}");
    assert!(text.contains("simulates the platform"), "{text}");
    let (status, text) = server.page(&format!("/run/{application}/p9090/")).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert!(text.contains("answering on port 9090"), "{text}");
    // A private port, or a service that does not exist, answers nothing.
    let (status, _) = server.page(&format!("/run/{application}/p7000/")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server
        .page(&format!("/run/{}/", uuid::Uuid::new_v4()))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_services_ingress_stands_where_the_service_does() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let application = reachable_application(&server, &environment).await;
    let ingress = format!("/api/application/{application}/ingressDeploymentStatus");
    let before = server.get(&ingress).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.body);
    assert_eq!(before.body["status"], "READY");
    let router = before.body["routerId"].as_str().unwrap().to_string();

    let deploy = server
        .post(&format!("/api/application/{application}/deploy"), json!({}))
        .await;
    assert_eq!(deploy.status, StatusCode::ACCEPTED, "{}", deploy.body);
    server.settled_status(&application).await;
    let after = server.get(&ingress).await;
    assert_eq!(after.body["status"], "DEPLOYED", "{}", after.body);
    assert_eq!(after.body["routerId"], router.as_str());

    // A service with no public port has no ingress.
    let private = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "worker", "git_repository": {"url": "https://git.example.com/a/w.git"}}),
        )
        .await;
    let id = private.body["id"].as_str().unwrap();
    let none = server
        .get(&format!("/api/application/{id}/ingressDeploymentStatus"))
        .await;
    assert_eq!(none.status, StatusCode::OK, "{}", none.body);
    assert_eq!(none.body, json!({}));
}
