//! Clusters: the record, its status with the next version and the lock, a fresh token each call,
//! and environments that name one.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

async fn cluster(server: &TestServer, body: Value) -> Value {
    let reply = server
        .post(
            &format!("/api/organization/{}/cluster", server.organization_id),
            body,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body
}

#[tokio::test]
async fn a_new_cluster_is_ready_with_an_upgrade_available() {
    let server = TestServer::new().await;
    let created = cluster(
        &server,
        json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-3", "version": "1.30"}),
    )
    .await;
    assert_eq!(created["version"], "1.30");
    let id = created["id"].as_str().unwrap();
    let status = server
        .get(&format!(
            "/api/organization/{}/cluster/{id}/status",
            server.organization_id
        ))
        .await;
    assert_eq!(status.status, StatusCode::OK);
    assert_eq!(status.body["cluster_id"], id);
    assert_eq!(status.body["status"], "READY");
    assert_eq!(status.body["is_deployed"], false);
    assert_eq!(status.body["next_k8s_available_version"], "1.31");
    assert!(status.body["cluster_lock"].is_null());

    let latest = cluster(
        &server,
        json!({"name": "edge", "cloud_provider": "AWS", "region": "us-east-1", "version": "1.32"}),
    )
    .await;
    let status = server
        .get(&format!(
            "/api/organization/{}/cluster/{}/status",
            server.organization_id,
            latest["id"].as_str().unwrap()
        ))
        .await;
    assert!(status.body["next_k8s_available_version"].is_null());
}

#[tokio::test]
async fn a_cluster_is_locked_and_unlocked_by_name() {
    let server = TestServer::new().await;
    let created = cluster(
        &server,
        json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-1"}),
    )
    .await;
    let lock = format!("/api/cluster/{}/lock", created["id"].as_str().unwrap());
    let locks = format!("/api/organization/{}/lock", server.organization_id);
    let locked = server
        .post(
            &lock,
            json!({"reason": "Black Friday freeze", "ttl_in_days": 3}),
        )
        .await;
    assert_eq!(locked.status, StatusCode::OK, "{}", locked.body);
    let lock_body = &locked.body;
    assert_eq!(lock_body["reason"], "Black Friday freeze");
    assert_eq!(lock_body["ttl_in_days"], 3);
    assert_eq!(lock_body["owner_name"], "API token console sign-in");
    assert!(lock_body["locked_at"].is_string());
    assert_invalid_fields(
        &server
            .post(&lock, json!({"reason": "", "ttl_in_days": 90}))
            .await,
        &["reason", "ttl_in_days"],
    );
    let auth = format!("Token {}", server.token);
    let listed = server.get(&locks).await;
    assert_eq!(listed.body["results"][0], *lock_body, "{}", listed.body);
    let status = server
        .get(&format!(
            "/api/organization/{}/cluster/{}/status",
            server.organization_id,
            created["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(status.body["cluster_lock"], *lock_body);
    let unlocked = server.call(Method::DELETE, &lock, Some(&auth), None).await;
    assert_eq!(unlocked.status, StatusCode::NO_CONTENT);
    assert_eq!(server.get(&locks).await.body["results"], json!([]));
}

#[tokio::test]
async fn each_token_call_gives_a_fresh_short_lived_token() {
    let server = TestServer::new().await;
    let created = cluster(
        &server,
        json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-1"}),
    )
    .await;
    let path = format!("/api/cluster/{}/token", created["id"].as_str().unwrap());
    let first = server.get(&path).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(first.body["kind"], "ExecCredential");
    assert!(first.body["apiVersion"]
        .as_str()
        .unwrap()
        .starts_with("client.authentication.k8s.io"));
    let expires: chrono::DateTime<chrono::Utc> = first.body["status"]["expirationTimestamp"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let lifetime = expires - chrono::Utc::now();
    assert!(lifetime > chrono::Duration::minutes(10) && lifetime <= chrono::Duration::minutes(15));
    let second = server.get(&path).await;
    assert_ne!(
        first.body["status"]["token"],
        second.body["status"]["token"]
    );
    assert_error(
        &server
            .get(&format!("/api/cluster/{}/token", uuid::Uuid::new_v4()))
            .await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
}

#[tokio::test]
async fn cluster_rules_and_environments_that_name_one() {
    let server = TestServer::new().await;
    let clusters = format!("/api/organization/{}/cluster", server.organization_id);
    assert_invalid_fields(
        &server
            .post(
                &clusters,
                json!({"name": "x", "cloud_provider": "AWS", "region": "narnia-1", "version": "0.1"}),
            )
            .await,
        &["region", "version"],
    );
    assert_invalid_fields(
        &server
            .post(
                &clusters,
                json!({"name": "x", "cloud_provider": "MARS", "region": "eu-west-1"}),
            )
            .await,
        &["cloud_provider"],
    );
    assert_invalid_fields(
        &server.post(&clusters, json!({"name": "x"})).await,
        &["cloud_provider"],
    );
    let created = cluster(
        &server,
        json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-1"}),
    )
    .await;
    let project = server.project("shop").await;
    let environments = format!("/api/project/{project}/environment");
    let on_cluster = server
        .post(
            &environments,
            json!({"name": "production", "mode": "PRODUCTION", "cluster_id": created["id"]}),
        )
        .await;
    assert_eq!(
        on_cluster.status,
        StatusCode::CREATED,
        "{}",
        on_cluster.body
    );
    assert_eq!(on_cluster.body["cluster_id"], created["id"]);
    assert_invalid_fields(
        &server
            .post(
                &environments,
                json!({"name": "staging", "mode": "STAGING", "cluster_id": uuid::Uuid::new_v4()}),
            )
            .await,
        &["cluster"],
    );

    // A cluster environments run on is kept while they do.
    let one = format!("{clusters}/{}", created["id"].as_str().unwrap());
    let auth = format!("Token {}", server.token);
    let refused = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_error(&refused, StatusCode::CONFLICT, "CONFLICT");
    assert_eq!(
        refused.body["message"],
        "This cluster is used by 1 environment (production); change or delete them first."
    );
    let environment = format!(
        "/api/environment/{}",
        on_cluster.body["id"].as_str().unwrap()
    );
    let gone = server
        .call(Method::DELETE, &environment, Some(&auth), None)
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "{}", gone.body);
    let deleted = server.call(Method::DELETE, &one, Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
}

#[tokio::test]
async fn a_cluster_upgrades_one_version_when_it_may() {
    // Slow enough (an upgrade takes about 1.5 s) that a second request meets the first running.
    let dir = tempfile::TempDir::new().unwrap();
    let mut slower = common::config(&dir);
    slower.engine_speed = 20.0;
    let server = TestServer::with_config(dir, slower).await;
    let created = cluster(
        &server,
        json!({"name": "prod", "cloud_provider": "AWS", "region": "eu-west-1", "version": "1.30"}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let status_path = format!(
        "/api/organization/{}/cluster/{id}/status",
        server.organization_id
    );
    let lock = format!("/api/cluster/{id}/lock");
    let upgrade = format!("/api/cluster/{id}/upgrade");

    server
        .post(&lock, json!({"reason": "freeze", "ttl_in_days": 1}))
        .await;
    let locked = server.post(&upgrade, json!({})).await;
    assert_error(&locked, StatusCode::CONFLICT, "CONFLICT");
    assert!(locked.body["message"].as_str().unwrap().contains("freeze"));
    let auth = format!("Token {}", server.token);
    server.call(Method::DELETE, &lock, Some(&auth), None).await;

    let started = server.post(&upgrade, json!({})).await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.body);
    assert!(
        ["DEPLOYMENT_QUEUED", "DEPLOYING"].contains(&started.body["status"].as_str().unwrap()),
        "{}",
        started.body
    );
    assert_error(
        &server.post(&upgrade, json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    let mut status = started.body;
    for _ in 0..1000 {
        status = server.get(&status_path).await.body;
        if status["status"] == "DEPLOYED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(status["status"], "DEPLOYED");
    assert_eq!(status["is_deployed"], true);
    assert_eq!(status["next_k8s_available_version"], "1.32");
    assert!(status["last_deployment_date"].is_string());
    let record = server
        .get(&format!(
            "/api/organization/{}/cluster/{id}",
            server.organization_id
        ))
        .await
        .body;
    assert_eq!(record["version"], "1.31");

    server.post(&upgrade, json!({})).await;
    for _ in 0..1000 {
        if server.get(&status_path).await.body["status"] == "DEPLOYED" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let latest = server.post(&upgrade, json!({})).await;
    assert_error(&latest, StatusCode::BAD_REQUEST, "BAD_REQUEST");
    assert!(latest.body["message"].as_str().unwrap().contains("latest"));
}

#[tokio::test]
async fn a_cluster_is_deployed_and_stopped_with_its_log_and_says_what_runs_on_it() {
    let dir = tempfile::TempDir::new().unwrap();
    let mut faster = common::config(&dir);
    faster.engine_speed = 200.0;
    let server = TestServer::with_config(dir, faster).await;
    let created = cluster(
        &server,
        json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-1"}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let item = format!("/api/organization/{}/cluster/{id}", server.organization_id);
    let settled = |wanted: &'static str| {
        let (server, status) = (&server, format!("{item}/status"));
        async move {
            for _ in 0..1000 {
                let status = server.get(&status).await.body;
                if status["status"] == wanted {
                    return status;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            panic!("never {wanted}");
        }
    };
    assert_eq!(
        server.get(&format!("{item}/isReady")).await.body["is_ready"],
        false
    );
    // Nothing to stop before it was ever deployed; a dry run starts nothing.
    assert_error(
        &server.post(&format!("{item}/stop"), json!({})).await,
        StatusCode::BAD_REQUEST,
        "BAD_REQUEST",
    );
    let dry = server
        .post(&format!("{item}/deploy?dry_run=true"), json!({}))
        .await;
    assert_eq!(dry.body["status"], "DRY_RUN", "{}", dry.body);
    assert_eq!(
        server.get(&format!("{item}/status")).await.body["status"],
        "READY"
    );

    let deploy = server.post(&format!("{item}/deploy"), json!({})).await;
    assert_eq!(deploy.status, StatusCode::CREATED, "{}", deploy.body);
    assert_eq!(deploy.body["status"], "DEPLOYMENT_QUEUED");
    assert_error(
        &server.post(&format!("{item}/stop"), json!({})).await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
    let deployed = settled("DEPLOYED").await;
    assert_eq!(deployed["is_deployed"], true);
    assert_eq!(
        server.get(&format!("{item}/isReady")).await.body["is_ready"],
        true
    );
    let logs = server.get(&format!("{item}/logs")).await.body;
    let lines = logs["results"].as_array().unwrap();
    assert_eq!(lines.len(), 5, "{logs}");
    assert_eq!(lines[4]["message"]["safe_message"], "Cluster deployed.");

    let stop = server.post(&format!("{item}/stop"), json!({})).await;
    assert_eq!(stop.status, StatusCode::ACCEPTED, "{}", stop.body);
    settled("STOPPED").await;
    assert_eq!(
        server.get(&format!("{item}/isReady")).await.body["is_ready"],
        false
    );
    // The log is the last action's.
    let logs = server.get(&format!("{item}/logs")).await.body;
    assert_eq!(logs["results"][2]["step"], "Paused", "{logs}");

    let all = server
        .get(&format!(
            "/api/organization/{}/cluster/status",
            server.organization_id
        ))
        .await
        .body;
    let listed = all["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|status| status["cluster_id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {all}"));
    assert_eq!(listed["status"], "STOPPED");

    // What runs on it: an environment with its service, which keeps it from being deleted.
    let project = server.project("shop").await;
    let environment = server
        .create(
            &format!("/api/project/{project}/environment"),
            json!({"name": "edge-prod", "mode": "PRODUCTION", "cluster_id": id}),
        )
        .await;
    let application = server.application(&environment, "web").await;
    let on = server
        .get(&format!("/api/cluster/{id}/environments"))
        .await
        .body;
    assert_eq!(on["results"][0]["environment_name"], "edge-prod", "{on}");
    assert_eq!(on["results"][0]["project_name"], "shop");
    assert_eq!(on["results"][0]["services"][0]["id"], application.as_str());
    assert_eq!(on["results"][0]["services"][0]["type"], "APPLICATION");
    let auth = format!("Token {}", server.token);
    let refused = server
        .call(Method::DELETE, &item.clone(), Some(&auth), None)
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body["message"]
        .as_str()
        .unwrap()
        .contains("edge-prod"));
}

#[tokio::test]
async fn a_kubeconfig_is_written_or_given_kept_sealed_and_read_with_write() {
    let server = TestServer::new().await;
    let id = cluster(
        &server,
        json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-3"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let organization = &server.organization_id;
    let path = format!("/api/organization/{organization}/cluster/{id}/kubeconfig");
    let written = server.get(&path).await;
    assert_eq!(written.status, StatusCode::OK, "{}", written.body);
    assert_eq!(written.headers["content-type"], "application/x-yaml");
    let text = written.body.as_str().unwrap().to_string();
    assert!(text.starts_with("apiVersion: v1\nkind: Config\n"), "{text}");
    assert!(text.contains(".clusters.platform.invalid"), "{text}");
    let token = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("token: "))
        .expect("a token")
        .to_string();
    // The same token at the next reading: made once, kept sealed.
    assert!(server
        .get(&path)
        .await
        .body
        .as_str()
        .unwrap()
        .contains(&token));
    let stored: String =
        sqlx::query_scalar("SELECT secrets FROM organization_resources WHERE id = ?")
            .bind(&id)
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    assert!(!stored.contains(&token), "{stored}");
    let by_command = server
        .get(&format!("{path}?with_token_from_cli=true&read_only=true"))
        .await;
    let command = by_command.body.as_str().unwrap();
    assert!(
        command.contains("--read-only") && !command.contains("token: "),
        "{command}"
    );

    // Reading one takes WRITE, as the credentials in it do.
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let refused = server.call(Method::GET, &path, Some(&reader), None).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);

    // One given is checked, kept and answered as given.
    let auth = format!("Token {}", server.token);
    let yaml = |body: &str| {
        axum::http::Request::builder()
            .method(Method::PUT)
            .uri(&path)
            .header("Authorization", &auth)
            .header("Content-Type", "application/x-yaml")
            .body(axum::body::Body::from(body.to_string()))
            .unwrap()
    };
    let bad = server.send(yaml("hello: world\n")).await;
    assert_invalid_fields(&bad, &["body"]);
    // Read as YAML, not by line starts; a body past the bound is a 413 in the API's shape.
    let impostor = "apiVersion: v1xyz\nkind: ConfigMap\nclusters:\n- name: a\n";
    assert_invalid_fields(&server.send(yaml(impostor)).await, &["body"]);
    let huge = server.send(yaml(&"#".repeat(50 * 1024 * 1024))).await;
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(huge.body["error"], "PAYLOAD_TOO_LARGE", "{}", huge.body);
    let given = "apiVersion: v1\nkind: Config\nclusters:\n- name: edge\n  cluster:\n    server: https://10.0.0.1:6443\n";
    let put = server.send(yaml(given)).await;
    assert_eq!(put.status, StatusCode::NO_CONTENT, "{}", put.body);
    assert_eq!(server.get(&path).await.body, given);

    // Each reading is in the audit log, the kubeconfig in none of it.
    let events = server
        .get(&format!(
            "/api/organization/{organization}/events?targetId={id}"
        ))
        .await
        .body;
    let exports = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["event_type"] == "EXPORT")
        .count();
    assert_eq!(exports, 4, "{events}");
    assert!(!events.to_string().contains("10.0.0.1"), "{events}");
    assert!(!events.to_string().contains(&token), "{events}");
}
