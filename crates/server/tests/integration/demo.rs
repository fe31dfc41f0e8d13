//! `--demo`: what a newcomer sees at the first start: projects with environments on clusters,
//! applications built from a real local repository, databases and a registry; production
//! deploying at once.

use crate::common;

use common::{config, TestServer};
use tempfile::TempDir;

#[tokio::test]
async fn the_demo_organization_is_ready_to_explore() {
    let dir = TempDir::new().unwrap();
    let mut demo = config(&dir);
    demo.demo = true;
    let server = TestServer::with_config(dir, demo).await;
    let organization = &server.organization_id;

    let projects = server
        .get(&format!("/api/organization/{organization}/project"))
        .await
        .body;
    let names: Vec<&str> = projects["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["internal-tools", "storefront"]);

    let clusters = server
        .get(&format!("/api/organization/{organization}/cluster"))
        .await
        .body;
    assert_eq!(clusters["results"].as_array().unwrap().len(), 2);
    let registries = server
        .get(&format!(
            "/api/organization/{organization}/containerRegistry"
        ))
        .await
        .body;
    assert_eq!(registries["results"][0]["name"], "public-images");

    let storefront = projects["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "storefront")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let environments = server
        .get(&format!("/api/project/{storefront}/environment"))
        .await
        .body;
    let production = environments["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "production")
        .unwrap()
        .clone();
    assert!(production["cluster_id"].is_string(), "{production}");
    let production_id = production["id"].as_str().unwrap();

    // Production deploys at start: its applications and its database end deployed.
    let statuses = format!("/api/environment/{production_id}/statuses");
    let mut polls = 0;
    let settled = loop {
        polls += 1;
        assert!(polls < 600, "production never settled");
        let body = server.get(&statuses).await.body;
        let all: Vec<serde_json::Value> = ["applications", "databases"]
            .iter()
            .flat_map(|kind| body[kind].as_array().unwrap().clone())
            .collect();
        if all.iter().all(|s| s["state"] == "DEPLOYED") {
            break all;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(settled.len(), 3, "web, api and orders-db");

    // The applications read the demo repository for real.
    let applications = server
        .get(&format!("/api/environment/{production_id}/application"))
        .await
        .body;
    let web = applications["results"][0]["id"].as_str().unwrap();
    let commits = server.get(&format!("/api/application/{web}/commit")).await;
    assert_eq!(
        commits.status,
        axum::http::StatusCode::OK,
        "{}",
        commits.body
    );
    assert_eq!(
        commits.body["results"][0]["message"],
        "Serve the site faster"
    );
    // What was deployed is the branch's commit, named on the service and in its history (the
    // console showed "latest of the branch" and "—" while the demo's repositories were unread).
    let latest = &commits.body["results"][0]["git_commit_id"];
    let application = server.get(&format!("/api/application/{web}")).await.body;
    assert_eq!(&application["git_repository"]["deployed_commit_id"], latest);
    let history = server
        .get(&format!("/api/application/{web}/deploymentHistoryV2"))
        .await
        .body;
    assert_eq!(
        &history["results"][0]["details"]["commit"]["git_commit_id"], latest,
        "{history}"
    );
}
