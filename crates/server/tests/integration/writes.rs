//! Success of the write routes across kinds: every DELETE route answers 204 (or the status, for a
//! cluster unlock), and updates of the kinds not covered elsewhere answer 200 with the change.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{concrete, fresh_variable, is_variable, records, TestServer};
use serde_json::json;

#[tokio::test]
async fn every_delete_route_succeeds_as_admin() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let admin = format!("Token {}", server.token);
    let mut deletes: Vec<_> = platform_server::routes::table(&server.state)
        .rules()
        .iter()
        .filter(|rule| rule.method == Method::DELETE)
        .cloned()
        .collect();
    // Deepest first: a lock before its cluster, variables before their parents, a project
    // after its services and environments (its deletion takes them along), and the
    // organization's records (a registry, a cluster) once nothing uses them.
    let depth = |path: &str| match path {
        _ if path.ends_with("/lock") || path.ends_with("_id}") && is_variable(path) => 0,
        // A service's domains, backups and restrictions before the service.
        _ if path.contains("/customDomain/")
            || path.contains("/backup/")
            || path.contains("/deploymentRestriction/")
            || path.starts_with("/deploymentStage/") =>
        {
            0
        }
        "/environment/{environment_id}" => 2,
        "/project/{project_id}" => 3,
        _ if path.starts_with("/organization/") => 4,
        _ => 1,
    };
    deletes.sort_by_key(|rule| depth(&rule.path));
    // The organization itself only its owner, a person, deletes (`people`).
    deletes.retain(|rule| rule.path != "/organization/{organization_id}");
    for rule in &deletes {
        let path = if is_variable(&rule.path) {
            fresh_variable(&server, &ids, &rule.path).await
        } else {
            concrete(&rule.path, &ids)
        };
        // The document names the member to remove in the body.
        let body = rule
            .path
            .ends_with("/member")
            .then(|| json!({"user_id": ids.id("member_id")}).to_string());
        let reply = server
            .call(Method::DELETE, &path, Some(&admin), body.as_deref())
            .await;
        assert_eq!(
            reply.status,
            StatusCode::NO_CONTENT,
            "DELETE {}: {}",
            rule.path,
            reply.body
        );
    }
    assert!(deletes.len() >= 30, "{}", deletes.len());
}

#[tokio::test]
async fn updates_of_every_other_kind_succeed() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let admin = format!("Token {}", server.token);
    let registry = ids.id("container_registry_id").to_string();
    let updates = [
        (
            "/organization/{organization_id}/cluster/{cluster_id}",
            json!({"name": "main-eu", "cloud_provider": "AWS", "region": "eu-west-1", "version": "1.29"}),
            "version",
            json!("1.29"),
        ),
        (
            "/organization/{organization_id}/annotationsGroups/{annotations_group_id}",
            json!({"name": "scrape", "annotations": [], "scopes": ["SERVICES"]}),
            "scopes",
            json!(["SERVICES"]),
        ),
        (
            "/database/{database_id}",
            json!({"name": "db", "type": "POSTGRESQL", "version": "17", "mode": "CONTAINER"}),
            "version",
            json!("17"),
        ),
        (
            "/job/{job_id}",
            json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "30 4 * * *"}},
                   "source": {"image": {"registry_id": registry, "image_name": "tools/backup", "tag": "2"}}}),
            "schedule",
            json!({"cronjob": {"scheduled_at": "30 4 * * *", "timezone": "Etc/UTC", "arguments": []}}),
        ),
        (
            "/helm/{helm_id}",
            json!({"name": "redis", "source": {"git": {"git_repository": {"url": "https://git.example.com/charts.git"}}},
                   "timeout_sec": 0}),
            "timeout_sec",
            json!(0),
        ),
        (
            "/application/{application_id}/environmentVariable/{variable_id}",
            json!({"key": "LOG_LEVEL", "value": "info"}),
            "value",
            json!("info"),
        ),
    ];
    for (template, body, field, expected) in updates {
        let path = concrete(template, &ids);
        let reply = server
            .call(Method::PUT, &path, Some(&admin), Some(&body.to_string()))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "PUT {template}: {}",
            reply.body
        );
        assert_eq!(reply.body[field], expected, "PUT {template}");
        assert_eq!(
            server.get(&path).await.body[field],
            expected,
            "GET {template}"
        );
    }
}
