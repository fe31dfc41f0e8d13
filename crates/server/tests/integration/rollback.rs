//! Rolling back: a deploy with `rollback_to` deploys again exactly what an earlier successful
//! deployment put in place (its commit, its image, its chart version and values), and its history
//! entry says so. The history names each entry's commit with its message and author, and filters.

use crate::common;

use axum::http::StatusCode;
use common::{assert_invalid_fields, repository, TestServer};
use serde_json::{json, Value};

async fn history(server: &TestServer, path: &str) -> Vec<Value> {
    let page = server.get(&format!("{path}/deploymentHistoryV2")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    page.body["results"].as_array().unwrap().clone()
}

async fn deploy(server: &TestServer, path: &str, body: Value) -> Value {
    let reply = server.post(&format!("{path}/deploy"), body).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.body);
    server.settled(&format!("{path}/status")).await
}

#[tokio::test]
async fn an_application_rolls_back_to_an_earlier_commit() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let (_repository, url) = repository();
    let created = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({"name": "web", "git_repository": {"url": url, "branch": "main"}}),
        )
        .await;
    let path = format!("/api/application/{}", created.body["id"].as_str().unwrap());
    let commits = server.get(&format!("{path}/commit")).await.body;
    let second = commits["results"][0]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();
    let first = commits["results"][1]["git_commit_id"]
        .as_str()
        .unwrap()
        .to_string();

    deploy(&server, &path, json!({"git_commit_id": first})).await;
    deploy(&server, &path, json!({})).await;
    let entries = history(&server, &path).await;
    assert_eq!(entries[0]["details"]["commit"]["git_commit_id"], second);
    // The commit is named with its message and author, read from the repository.
    assert_eq!(entries[0]["details"]["commit"]["message"], "second");
    // The environment's history names them too.
    let environment_history = server
        .get(&format!(
            "/api/environment/{environment}/deploymentHistoryV2"
        ))
        .await;
    let messages: Vec<&str> = environment_history.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|deployment| {
            deployment["stages"][0]["services"][0]["details"]["commit"]["message"]
                .as_str()
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        messages,
        ["second", "first"],
        "{}",
        environment_history.body
    );
    assert_eq!(entries[1]["details"]["commit"]["message"], "first");
    assert_eq!(
        entries[1]["details"]["commit"]["author_name"],
        "Platform demo"
    );
    let earlier = entries[1]["identifier"]["execution_id"]
        .as_str()
        .unwrap()
        .to_string();

    // The console sends the production document's field with ours: both must agree.
    let disagreeing = server
        .post(
            &format!("{path}/deploy"),
            json!({"git_commit_id": second, "rollback_to": earlier}),
        )
        .await;
    assert_invalid_fields(&disagreeing, &["git_commit_id"]);
    let status = deploy(
        &server,
        &path,
        json!({"git_commit_id": &first[..7], "rollback_to": earlier}),
    )
    .await;
    assert_eq!(status["state"], "DEPLOYED");
    let entries = history(&server, &path).await;
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0]["details"]["commit"]["git_commit_id"], first);
    assert_eq!(entries[0]["details"]["rollback_to"], earlier);
    assert!(entries[1]["details"]["rollback_to"].is_null());
    let id = path.rsplit('/').next().unwrap();
    let log = server.service_log(id, None, None).await;
    assert!(log["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(
            |line| line["message"].as_str().unwrap().starts_with(&format!(
                "Rollback requested to deployment {earlier} (commit {first})"
            ))
        ));

    // Filters: by outcome, by commit, by who asked.
    let only = |query: &str| {
        let (server, path) = (&server, &path);
        let query = query.to_string();
        async move {
            let page = server
                .get(&format!("{path}/deploymentHistoryV2?{query}"))
                .await;
            assert_eq!(page.status, StatusCode::OK, "{}", page.body);
            page.body["results"].as_array().unwrap().len()
        }
    };
    assert_eq!(only(&format!("git_commit_id={}", &first[..8])).await, 2);
    assert_eq!(only("status=SUCCESS").await, 3);
    assert_eq!(only("status=FAILED").await, 0);
    assert_eq!(only("triggered_by=CONSOLE%20SIGN").await, 3);
    assert_eq!(only("triggered_by=someone-else").await, 0);
    assert_invalid_fields(
        &server
            .get(&format!("{path}/deploymentHistoryV2?git_commit_id=main"))
            .await,
        &["git_commit_id"],
    );
}

