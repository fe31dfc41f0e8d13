//! Authentication and authorization: the permission table walked for every route and role, and
//! rate limits. People's access tokens are `people`'s.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, concrete, config, records, TestServer};
use platform_server::caller::Permission;
use tempfile::TempDir;

const ROLES: [(&str, Permission); 4] = [
    ("READ", Permission::Read),
    ("DEPLOY", Permission::Deploy),
    ("WRITE", Permission::Write),
    ("ADMIN", Permission::Admin),
];

#[tokio::test]
async fn every_route_answers_each_role_as_the_permission_table_says() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let rules = platform_server::routes::table(&server.state)
        .rules()
        .to_vec();
    assert!(rules.len() >= 13, "{rules:?}");
    for (role, granted) in ROLES {
        let token = format!("Token {}", server.token_with_role(role).await);
        for rule in &rules {
            let path = concrete(&rule.path, &ids);
            assert!(!path.contains('{'), "unknown parameter in {}", rule.path);
            let body = (rule.method != Method::GET).then_some("{}");
            let reply = server
                .call(rule.method.clone(), &path, Some(&token), body)
                .await;
            let label = format!("{role} {} {}", rule.method, rule.path);
            if granted >= rule.permission {
                // What only a person, or an owner, does is refused to a token whatever its role,
                // with a code of its own: a refusal by role is FORBIDDEN.
                assert!(
                    reply.status != StatusCode::FORBIDDEN || reply.body["error"] != "FORBIDDEN",
                    "{label}: {}",
                    reply.body
                );
                assert_ne!(
                    reply.status,
                    StatusCode::UNAUTHORIZED,
                    "{label}: {}",
                    reply.body
                );
            } else {
                assert_error(&reply, StatusCode::FORBIDDEN, "FORBIDDEN");
            }
        }
    }
}

#[tokio::test]
async fn every_route_refuses_a_missing_or_unknown_token() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    for rule in platform_server::routes::table(&server.state).rules() {
        let path = concrete(&rule.path, &ids);
        for authorization in [
            None,
            Some("Token pt_unknown"),
            Some("Basic abc"),
            Some("Token"),
        ] {
            let reply = server
                .call(rule.method.clone(), &path, authorization, Some("{}"))
                .await;
            assert_error(&reply, StatusCode::UNAUTHORIZED, "UNAUTHORIZED");
        }
    }
}

#[tokio::test]
async fn each_token_has_its_own_rate_limit() {
    let dir = TempDir::new().unwrap();
    let mut limited = config(&dir);
    limited.rate_limit_per_minute = 5;
    let server = TestServer::with_config(dir, limited).await;
    // Starting made one call with the sign-in token, creating a second token two more.
    let other = format!("Token {}", server.token_with_role("READ").await);
    for remaining in ["1", "0"] {
        let reply = server.get("/api/organization").await;
        assert_eq!(reply.status, StatusCode::OK);
        assert_eq!(reply.headers["x-ratelimit-limit"], "5");
        assert_eq!(reply.headers["x-ratelimit-remaining"], remaining);
        let reset: u64 = reply.headers["x-ratelimit-reset"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&reset), "{reset}");
    }
    let over = server.get("/api/organization").await;
    assert_error(&over, StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED");
    assert!(over.headers.contains_key("retry-after"));
    assert_eq!(over.headers["x-ratelimit-remaining"], "0");

    let reply = server
        .call(Method::GET, "/api/organization", Some(&other), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers["x-ratelimit-remaining"], "4");
}

/// The route with every id parameter but the organization's replaced by `id`.
fn with_ids(path: &str, records: &common::Records, id: &str) -> String {
    let filled = concrete(path, records);
    let mut path = filled.clone();
    for (parameter, value) in &records.0 {
        if *parameter != "organization_id" && path.contains(value.as_str()) {
            path = path.replace(value.as_str(), id);
        }
    }
    assert!(path != filled || !filled.contains("_id"), "{filled}");
    path
}

#[tokio::test]
async fn every_route_answers_404_for_an_unknown_id_and_400_for_a_malformed_one() {
    let server = TestServer::new().await;
    let ids = records(&server).await;
    let admin = format!("Token {}", server.token);
    let unknown = uuid::Uuid::new_v4().to_string();
    let mut checked = 0;
    for rule in platform_server::routes::table(&server.state).rules() {
        let parameters: Vec<&str> = rule
            .path
            .split('/')
            .filter(|segment| segment.starts_with('{') && *segment != "{organization_id}")
            .collect();
        // A region or zone is a name, not an id: an unknown one is a 404, tested with its list.
        let places = parameters
            .iter()
            .any(|p| p.ends_with("_region}") || p.ends_with("_zone}"));
        if parameters.is_empty() || places {
            continue;
        }
        let label = format!("{} {}", rule.method, rule.path);
        let malformed = with_ids(&rule.path, &ids, "not-a-uuid");
        let reply = server
            .call(rule.method.clone(), &malformed, Some(&admin), Some("{}"))
            .await;
        assert_error(&reply, StatusCode::BAD_REQUEST, "VALIDATION_ERROR");
        // Named: one of the route's own parameters.
        let named = format!(
            "{{{}}}",
            reply.body["fields"][0]["field"].as_str().unwrap_or("")
        );
        assert!(
            parameters.contains(&named.as_str()),
            "{label}: {}",
            reply.body
        );
        if rule.method == Method::GET || rule.method == Method::DELETE {
            let path = with_ids(&rule.path, &ids, &unknown);
            let reply = server
                .call(rule.method.clone(), &path, Some(&admin), None)
                .await;
            assert_eq!(
                reply.status,
                StatusCode::NOT_FOUND,
                "{label}: {}",
                reply.body
            );
            assert_error(&reply, StatusCode::NOT_FOUND, "NOT_FOUND");
            checked += 1;
        }
    }
    assert!(checked >= 40, "checked only {checked} routes");
}
