//! Checks before create: found or "not found" naming the field, read from a real repository and
//! from the images the organization's containers run.

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, TestServer};
use serde_json::json;

#[tokio::test]
async fn checks_find_what_exists_and_name_what_does_not() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let repository = tempfile::TempDir::new().unwrap();
    platform_server::git::create_repository(
        repository.path(),
        &[(
            "app",
            &[
                (
                    "web/Dockerfile",
                    "ARG RUST_VERSION=1.95\nFROM rust:1.95 AS build\nARG PROFILE\nFROM debian:bookworm\n",
                ),
                ("chart/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n"),
            ],
        )],
    )
    .unwrap();
    let url = format!("file://{}", repository.path().display());
    let check = |what: &str| format!("/api/environment/{environment}/{what}");

    let dockerfile = server
        .post(
            &check("checkDockerfile"),
            json!({"git_repository": {"url": url, "branch": "main", "root_path": "/web"},
                   "dockerfile_path": "Dockerfile"}),
        )
        .await;
    assert_eq!(dockerfile.status, StatusCode::OK, "{}", dockerfile.body);
    assert_eq!(dockerfile.body["arg"], json!(["RUST_VERSION", "PROFILE"]));
    assert_eq!(
        dockerfile.body["repositories"],
        json!(["rust:1.95", "debian:bookworm"])
    );
    let missing = server
        .post(
            &check("checkDockerfile"),
            json!({"git_repository": {"url": url, "branch": "main"},
                   "dockerfile_path": "Dockerfile"}),
        )
        .await;
    assert_invalid_fields(&missing, &["dockerfile_path"]);
    assert!(
        missing.body.to_string().contains("not found"),
        "{}",
        missing.body
    );
    let escaping = server
        .post(
            &check("checkDockerfile"),
            json!({"git_repository": {"url": url}, "dockerfile_path": "../etc/passwd"}),
        )
        .await;
    assert_invalid_fields(&escaping, &["dockerfile_path"]);

    let chart = server
        .post(
            &check("checkHelmRepository"),
            json!({"git_repository": {"url": url, "branch": "main", "root_path": "/chart"}}),
        )
        .await;
    assert_eq!(chart.status, StatusCode::OK, "{}", chart.body);
    let no_chart = server
        .post(
            &check("checkHelmRepository"),
            json!({"git_repository": {"url": url, "branch": "main", "root_path": "/web"}}),
        )
        .await;
    assert_invalid_fields(&no_chart, &["git_repository.root_path"]);

    let files = server
        .post(
            &check("checkGitFile"),
            json!({"git_repository": {"url": url, "branch": "main"},
                   "files": ["web/Dockerfile", "values-prod.yaml"]}),
        )
        .await;
    assert_invalid_fields(&files, &["files[1]"]);

    // An image is found when a container of the organization runs it.
    let registry = server.container_registry().await;
    server
        .create(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "proxy", "registry_id": registry, "image_name": "library/nginx",
                   "tag": "1.27", "ports": []}),
        )
        .await;
    let image = |tag: &str| {
        json!({"registry_id": registry, "registry_d": registry, "image_name": "library/nginx",
               "tag": tag})
    };
    let found = server
        .post(&check("checkContainerImage"), image("1.27"))
        .await;
    assert_eq!(found.status, StatusCode::OK, "{}", found.body);
    let unknown = server
        .post(&check("checkContainerImage"), image("9.99"))
        .await;
    assert_invalid_fields(&unknown, &["tag"]);
}

#[tokio::test]
async fn a_registrys_images_are_those_its_containers_run_or_ran() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let registry = server.container_registry().await;
    let container = server
        .create(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "proxy", "registry_id": registry, "image_name": "library/nginx",
                   "tag": "1.27", "ports": []}),
        )
        .await;
    for deploy in [json!({}), json!({"image_tag": "1.28"})] {
        server
            .post(&format!("/api/container/{container}/deploy"), deploy)
            .await;
        server
            .settled(&format!("/api/container/{container}/status"))
            .await;
    }
    let images = format!(
        "/api/organization/{}/containerRegistry/{registry}/images",
        server.organization_id
    );
    let all = server.get(&images).await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    assert_eq!(
        all.body["results"],
        json!([{"image_name": "library/nginx", "versions": ["1.27", "1.28"]}])
    );
    let searched = server.get(&format!("{images}?searchImageName=NGI")).await;
    assert_eq!(searched.body["results"][0]["image_name"], "library/nginx");
    let none = server
        .get(&format!("{images}?imageName=library/redis"))
        .await;
    assert_eq!(none.body["results"], json!([]));
}