#[tokio::test]
async fn only_a_successful_deployment_of_the_service_is_rolled_back_to() {
    let server = TestServer::new().await;
    let (_, environment, application) = server.hierarchy().await;
    let path = format!("/api/application/{application}");
    server
        .post(
            &format!("/api/application/{application}/environmentVariable"),
            json!({"key": "PLATFORM_FAIL_AT", "value": "DEPLOYMENT"}),
        )
        .await;
    let failed = deploy(&server, &path, json!({})).await;
    assert_eq!(failed["state"], "DEPLOYMENT_ERROR");
    let failed = history(&server, &path).await[0]["identifier"]["execution_id"].clone();
    let refused = server
        .post(&format!("{path}/deploy"), json!({"rollback_to": failed}))
        .await;
    assert_invalid_fields(&refused, &["rollback_to"]);
    let unknown = server
        .post(
            &format!("{path}/deploy"),
            json!({"rollback_to": "nothing-like-it"}),
        )
        .await;
    assert_invalid_fields(&unknown, &["rollback_to"]);

    // Another service's deployment is not this one's.
    let other = server.application(&environment, "api").await;
    let other_path = format!("/api/application/{other}");
    deploy(&server, &other_path, json!({})).await;
    let others = history(&server, &other_path).await[0]["identifier"]["execution_id"].clone();
    let refused = server
        .post(&format!("{path}/deploy"), json!({"rollback_to": others}))
        .await;
    assert_invalid_fields(&refused, &["rollback_to"]);
}

#[tokio::test]
async fn a_container_rolls_back_to_its_earlier_image() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let registry = server.container_registry().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let path = format!("/api/container/{}", created.body["id"].as_str().unwrap());
    deploy(&server, &path, json!({})).await;
    deploy(&server, &path, json!({"image_tag": "1.28"})).await;
    let entries = history(&server, &path).await;
    assert_eq!(entries[0]["details"]["tag"], "1.28");
    assert_eq!(entries[1]["details"]["tag"], "1.27");
    assert_eq!(entries[1]["details"]["image_name"], "library/nginx");
    let earlier = entries[1]["identifier"]["execution_id"].clone();

    let disagreeing = server
        .post(
            &format!("{path}/deploy"),
            json!({"image_tag": "1.28", "rollback_to": earlier}),
        )
        .await;
    assert_invalid_fields(&disagreeing, &["image_tag"]);
    deploy(
        &server,
        &path,
        json!({"image_tag": "1.27", "rollback_to": earlier}),
    )
    .await;
    assert_eq!(server.get(&path).await.body["tag"], "1.27");
    let entries = history(&server, &path).await;
    assert_eq!(entries[0]["details"]["tag"], "1.27");
    assert_eq!(entries[0]["details"]["rollback_to"], earlier);
}

