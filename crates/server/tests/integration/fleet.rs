//! The organization's fleet: every service with where it lives (`…/services`, narrowed by
//! project, environment or cluster) and every environment (`…/environments`); another
//! organization's are never in them.

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

use crate::common::{assert_error, TestServer};
use crate::tenants::another_organization;

fn names(reply: &Value) -> Vec<&str> {
    reply["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|service| service["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_fleet_lists_every_service_with_where_it_lives_and_narrows_it() {
    let server = TestServer::new().await;
    let org = server.organization_id.clone();
    let (shop, staging) = server.staging().await;
    let web = server.application(&staging, "web").await;
    let billing = server.project("billing").await;
    let production = server.environment(&billing, "production").await;
    server.application(&production, "invoices").await;
    let cron = server
        .create(
            &format!("/api/environment/{production}/job"),
            json!({"name": "nightly",
                   "schedule": {"cronjob": {"scheduled_at": "0 3 * * *", "timezone": "Etc/UTC"}},
                   "source": {"image": {"registry_id": server.container_registry().await,
                                        "image_name": "tools/report", "tag": "1"}}}),
        )
        .await;

    let all = server
        .get(&format!("/api/organization/{org}/services"))
        .await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.body);
    // By project, environment and name.
    assert_eq!(names(&all.body), ["invoices", "nightly", "web"]);
    let listed = |id: &str| {
        all.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|service| service["id"] == id)
            .unwrap()
            .clone()
    };
    let web_row = listed(&web);
    assert_eq!(web_row["service_type"], "APPLICATION");
    assert_eq!(web_row["project_id"], shop.as_str());
    assert_eq!(web_row["project_name"], "shop");
    assert_eq!(web_row["environment_id"], staging.as_str());
    assert_eq!(web_row["environment_name"], "staging");
    assert_eq!(
        web_row["cluster_id"],
        server.cluster_of(&staging).await.as_str()
    );
    assert!(web_row.get("job_type").is_none(), "{web_row}");
    assert_eq!(listed(&cron)["job_type"], "CRON");

    let of_project = server
        .get(&format!(
            "/api/organization/{org}/services?project_id={billing}"
        ))
        .await;
    assert_eq!(names(&of_project.body), ["invoices", "nightly"]);
    let of_environment = server
        .get(&format!(
            "/api/organization/{org}/services?environment_id={staging}"
        ))
        .await;
    assert_eq!(names(&of_environment.body), ["web"]);
    let cluster = server.cluster_of(&production).await;
    let of_cluster = server
        .get(&format!(
            "/api/organization/{org}/services?cluster_id={cluster}"
        ))
        .await;
    assert!(
        names(&of_cluster.body).contains(&"invoices"),
        "{}",
        of_cluster.body
    );
    let bad = server
        .get(&format!(
            "/api/organization/{org}/services?cluster_id=not-an-id"
        ))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.body);
    assert!(bad.body.to_string().contains("cluster_id"), "{}", bad.body);

    let environments = server
        .get(&format!("/api/organization/{org}/environments"))
        .await;
    assert_eq!(environments.status, StatusCode::OK, "{}", environments.body);
    let listed: Vec<(&str, &str)> = environments.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap(),
                e["project"]["id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [("production", billing.as_str()), ("staging", shop.as_str())]
    );

    // Another organization sees none of them, and cannot read this one's.
    let (other, authorization) = another_organization(&server, "elsewhere").await;
    let theirs = server
        .call(
            Method::GET,
            &format!("/api/organization/{other}/services"),
            Some(&authorization),
            None,
        )
        .await;
    assert_eq!(theirs.status, StatusCode::OK, "{}", theirs.body);
    assert_eq!(theirs.body["results"], json!([]));
    let ours = server
        .call(
            Method::GET,
            &format!("/api/organization/{org}/environments"),
            Some(&authorization),
            None,
        )
        .await;
    assert_error(&ours, StatusCode::NOT_FOUND, "NOT_FOUND");
}
