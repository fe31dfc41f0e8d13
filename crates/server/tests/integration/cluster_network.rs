//! A cluster's network: its DNS provider places its services' custom domains and writes their
//! records (its secret never answered), its routing table is applied by its deployments; only
//! an admin changes either.

use crate::common::{assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn a_dns_provider_places_custom_domains_and_writes_their_records_its_secret_sealed() {
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
    let added = server
        .post(
            &domains,
            json!({"domain": "shop.example.com", "generate_certificate": true}),
        )
        .await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.body);
    assert!(added.body["validation_domain"]
        .as_str()
        .unwrap()
        .ends_with(".platform-apps.example"));

    let cluster = server.cluster_of(&environment).await;
    let dns = format!("/api/cluster/{cluster}/dnsProvider");
    let platform = server.get(&dns).await;
    assert_eq!(platform.status, StatusCode::OK, "{}", platform.body);
    assert_eq!(
        platform.body,
        json!({"dns_provider": {"provider": "QOVERY", "domain": "platform-apps.example"}})
    );

    for (body, fields) in [
        (
            json!({"provider": "CLOUDFLARE", "domain": "apps.acme.example", "email": "ops@acme.example"}),
            &["dns_provider.api_token"][..],
        ),
        (
            json!({"provider": "CLOUDFLARE", "domain": "x.platform-apps.example",
                   "email": "not mail", "api_token": "t"}),
            &["dns_provider.domain", "dns_provider.email"][..],
        ),
        (
            json!({"provider": "ROUTE53", "domain": "apps.acme.example",
                   "credentials": {"type": "STATIC", "aws_access_key_id": "AKIA1"},
                   "aws_region": "mars-1"}),
            &[
                "dns_provider.credentials.aws_secret_access_key",
                "dns_provider.aws_region",
            ][..],
        ),
        (
            json!({"provider": "QOVERY", "domain": "apps.acme.example", "api_token": "t"}),
            &["dns_provider.domain", "dns_provider.api_token"][..],
        ),
    ] {
        let refused = server.put(&dns, json!({ "dns_provider": body })).await;
        assert_invalid_fields(&refused, fields);
    }

    let secret = "cf-token-never-answered";
    let cloudflare = json!({"dns_provider": {
        "provider": "CLOUDFLARE", "domain": "Apps.Acme.example", "email": "ops@acme.example",
        "api_token": secret, "proxied": true}});
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let refused = server
        .call(
            Method::PUT,
            &dns,
            Some(&reader),
            Some(&cloudflare.to_string()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let chosen = server.put(&dns, cloudflare).await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.body);
    let expected = json!({"dns_provider": {"provider": "CLOUDFLARE", "domain": "apps.acme.example",
                          "email": "ops@acme.example", "proxied": true}});
    assert_eq!(chosen.body, expected);
    let read = server.call(Method::GET, &dns, Some(&reader), None).await;
    assert_eq!(read.body, expected);

    // The custom domains point under the cluster's domain, through the proxy.
    let listed = server.get(&domains).await.body;
    let target = listed["results"][0]["validation_domain"].as_str().unwrap();
    assert!(target.ends_with(".apps.acme.example"), "{listed}");
    let checked = server
        .get(&format!("/api/application/{web}/checkCustomDomain"))
        .await
        .body;
    assert_eq!(
        checked["results"][0]["status"], "RESOLVES_TO_IP",
        "{checked}"
    );
    let deployed = server
        .post(&format!("/api/application/{web}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    server.settled_status(&web).await;
    let log = server.service_log(&web, None, None).await.to_string();
    assert!(
        log.contains(&format!(
            "its record {target} written by Cloudflare (proxied)"
        )),
        "{log}"
    );

    // The secret is kept sealed: in no answer, no audit entry, no column in clear.
    let events = server
        .get(&format!(
            "/api/organization/{}/events",
            server.organization_id
        ))
        .await
        .body
        .to_string();
    assert!(events.contains("DNS_PROVIDER"), "{events}");
    assert!(!events.contains(secret));
    let (kept, sealed): (String, String) =
        sqlx::query_as("SELECT dns_provider, dns_secret FROM cluster_network WHERE cluster_id = ?")
            .bind(&cluster)
            .fetch_one(&server.state.db)
            .await
            .unwrap();
    assert!(!kept.contains(secret) && !sealed.contains(secret), "{kept}");
    assert!(sealed.starts_with("sealed:"), "{sealed}");
}

#[tokio::test]
async fn an_aws_clusters_routing_table_is_applied_by_its_deployment() {
    let server = TestServer::new().await;
    let project = server.project("shop").await;
    // The first environment gets the organization's default cluster, on premise.
    let staging = server.environment(&project, "staging").await;
    let edge = server
        .environment_on(&project, "edge", "AWS", "eu-west-3")
        .await;
    let cluster = server.cluster_of(&edge).await;
    let organization = &server.organization_id;
    let table = format!("/api/organization/{organization}/cluster/{cluster}/routingTable");
    assert_eq!(server.get(&table).await.body, json!({"results": []}));

    let refused = server
        .put(
            &table,
            json!({"routes": [
                {"destination": "10.1.0.1/16", "target": "pcx-0a1b", "description": "peering"},
                {"destination": "10.2.0.0/16", "target": "somewhere", "description": "vpn"}]}),
        )
        .await;
    assert_invalid_fields(&refused, &["routes[0].destination", "routes[1].target"]);

    let routes = json!({"routes": [
        {"destination": "10.1.0.0/16", "target": " PCX-0A1B2C3D ", "description": "billing VPC"},
        {"destination": "172.16.0.0/12", "target": "tgw-0f00", "description": "the office"}]});
    let edited = server.put(&table, routes).await;
    assert_eq!(edited.status, StatusCode::CREATED, "{}", edited.body);
    assert_eq!(edited.body["results"][0]["target"], "pcx-0a1b2c3d");
    assert_eq!(server.get(&table).await.body, edited.body);

    // Only an AWS cluster's network has one.
    let on_premise = server.cluster_of(&staging).await;
    let elsewhere = server
        .put(
            &format!("/api/organization/{organization}/cluster/{on_premise}/routingTable"),
            json!({"routes": []}),
        )
        .await;
    assert_invalid_fields(&elsewhere, &["routes"]);

    let item = format!("/api/organization/{organization}/cluster/{cluster}");
    let deploy = server.post(&format!("{item}/deploy"), json!({})).await;
    assert_eq!(deploy.status, StatusCode::CREATED, "{}", deploy.body);
    server.settled_cluster(&format!("{item}/status")).await;
    let logs = server.get(&format!("{item}/logs")).await.body.to_string();
    assert!(
        logs.contains(
            "DNS records under platform-apps.example written by The platform's DNS; routing table \
             applied: 10.1.0.0/16 via pcx-0a1b2c3d, 172.16.0.0/12 via tgw-0f00."
        ),
        "{logs}"
    );
}

#[tokio::test]
async fn a_cluster_is_made_with_its_clouds_features_fixed_and_honoured() {
    let server = TestServer::new().await;
    let catalog = server.get("/api/aws/clusterFeature").await;
    assert_eq!(catalog.status, StatusCode::OK, "{}", catalog.body);
    let ids: Vec<&str> = catalog.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|feature| feature["id"].as_str().unwrap())
        .collect();
    // Uuids, as the document's `ClusterFeatureResponse` has them.
    assert_eq!(ids, [platform_api::STATIC_IP, platform_api::VPC_SUBNET]);
    assert!(ids.iter().all(|id| uuid::Uuid::parse_str(id).is_ok()));
    assert_eq!(
        catalog.body["results"][1]["value_object"],
        json!({"type": "STRING", "value": "10.0.0.0/16"})
    );
    let scaleway = server.get("/api/scaleway/clusterFeature").await.body;
    assert_eq!(scaleway["results"].as_array().unwrap().len(), 1);

    let organization = &server.organization_id;
    let clusters = format!("/api/organization/{organization}/cluster");
    let refused = server
        .post(
            &clusters,
            json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-3",
                   "features": [{"id": platform_api::STATIC_IP, "value": "yes"},
                                {"id": platform_api::VPC_SUBNET, "value": "8.8.0.0/16"},
                                {"id": "KARPENTER", "value": true}]}),
        )
        .await;
    assert_invalid_fields(
        &refused,
        &["features[0].value", "features[1].value", "features[2].id"],
    );
    let made = server
        .post(
            &clusters,
            json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-3",
                   "features": [{"id": platform_api::STATIC_IP, "value": true},
                                {"id": platform_api::VPC_SUBNET, "value": "10.42.0.0/16"}]}),
        )
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.body);
    assert_eq!(made.body["features"][0]["value_object"]["value"], true);
    assert_eq!(
        made.body["features"][1]["value_object"]["value"],
        "10.42.0.0/16"
    );
    let id = made.body["id"].as_str().unwrap();
    let item = format!("{clusters}/{id}");

    // Fixed once made: an edit may repeat them, not change them; one without them keeps them.
    let changed = server
        .put(
            &item,
            json!({"name": "edge", "cloud_provider": "AWS", "region": "eu-west-3",
                   "features": [{"id": platform_api::VPC_SUBNET, "value": "10.43.0.0/16"}]}),
        )
        .await;
    assert_invalid_fields(&changed, &["features[0].value"]);
    let renamed = server
        .put(
            &item,
            json!({"name": "edge-eu", "cloud_provider": "AWS", "region": "eu-west-3"}),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.body);
    assert_eq!(renamed.body["features"], made.body["features"]);

    // Routes may not point into its own network.
    let table = format!("{item}/routingTable");
    let inside = server
        .put(
            &table,
            json!({"routes": [{"destination": "10.42.8.0/24", "target": "pcx-0a1b", "description": "loop"}]}),
        )
        .await;
    assert_invalid_fields(&inside, &["routes[0].destination"]);

    let deploy = server.post(&format!("{item}/deploy"), json!({})).await;
    assert_eq!(deploy.status, StatusCode::CREATED, "{}", deploy.body);
    server.settled_cluster(&format!("{item}/status")).await;
    let logs = server.get(&format!("{item}/logs")).await.body.to_string();
    assert!(
        logs.contains("Network 10.42.0.0/16; outbound traffic leaves from 203.0.113."),
        "{logs}"
    );
    assert!(logs.contains("(static IP)"), "{logs}");
}