#[tokio::test]
async fn a_helm_chart_rolls_back_to_its_earlier_version_and_values() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let repository = server.helm_repository().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/helm"),
            json!({"name": "cache",
                   "source": {"repository": {"repository_id": repository, "chart_name": "redis", "chart_version": "19.0.0"}},
                   "values_override": {"set": [{"key": "auth.enabled", "value": "false"}]}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let path = format!("/api/helm/{}", created.body["id"].as_str().unwrap());
    deploy(&server, &path, json!({})).await;
    // Values change with an update; the version with the production document's deploy field.
    let changed = json!({"name": "cache",
        "source": {"repository": {"repository_id": repository, "chart_name": "redis", "chart_version": "19.0.0"}},
        "values_override": {"set": [["auth.enabled", "true"]]}});
    let updated = server.put(&path, changed).await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    deploy(&server, &path, json!({"chart_version": "20.1.0"})).await;
    assert_eq!(
        server.get(&path).await.body["source"]["repository"]["chart_version"],
        "20.1.0"
    );
    let entries = history(&server, &path).await;
    assert_eq!(
        entries[0]["details"]["repository"]["chart_version"],
        "20.1.0"
    );
    assert_eq!(entries[1]["details"]["repository"]["chart_name"], "redis");
    let earlier = entries[1]["identifier"]["execution_id"].clone();

    deploy(
        &server,
        &path,
        json!({"chart_version": "19.0.0", "rollback_to": earlier}),
    )
    .await;
    let record = server.get(&path).await.body;
    assert_eq!(record["source"]["repository"]["chart_version"], "19.0.0");
    assert_eq!(
        record["values_override"]["set"],
        json!([["auth.enabled", "false"]])
    );
    let refused = server
        .post(&format!("{path}/deploy"), json!({"image_tag": "1.0"}))
        .await;
    assert_invalid_fields(&refused, &["image_tag"]);
}

#[tokio::test]
async fn an_environment_rolls_back_to_an_earlier_deployment_of_its_services() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let registry = server.container_registry().await;
    let created = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "nginx", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27"}),
        )
        .await;
    let container = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/api/container/{container}");
    let settle = || async {
        let statuses = format!("/api/environment/{environment}/statuses");
        for _ in 0..500 {
            let body: platform_api::EnvironmentStatuses =
                serde_json::from_value(server.get(&statuses).await.body).unwrap();
            if !body.any_in_progress() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("never settled");
    };

    let all = server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    assert_eq!(all.status, StatusCode::ACCEPTED, "{}", all.body);
    settle().await;
    deploy(&server, &path, json!({"image_tag": "1.28"})).await;
    server
        .post(&format!("/api/environment/{environment}/deploy"), json!({}))
        .await;
    settle().await;

    let history = format!("/api/environment/{environment}/deploymentHistoryV2");
    let page = server.get(&history).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let results = page.body["results"].as_array().unwrap().clone();
    let sizes: Vec<usize> = results
        .iter()
        .map(|deployment| {
            deployment["stages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|stage| stage["services"].as_array().unwrap().len())
                .sum()
        })
        .collect();
    assert_eq!(sizes, [2, 1, 2], "{}", page.body);
    let first = &results[2];
    assert_eq!(first["trigger_action"], "DEPLOY");
    assert_eq!(first["action_status"], "SUCCESS");
    assert_eq!(first["status"], "DEPLOYED");
    assert_eq!(first["identifier"]["environment_id"], environment.as_str());
    assert_eq!(first["stages"][0]["status"], "DONE");
    let tags: Vec<&Value> = results
        .iter()
        .map(|deployment| {
            deployment["stages"][0]["services"]
                .as_array()
                .unwrap()
                .iter()
                .find(|service| service["identifier"]["service_type"] == "CONTAINER")
                .map(|service| &service["details"]["tag"])
                .unwrap()
        })
        .collect();
    assert_eq!(tags, [&json!("1.28"), &json!("1.28"), &json!("1.27")]);

    // The first deployment again, every service of it, through the selected services' deploy.
    let earlier: platform_api::EnvironmentDeployment =
        serde_json::from_value(first.clone()).unwrap();
    assert!(earlier.can_roll_back_to());
    let request = platform_api::DeployAllRequest::rolling_back_to(&earlier);
    let rolled = server
        .post(
            &format!("/api/environment/{environment}/service/deploy"),
            serde_json::to_value(&request).unwrap(),
        )
        .await;
    assert_eq!(rolled.status, StatusCode::ACCEPTED, "{}", rolled.body);
    settle().await;
    assert_eq!(server.get(&path).await.body["tag"], "1.27");
    let newest = &server.get(&history).await.body["results"][0];
    let services = newest["stages"][0]["services"].as_array().unwrap();
    assert_eq!(services.len(), 2);
    for service in services {
        let was = earlier
            .services()
            .find(|entry| {
                entry.identifier.service_id.to_string() == service["identifier"]["service_id"]
            })
            .unwrap();
        assert_eq!(
            service["details"]["rollback_to"],
            was.identifier.execution_id.as_str()
        );
    }
    assert_invalid_fields(
        &server.get(&format!("{history}?status=FAILED")).await,
        &["status"],
    );
}
