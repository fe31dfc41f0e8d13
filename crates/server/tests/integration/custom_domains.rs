//! Custom domains: the domain rules (a host name, not the platform's own, once per organization),
//! the CNAME target, the simulated check (a name under `.invalid` fails with a reason), a
//! deployment's routing step saying how each domain fared, a READ token refused a change, and
//! every change in the audit log.

use crate::common::{assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_domain_is_added_checked_and_routed_at_the_next_deployment() {
    let server = TestServer::new().await;
    let (_, environment, web) = server.hierarchy().await;
    let ported = server
        .put(
            &format!("/api/application/{web}"),
            json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"},
                   "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true}]}),
        )
        .await;
    assert_eq!(ported.status, StatusCode::OK, "{}", ported.body);
    let domains = format!("/api/application/{web}/customDomain");

    for (domain, field) in [
        ("not a host", "domain"),
        ("app.platform-apps.example", "domain"),
        ("", "domain"),
    ] {
        let refused = server
            .post(
                &domains,
                json!({"domain": domain, "generate_certificate": true}),
            )
            .await;
        assert_invalid_fields(&refused, &[field]);
    }

    let good = server
        .post(
            &domains,
            json!({"domain": "Shop.Example.com", "generate_certificate": true}),
        )
        .await;
    assert_eq!(good.status, StatusCode::CREATED, "{}", good.body);
    assert_eq!(good.body["domain"], "shop.example.com");
    let target = good.body["validation_domain"].as_str().unwrap().to_string();
    assert!(target.ends_with(".platform-apps.example"), "{target}");
    assert!(good.body.get("status").is_none(), "{}", good.body);
    let failing = server
        .post(
            &domains,
            json!({"domain": "shop.invalid", "generate_certificate": false, "use_cdn": false}),
        )
        .await;
    assert_eq!(failing.status, StatusCode::CREATED, "{}", failing.body);
    assert_eq!(failing.body["status"], "VALIDATION_PENDING");

    // Once in the organization: another service may not take it.
    let other = server.application(&environment, "api").await;
    let taken = server
        .post(
            &format!("/api/application/{other}/customDomain"),
            json!({"domain": "shop.example.com", "generate_certificate": true}),
        )
        .await;
    assert_eq!(taken.status, StatusCode::CONFLICT, "{}", taken.body);

    let checked = server
        .get(&format!("/api/application/{web}/checkCustomDomain"))
        .await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
    let results = checked.body["results"].as_array().unwrap();
    assert_eq!(results[0]["domain_name"], "shop.example.com");
    assert_eq!(results[0]["status"], "MATCHES_LOAD_BALANCER_HOST");
    assert_eq!(results[1]["domain_name"], "shop.invalid");
    assert_eq!(results[1]["status"], "DOMAIN_NOT_CONFIGURED");
    assert!(results[1]["error_details"]
        .as_str()
        .unwrap()
        .contains(&target));

    // A READ token may look, not change.
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let id = good.body["id"].as_str().unwrap();
    let refused = server
        .call(
            Method::DELETE,
            &format!("{domains}/{id}"),
            Some(&reader),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let read = server
        .call(
            Method::GET,
            &format!("{domains}/{id}/status"),
            Some(&reader),
            None,
        )
        .await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);

    // The deployment routes them, and says which failed its check.
    let deployed = server
        .post(&format!("/api/application/{web}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    let status = server.settled_status(&web).await;
    assert_eq!(status["state"], "DEPLOYED", "{status}");
    let log = server.service_log(&web, None, None).await.to_string();
    assert!(
        log.contains("custom domain shop.example.com routed")
            && log.contains("its certificate made by the platform"),
        "{log}"
    );
    assert!(
        log.contains("custom domain shop.invalid failed its check"),
        "{log}"
    );

    // Changed and removed; each change audited.
    let changed = server
        .put(
            &format!("{domains}/{id}"),
            json!({"domain": "www.example.com", "generate_certificate": false, "use_cdn": true}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    assert_eq!(changed.body["use_cdn"], true);
    let removed = server
        .call(
            Method::DELETE,
            &format!("{domains}/{id}"),
            Some(&server.auth()),
            None,
        )
        .await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT);
    let listed = server.get(&domains).await;
    assert_eq!(listed.body["results"].as_array().unwrap().len(), 1);
    let events = server
        .get(&format!(
            "/api/organization/{}/events?pageSize=100",
            server.organization_id
        ))
        .await
        .body;
    let domain_events = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["sub_target_type"] == "CUSTOM_DOMAIN")
        .count();
    assert_eq!(domain_events, 4, "{events}");
}
