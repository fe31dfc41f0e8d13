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

#[tokio::test]
async fn cloud_credentials_of_each_kind_keep_their_secrets_sealed() {
    let server = TestServer::new().await;
    let aws = Collection::new(&server, "aws/credentials");
    let created = aws
        .create(
            json!({"type": "AWS_STATIC", "name": "prod", "access_key_id": "AKIAPROD",
                       "secret_access_key": "aws-secret"}),
        )
        .await;
    assert_eq!(created["object_type"], "AWS");
    assert_eq!(created["access_key_id"], "AKIAPROD");
    assert!(!created.to_string().contains("aws-secret"));
    // Each variant requires its fields and refuses another's.
    assert_invalid_fields(
        &server
            .post(
                &aws.path,
                json!({"type": "AWS_STATIC", "name": "x", "access_key_id": "A"}),
            )
            .await,
        &["secret_access_key"],
    );
    assert_invalid_fields(
        &server
            .post(
                &aws.path,
                json!({"type": "AWS_ROLE", "name": "x", "role_arn": "arn:aws:iam::1:role/r",
                       "secret_access_key": "s"}),
            )
            .await,
        &["secret_access_key"],
    );
    // An update of the same kind may leave the stored secret out; another kind may not.
    let renamed = aws
        .put(
            &created["id"],
            json!({"type": "AWS_STATIC", "name": "prod-2", "access_key_id": "AKIA2"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["access_key_id"], "AKIA2");
    let to_role = aws
        .put(
            &created["id"],
            json!({"type": "AWS_ROLE", "name": "prod-2", "role_arn": "arn:aws:iam::1:role/r"}),
        )
        .await;
    assert_eq!(to_role.status, StatusCode::OK, "{}", to_role.body);
    assert_eq!(to_role.body["object_type"], "AWS_ROLE");
    assert_invalid_fields(
        &aws.put(
            &created["id"],
            json!({"type": "AWS_STATIC", "name": "prod-2", "access_key_id": "A"}),
        )
        .await,
        &["secret_access_key"],
    );

    let provider_e = Collection::new(&server, "gcp/credentials");
    assert_invalid_fields(
        &server
            .post(
                &provider_e.path,
                json!({"name": "e", "provider_e_credentials": "not base64!"}),
            )
            .await,
        &["provider_e_credentials"],
    );
    let key = provider_e
        .create(json!({"name": "e", "provider_e_credentials": common::PROVIDER_E_KEY}))
        .await;
    assert_eq!(key["object_type"], "PROVIDER_E");
    assert_eq!(key["service_account_email"], "deployer@acme.example");
    assert!(!key.to_string().contains(common::PROVIDER_E_KEY));

    let provider_f = Collection::new(&server, "azure/credentials");
    let subscription = provider_f
        .create(json!({"name": "f", "provider_f_subscription_id": "sub", "provider_f_tenant_id": "tenant"}))
        .await;
    assert_eq!(subscription["object_type"], "PROVIDER_F");
    assert!(subscription["provider_f_application_id"].is_string());

    // A cluster reached with a set of credentials keeps it from deletion, and the organization's
    // list names the cluster beside it.
    let org = &server.organization_id;
    let cluster = server
        .create(
            &format!("/api/organization/{org}/cluster"),
            json!({"name": "eu", "cloud_provider": "AWS", "region": "eu-west-3"}),
        )
        .await;
    let info = format!("/api/organization/{org}/cluster/{cluster}/cloudProviderInfo");
    assert_invalid_fields(
        &server
            .post(&info, json!({"credentials": {"id": subscription["id"]}}))
            .await,
        &["credentials.id"],
    );
    assert_invalid_fields(
        &server
            .post(
                &info,
                json!({"credentials": {"id": created["id"]}, "region": "us-east-1"}),
            )
            .await,
        &["region"],
    );
    let chosen = server
        .post(&info, json!({"credentials": {"id": created["id"]}}))
        .await;
    assert_eq!(chosen.status, StatusCode::CREATED, "{}", chosen.body);
    assert_eq!(chosen.body["credentials"]["name"], "prod-2");
    assert_eq!(server.get(&info).await.body, chosen.body);
    let listed = server
        .get(&format!("/api/organization/{org}/credentials"))
        .await
        .body;
    let of = |id: &Value| {
        listed["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["credential"]["id"] == *id)
            .cloned()
            .unwrap()
    };
    assert_eq!(of(&created["id"])["clusters"][0]["name"], "eu");
    assert_eq!(of(&created["id"])["clusters"][0]["cloud_provider"], "AWS");
    assert_eq!(of(&subscription["id"])["clusters"], json!([]));
    let auth = format!("Token {}", server.token);
    let in_use = server
        .call(
            Method::DELETE,
            &format!("{}/{}", aws.path, created["id"].as_str().unwrap()),
            Some(&auth),
            None,
        )
        .await;
    assert_error(&in_use, StatusCode::CONFLICT, "CONFLICT");
    assert!(
        in_use.body["message"].as_str().unwrap().contains("eu"),
        "{}",
        in_use.body
    );
    let dropped = server
        .call(
            Method::DELETE,
            &format!("/api/organization/{org}/cluster/{cluster}"),
            Some(&auth),
            None,
        )
        .await;
    assert_eq!(dropped.status, StatusCode::NO_CONTENT, "{}", dropped.body);
    aws.read_list_delete(&created).await;
    provider_e.read_list_delete(&key).await;
    provider_f.read_list_delete(&subscription).await;
}

#[tokio::test]
async fn an_organization_is_renamed_and_described_and_keeps_its_plan() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}", server.organization_id);
    let renamed = server
        .put(
            &path,
            json!({"name": " Acme ", "plan": "FREE", "description": "Everything Acme runs"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["name"], "Acme");
    assert_eq!(renamed.body["description"], "Everything Acme runs");
    assert_eq!(server.get(&path).await.body, renamed.body);
    assert_invalid_fields(
        &server
            .put(&path, json!({"name": "", "plan": "ENTERPRISE"}))
            .await,
        &["name", "plan"],
    );
    // Fields of the document this server leaves alone are taken, not stored.
    let with_logo = server
        .put(
            &path,
            json!({"name": "Acme", "plan": "FREE", "logo_url": "https://acme.example/logo.png"}),
        )
        .await;
    assert_eq!(with_logo.status, StatusCode::OK, "{}", with_logo.body);
    assert!(with_logo.body.get("logo_url").is_none());
    assert!(with_logo.body.get("description").is_none());
}
