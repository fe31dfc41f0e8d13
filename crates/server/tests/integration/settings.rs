//! Organization settings on the shared layer: helm repositories, labels and annotation groups,
//! on-premise credentials. Each is created, read, listed, updated and deleted, and breaks its
//! rules with a 400 naming the field.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

struct Collection<'a> {
    server: &'a TestServer,
    path: String,
}

impl<'a> Collection<'a> {
    fn new(server: &'a TestServer, segment: &str) -> Self {
        Self {
            path: format!("/api/organization/{}/{segment}", server.organization_id),
            server,
        }
    }

    async fn create(&self, body: Value) -> Value {
        let reply = self.server.post(&self.path, body).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body
    }

    async fn put(&self, id: &Value, body: Value) -> common::Reply {
        let auth = format!("Token {}", self.server.token);
        let path = format!("{}/{}", self.path, id.as_str().unwrap());
        self.server
            .call(Method::PUT, &path, Some(&auth), Some(&body.to_string()))
            .await
    }

    /// Reads it back, finds it in the list, deletes it, and sees it gone.
    async fn read_list_delete(&self, record: &Value) {
        let one = format!("{}/{}", self.path, record["id"].as_str().unwrap());
        let read = self.server.get(&one).await;
        assert_eq!(read.status, StatusCode::OK);
        let list = self.server.get(&self.path).await.body;
        assert!(
            list["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == record["id"]),
            "{list}"
        );
        let auth = format!("Token {}", self.server.token);
        let deleted = self
            .server
            .call(Method::DELETE, &one, Some(&auth), None)
            .await;
        assert_eq!(deleted.status, StatusCode::NO_CONTENT);
        assert_error(
            &self.server.get(&one).await,
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
        );
    }
}

#[tokio::test]
async fn helm_repositories() {
    let server = TestServer::new().await;
    let repositories = Collection::new(&server, "helmRepository");
    let created = repositories
        .create(json!({"name": "charts", "kind": "OCI_ECR", "url": "oci://ecr.example/charts",
                       "skip_tls_verification": true,
                       "config": {"region": "eu", "access_key_id": "AKIA", "secret_access_key": "helm-key"}}))
        .await;
    assert_eq!(created["config"]["access_key_id"], "AKIA");
    assert_eq!(created["skip_tls_verification"], true);
    assert!(!created.to_string().contains("helm-key"));
    let renamed = repositories
        .put(
            &created["id"],
            json!({"name": "charts-eu", "kind": "OCI_ECR", "url": "oci://ecr.example/charts",
                                    "config": {"region": "eu", "access_key_id": "AKIA"}}),
        )
        .await;
    assert_eq!(
        renamed.status,
        StatusCode::OK,
        "kept secret: {}",
        renamed.body
    );
    assert_eq!(renamed.body["name"], "charts-eu");
    assert_invalid_fields(
        &server
            .post(
                &repositories.path,
                json!({"name": "x", "kind": "HTTPS", "url": "oci://x.example"}),
            )
            .await,
        &["url"],
    );
    assert_invalid_fields(
        &server
            .post(
                &repositories.path,
                json!({"name": "x", "kind": "OCI_ECR", "url": "oci://x.example"}),
            )
            .await,
        &[
            "config.region",
            "config.access_key_id",
            "config.secret_access_key",
        ],
    );
    assert_invalid_fields(
        &server
            .post(
                &repositories.path,
                json!({"name": "x", "kind": "GIT", "url": "https://x.example"}),
            )
            .await,
        &["kind"],
    );
    repositories.read_list_delete(&renamed.body).await;
}

#[tokio::test]
async fn labels_groups() {
    let server = TestServer::new().await;
    let groups = Collection::new(&server, "labelsGroups");
    let created = groups
        .create(json!({"name": "team", "labels": [{"key": "team", "value": "web", "propagate_to_cloud_provider": false}]}))
        .await;
    assert_eq!(created["labels"][0]["key"], "team");
    let updated = groups
        .put(&created["id"], json!({"name": "owners", "labels": []}))
        .await;
    assert_eq!(updated.status, StatusCode::OK);
    assert_eq!(updated.body["labels"], json!([]));
    assert_invalid_fields(
        &server
            .post(
                &groups.path,
                json!({"name": "dup", "labels": [
                {"key": "a", "value": "1", "propagate_to_cloud_provider": false},
                {"key": "a", "value": "2", "propagate_to_cloud_provider": false}]}),
            )
            .await,
        &["labels[1].key"],
    );
    assert_error(
        &server.post(&groups.path, json!({"name": "OWNERS"})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    groups.read_list_delete(&updated.body).await;
}

#[tokio::test]
async fn annotation_groups() {
    let server = TestServer::new().await;
    let groups = Collection::new(&server, "annotationsGroups");
    let created = groups
        .create(json!({"name": "scrape", "annotations": [{"key": "prometheus.io/scrape", "value": "true"}],
                       "scopes": ["DEPLOYMENTS", "PODS"]}))
        .await;
    assert_eq!(created["scopes"], json!(["DEPLOYMENTS", "PODS"]));
    assert_invalid_fields(
        &server
            .post(&groups.path, json!({"name": "x", "scopes": []}))
            .await,
        &["scopes"],
    );
    assert_invalid_fields(
        &server
            .post(&groups.path, json!({"name": "x", "scopes": ["NODES"]}))
            .await,
        &["scopes[0]"],
    );
    groups.read_list_delete(&created).await;
}

#[tokio::test]
async fn on_premise_credentials() {
    let server = TestServer::new().await;
    let credentials = Collection::new(&server, "onPremise/credentials");
    let created = credentials
        .create(json!({"name": "rack", "access_key_id": "AKIARACK", "secret_access_key": "rack-secret"}))
        .await;
    assert_eq!(created["object_type"], "AWS");
    assert_eq!(created["access_key_id"], "AKIARACK");
    assert!(!created.to_string().contains("rack-secret"));
    // The spec's update sends a name only; the key pair stays.
    let renamed = credentials
        .put(&created["id"], json!({"name": "rack-2"}))
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["name"], "rack-2");
    assert_eq!(renamed.body["access_key_id"], "AKIARACK");
    // The production document creates them from a name alone; keys come as a pair.
    let named_only = server.post(&credentials.path, json!({"name": "x"})).await;
    assert_eq!(
        named_only.status,
        StatusCode::CREATED,
        "{}",
        named_only.body
    );
    assert_invalid_fields(
        &server
            .post(
                &credentials.path,
                json!({"name": "y", "access_key_id": "AKIA"}),
            )
            .await,
        &["secret_access_key"],
    );
    credentials.read_list_delete(&renamed.body).await;
}
