//! Containers, databases, jobs and helm services on the shared service layer: created, read, listed, updated,
//! deployed with their own steps, and deleted; their rules name the field.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{assert_error, assert_invalid_fields, TestServer};
use serde_json::{json, Value};

async fn registry(server: &TestServer) -> String {
    let reply = server
        .post(
            &format!(
                "/api/organization/{}/containerRegistry",
                server.organization_id
            ),
            json!({"name": "hub", "kind": "PUBLIC_ECR", "url": "https://public.example"}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body["id"].as_str().unwrap().to_string()
}

fn step_names(status: &Value) -> Vec<&str> {
    status["steps"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| step["step_name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_container_runs_an_image_of_a_registry() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = registry(&server).await;
    let containers = format!("/api/environment/{environment}/container");
    let created = server
        .post(
            &containers,
            json!({"name": "proxy", "registry_id": registry, "image_name": "library/nginx", "tag": "1.27",
                   "ports": [{"internal_port": 80, "external_port": 443, "publicly_accessible": true}]}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["service_type"], "CONTAINER");
    assert_eq!(created.body["registry"]["id"], registry);
    assert_eq!(created.body["ports"][0]["is_default"], true);
    let id = created.body["id"].as_str().unwrap();
    assert_eq!(
        server.get(&format!("/api/container/{id}")).await.body,
        created.body
    );
    assert_eq!(server.get(&containers).await.body["results"][0]["id"], id);

    let deployed = server
        .post(&format!("/api/container/{id}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    let status = server.settled(&format!("/api/container/{id}/status")).await;
    assert_eq!(status["state"], "DEPLOYED");
    assert_eq!(
        step_names(&status),
        [
            "MIRROR_IMAGE",
            "DEPLOYMENT_QUEUEING",
            "DEPLOYMENT",
            "ROUTER_DEPLOYMENT"
        ]
    );
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    assert_eq!(statuses["containers"][0]["id"], id);

    let auth = format!("Token {}", server.token);
    let updated = server
        .call(
            Method::PUT,
            &format!("/api/container/{id}"),
            Some(&auth),
            Some(&json!({"name": "proxy", "registry_id": registry, "image_name": "library/nginx", "tag": "1.28"}).to_string()),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["tag"], "1.28");
    assert_eq!(updated.body["created_at"], created.body["created_at"]);
    let status = server
        .get(&format!("/api/container/{id}/status"))
        .await
        .body;
    assert_eq!(status["service_deployment_status"], "OUT_OF_DATE");

    let deleted = server
        .call(
            Method::DELETE,
            &format!("/api/container/{id}"),
            Some(&auth),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    assert_error(
        &server.get(&format!("/api/container/{id}")).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
}

#[tokio::test]
async fn container_rules_name_the_field() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = registry(&server).await;
    let containers = format!("/api/environment/{environment}/container");
    assert_invalid_fields(
        &server
            .post(&containers, json!({"name": "x", "registry_id": uuid::Uuid::new_v4(), "image_name": "nginx", "tag": "1"}))
            .await,
        &["registry_id"],
    );
    assert_invalid_fields(
        &server
            .post(&containers, json!({"name": "x", "registry_id": registry, "image_name": "NGINX", "tag": "", "cpu": 0}))
            .await,
        &["image_name", "tag", "cpu"],
    );
    assert_invalid_fields(
        &server.post(&containers, json!({"name": "x"})).await,
        &["registry_id"],
    );
    // Names are unique across the kinds of one environment.
    server.application(&environment, "web").await;
    assert_error(
        &server
            .post(
                &containers,
                json!({"name": "web", "registry_id": registry, "image_name": "nginx", "tag": "1"}),
            )
            .await,
        StatusCode::CONFLICT,
        "CONFLICT",
    );
}

/// The runtime settings an application and a container share are one part flattened into their
/// requests: a field nobody knows is still refused, at the top or inside the part, and a wrong
/// value inside it still named; a variable's flattened request alike.
#[tokio::test]
async fn flattened_parts_refuse_unknown_fields_and_name_wrong_values() {
    let server = TestServer::new().await;
    let (project, environment) = server.staging().await;
    let registry = registry(&server).await;
    let container =
        json!({"name": "api", "registry_id": registry, "image_name": "nginx", "tag": "1"});
    let with = |base: &Value, extra: Value| {
        let mut body = base.clone();
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let containers = format!("/api/environment/{environment}/container");
    let reply = server
        .post(
            &containers,
            with(
                &container,
                json!({"colour": "red", "ports": [{"internal_port": 80, "protocol": "HTTP", "speed": 1}]}),
            ),
        )
        .await;
    assert_invalid_fields(&reply, &["colour", "ports.0.speed"]);
    assert_eq!(
        reply.body["fields"][0]["message"], "is not a field of this request",
        "{}",
        reply.body
    );
    let reply = server
        .post(&containers, with(&container, json!({"memory": "lots"})))
        .await;
    assert_invalid_fields(&reply, &["memory"]);
    let reply = server
        .post(
            &containers,
            with(
                &container,
                json!({"storage": [{"size": 1, "mount_point": "/data"}]}),
            ),
        )
        .await;
    assert_invalid_fields(&reply, &["storage[0].type"]);

    let application =
        json!({"name": "web", "git_repository": {"url": "https://git.example.com/acme/web.git"}});
    let applications = format!("/api/environment/{environment}/application");
    assert_invalid_fields(
        &server
            .post(&applications, with(&application, json!({"cpus": 2, "git_repository": {"url": "https://git.example.com/acme/web.git", "urll": 1}})))
            .await,
        &["git_repository.urll", "cpus"],
    );
    // A field of the platform's document this server leaves alone is taken, inside the part too.
    let reply = server
        .post(
            &applications,
            with(&application, json!({"cpu_architecture": "ARM64", "autoscaling": {"mode": "KEDA", "scalers": [{"scaler_type": "cpu", "role": "PRIMARY", "config_yaml": "x: 1", "trigger_authentication": {}}]}})),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);

    let reply = server
        .post(
            "/api/variable",
            json!({"key": "PORT", "value": "80", "variable_scope": "PROJECT", "variable_parent_id": project, "vlaue": "81"}),
        )
        .await;
    assert_invalid_fields(&reply, &["vlaue"]);
}

#[tokio::test]
async fn a_database_deploys_without_a_build() {
    let server = TestServer::new().await;
    let project = server.project("shop").await;
    let environment = server
        .environment_on(&project, "staging", "AWS", "eu-west-3")
        .await;
    let databases = format!("/api/environment/{environment}/database");
    let created = server
        .post(
            &databases,
            json!({"name": "orders", "type": "POSTGRESQL", "version": "16", "mode": "MANAGED",
                   "instance_type": "db.t3.medium", "cpu": 500, "memory": 1024, "storage": 20}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["type"], "POSTGRESQL");
    // Sized as its instance, not as asked.
    assert_eq!(created.body["instance_type"], "db.t3.medium");
    assert_eq!(
        (&created.body["cpu"], &created.body["memory"]),
        (&json!(2000), &json!(4096))
    );
    assert_eq!(created.body["accessibility"], "PRIVATE");
    assert_eq!(created.body["storage"], 20);
    let id = created.body["id"].as_str().unwrap();
    let deployed = server
        .post(&format!("/api/database/{id}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED);
    let status = server.settled(&format!("/api/database/{id}/status")).await;
    assert_eq!(status["state"], "DEPLOYED");
    assert_eq!(step_names(&status), ["DEPLOYMENT_QUEUEING", "DEPLOYMENT"]);
    // Nothing of git: a database is not built from a repository.
    let log = server.service_log(id, None, None).await;
    assert_eq!(
        log["results"][0]["message"],
        "Deployment requested; waiting in the queue."
    );
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    assert_eq!(statuses["databases"][0]["state"], "DEPLOYED");

    assert_invalid_fields(
        &server
            .post(
                &databases,
                json!({"name": "x", "type": "ORACLE", "version": "19", "mode": "MANAGED"}),
            )
            .await,
        &["type"],
    );
    assert_invalid_fields(
        &server
            .post(&databases, json!({"name": "x", "type": "REDIS", "version": "latest", "mode": "CONTAINER", "memory": -1}))
            .await,
        &["version", "memory"],
    );
    assert_error(
        &server
            .get(&format!("/api/database/{}", uuid::Uuid::new_v4()))
            .await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
    // An application's id is not a database's.
    let application = server.application(&environment, "web").await;
    assert_error(
        &server.get(&format!("/api/database/{application}")).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    );
}

#[tokio::test]
async fn jobs_run_on_a_schedule_or_at_lifecycle_events() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = registry(&server).await;
    let jobs = format!("/api/environment/{environment}/job");
    let cron = server
        .post(
            &jobs,
            json!({"name": "backup", "schedule": {"cronjob": {"scheduled_at": "0  3 * * 1"}},
                   "source": {"image": {"registry_id": registry, "image_name": "tools/backup", "tag": "2"}}}),
        )
        .await;
    assert_eq!(cron.status, StatusCode::CREATED, "{}", cron.body);
    assert_eq!(cron.body["job_type"], "CRON");
    assert_eq!(
        cron.body["schedule"]["cronjob"]["scheduled_at"],
        "0 3 * * 1"
    );
    assert_eq!(cron.body["schedule"]["cronjob"]["timezone"], "Etc/UTC");
    // The image names its registry as the registry is: name, address and kind.
    assert_eq!(
        cron.body["source"]["image"]["registry"]["id"],
        registry.as_str()
    );
    assert_eq!(
        cron.body["source"]["image"]["registry"]["kind"],
        "PUBLIC_ECR"
    );
    assert_eq!(cron.body["source"]["image"]["registry"]["name"], "hub");
    assert_eq!(cron.body["max_duration_seconds"], 300);
    let seed = server
        .post(
            &jobs,
            json!({"name": "seed", "schedule": {"on_start": {}},
                   "source": {"docker": {"git_repository": {"url": "https://git.example.com/acme/seed.git"}}}}),
        )
        .await;
    assert_eq!(seed.status, StatusCode::CREATED, "{}", seed.body);
    assert_eq!(seed.body["job_type"], "LIFECYCLE");
    assert_eq!(seed.body["schedule"]["on_start"]["arguments"], json!([]));
    assert_eq!(
        seed.body["source"]["docker"]["git_repository"]["owner"],
        "acme"
    );
    assert_eq!(
        seed.body["source"]["docker"]["dockerfile_path"],
        "Dockerfile"
    );

    let id = seed.body["id"].as_str().unwrap();
    server
        .post(&format!("/api/job/{id}/deploy"), json!({}))
        .await;
    let status = server.settled(&format!("/api/job/{id}/status")).await;
    assert_eq!(status["state"], "DEPLOYED");
    assert_eq!(
        step_names(&status),
        ["BUILD", "DEPLOYMENT_QUEUEING", "EXECUTING"]
    );

    let post = |body: Value| server.post(&jobs, body);
    assert_invalid_fields(
        &post(json!({"name": "x", "schedule": {"cronjob": {"scheduled_at": "every day", "timezone": "Mars"}},
                     "source": {}}))
            .await,
        &["schedule.cronjob.scheduled_at", "schedule.cronjob.timezone", "source"],
    );
    assert_invalid_fields(
        &post(
            json!({"name": "x", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}, "on_stop": {}},
                     "source": {"image": {"registry_id": registry, "image_name": "x", "tag": "1"},
                                "docker": {"git_repository": {"url": "https://g.example/x"}}}}),
        )
        .await,
        &["schedule", "source"],
    );
    assert_invalid_fields(
        &post(json!({"name": "x", "schedule": {},
                     "source": {"image": {"registry_id": registry, "image_name": "x", "tag": "1"}}}))
            .await,
        &["schedule"],
    );
    assert_invalid_fields(
        &post(json!({"name": "x", "schedule": {"cronjob": {"scheduled_at": "0 3 * * *"}},
                     "source": {"image": {"registry_id": uuid::Uuid::new_v4(), "image_name": "x", "tag": "1"}}}))
            .await,
        &["source.image.registry_id"],
    );
    assert_invalid_fields(
        &post(json!({"name": "x", "schedule": {"on_start": {}, "lifecycle_type": "ONCE"}, "source": {}}))
            .await,
        &["schedule.lifecycle_type"],
    );
}

#[tokio::test]
async fn helm_services_come_from_git_or_a_helm_repository() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let repository = server
        .post(
            &format!(
                "/api/organization/{}/helmRepository",
                server.organization_id
            ),
            json!({"name": "bitnami", "kind": "HTTPS", "url": "https://charts.example"}),
        )
        .await;
    assert_eq!(
        repository.status,
        StatusCode::CREATED,
        "{}",
        repository.body
    );
    let repository_id = repository.body["id"].as_str().unwrap();
    let helms = format!("/api/environment/{environment}/helm");
    let created = server
        .post(
            &helms,
            json!({"name": "cache", "source": {"repository": {"repository_id": repository_id, "chart_name": "redis", "chart_version": "19.0.0"}},
                   "values_override": {"set": [{"key": "auth.enabled", "value": "false"}]}}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(
        created.body["source"]["repository"]["repository"]["id"],
        repository_id
    );
    assert_eq!(created.body["timeout_sec"], 600);
    let id = created.body["id"].as_str().unwrap();
    let associated = server
        .get(&format!(
            "/api/organization/{}/helmRepository/{repository_id}/associatedServices",
            server.organization_id
        ))
        .await
        .body;
    assert_eq!(associated["results"][0]["service_id"], id);
    assert_eq!(associated["results"][0]["service_type"], "HELM");
    assert_eq!(associated["results"][0]["environment_name"], "staging");
    // The repository is remote: the charts known are those its services install.
    let charts = server
        .get(&format!(
            "/api/organization/{}/helmRepository/{repository_id}/charts",
            server.organization_id
        ))
        .await;
    assert_eq!(charts.status, StatusCode::OK, "{}", charts.body);
    assert_eq!(
        charts.body["results"],
        json!([{"chart_name": "redis", "versions": ["19.0.0"]}])
    );
    server
        .post(&format!("/api/helm/{id}/deploy"), json!({}))
        .await;
    let status = server.settled(&format!("/api/helm/{id}/status")).await;
    assert_eq!(step_names(&status), ["DEPLOYMENT_QUEUEING", "DEPLOYMENT"]);
    // Nothing of git: this chart comes from a helm repository.
    let log = server.service_log(id, None, None).await;
    assert_eq!(
        log["results"][0]["message"],
        "Deployment requested; waiting in the queue."
    );
    let statuses = server
        .get(&format!("/api/environment/{environment}/statuses"))
        .await
        .body;
    assert_eq!(statuses["helms"][0]["id"], id);

    let post = |body: Value| server.post(&helms, body);
    assert_invalid_fields(
        &post(json!({"name": "x", "source": {}, "timeout_sec": -5})).await,
        &["source", "timeout_sec"],
    );
    assert_invalid_fields(
        &post(json!({"name": "x", "source": {"repository": {"repository_id": uuid::Uuid::new_v4(), "chart_name": "redis", "chart_version": "1"}}}))
            .await,
        &["source.repository.repository_id"],
    );
    assert_invalid_fields(
        &post(json!({"name": "x", "source": {"repository": {"repository_id": repository_id, "chart_name": "", "chart_version": " "}}}))
            .await,
        &["source.repository.chart_name", "source.repository.chart_version"],
    );
    assert_invalid_fields(
        &post(json!({"name": "x", "source": {"git": {"git_repository": {"url": "nope"}}},
                     "values_override": {"set": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}}))
            .await,
        &["source.git.git_repository.url", "values_override.set[1].key"],
    );
}

/// Reads the record at `path` as `T`, sends back the request it gives, and checks that nothing
/// but `updated_at` changed: what an edit does not touch, it keeps.
async fn unchanged_by_its_own_request<T, R>(
    server: &TestServer,
    path: &str,
    to_request: impl Fn(&T) -> R,
) where
    T: serde::de::DeserializeOwned,
    R: serde::Serialize,
{
    let before = server.get(path).await.body;
    let record: T = serde_json::from_value(before.clone()).unwrap();
    let reply = server
        .put(path, serde_json::to_value(to_request(&record)).unwrap())
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let (mut after, mut before) = (reply.body, before);
    for record in [&mut after, &mut before] {
        record.as_object_mut().unwrap().remove("updated_at");
    }
    assert_eq!(after, before, "{path}");
}

#[tokio::test]
async fn a_record_sent_back_as_its_request_is_unchanged() {
    let server = TestServer::new().await;
    let (project, environment) = server.staging().await;
    let application = server
        .post(
            &format!("/api/environment/{environment}/application"),
            json!({
                "name": "web",
                "description": "The storefront",
                "git_repository": {"url": "https://git.example.com/acme/web.git", "branch": "trunk", "root_path": "/web"},
                "dockerfile_path": "docker/Dockerfile",
                "docker_target_build_stage": "runtime",
                "cpu": 250, "memory": 256, "gpu": 0,
                "min_running_instances": 1, "max_running_instances": 3,
                "auto_deploy": true, "arguments": ["--port", "8080"], "entrypoint": "/bin/web",
                "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true, "name": "http"},
                          {"internal_port": 9090, "protocol": "GRPC"}],
                "storage": [{"type": "FAST_SSD", "size": 10, "mount_point": "/data"}],
                "healthchecks": {"readiness_probe": {"type": {"tcp": {"port": 8080, "host": null}},
                    "initial_delay_seconds": 5, "period_seconds": 10, "timeout_seconds": 2,
                    "success_threshold": 1, "failure_threshold": 3}, "liveness_probe": null}
            }),
        )
        .await;
    assert_eq!(
        application.status,
        StatusCode::CREATED,
        "{}",
        application.body
    );
    unchanged_by_its_own_request(
        &server,
        &format!(
            "/api/application/{}",
            application.body["id"].as_str().unwrap()
        ),
        platform_api::Application::to_request,
    )
    .await;

    let registry = registry(&server).await;
    let container = server
        .post(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "registry_id": registry, "image_name": "acme/api", "tag": "1.0",
                   "cpu": 300, "memory": 384, "max_running_instances": 2, "arguments": ["serve"],
                   "ports": [{"internal_port": 3000, "external_port": 443, "publicly_accessible": true}],
                   "storage": [{"type": "FAST_SSD", "size": 5, "mount_point": "/cache"}]}),
        )
        .await;
    assert_eq!(container.status, StatusCode::CREATED, "{}", container.body);
    unchanged_by_its_own_request(
        &server,
        &format!("/api/container/{}", container.body["id"].as_str().unwrap()),
        platform_api::Container::to_request,
    )
    .await;

    let on_aws = server
        .environment_on(&project, "on-aws", "AWS", "eu-west-3")
        .await;
    let database = server
        .post(
            &format!("/api/environment/{on_aws}/database"),
            json!({"name": "orders", "type": "MYSQL", "version": "8.0", "mode": "MANAGED",
                   "accessibility": "PUBLIC", "instance_type": "db.t3.small", "storage": 20}),
        )
        .await;
    assert_eq!(database.status, StatusCode::CREATED, "{}", database.body);
    unchanged_by_its_own_request(
        &server,
        &format!("/api/database/{}", database.body["id"].as_str().unwrap()),
        platform_api::Database::to_request,
    )
    .await;
}

#[tokio::test]
async fn groups_and_autoscaling_are_attached_and_read_as_they_are_now() {
    let server = TestServer::new().await;
    let (_, environment, _) = server.hierarchy().await;
    let org = &server.organization_id;
    let labels = server
        .post(
            &format!("/api/organization/{org}/labelsGroups"),
            json!({"name": "team", "labels": [{"key": "team", "value": "web", "propagate_to_cloud_provider": false}]}),
        )
        .await;
    let annotations = server
        .post(
            &format!("/api/organization/{org}/annotationsGroups"),
            json!({"name": "mesh", "annotations": [{"key": "mesh/inject", "value": "true"}], "scopes": ["DEPLOYMENTS"]}),
        )
        .await;
    let (labels, annotations) = (&labels.body["id"], &annotations.body["id"]);
    let path = format!("/api/environment/{environment}/application");
    let body = |labels_groups: Value, autoscaling: Value| {
        json!({"name": "api", "git_repository": {"url": "https://git.example.com/acme/api.git"},
               "labels_groups": labels_groups, "annotations_groups": [{"id": annotations}],
               "autoscaling": autoscaling})
    };

    let unknown = server
        .post(
            &path,
            body(
                json!([{"id": "00000000-0000-4000-8000-000000000000"}]),
                Value::Null,
            ),
        )
        .await;
    assert_invalid_fields(&unknown, &["labels_groups[0].id"]);
    let no_scaler = server
        .post(
            &path,
            body(
                json!([{"id": labels}]),
                json!({"mode": "KEDA", "scalers": []}),
            ),
        )
        .await;
    assert_invalid_fields(&no_scaler, &["autoscaling.scalers"]);

    let created = server
        .post(
            &path,
            body(
                json!([{"id": labels}]),
                json!({"mode": "KEDA", "polling_interval_seconds": 15,
                       "scalers": [{"scaler_type": "cpu", "role": "PRIMARY", "config_yaml": "value: \"60\""}]}),
            ),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let application = created.body["id"].as_str().unwrap();
    assert_eq!(created.body["labels_groups"][0]["name"], "team");
    assert_eq!(
        created.body["labels_groups"][0]["labels"][0]["value"],
        "web"
    );
    assert_eq!(
        created.body["annotations_groups"][0]["annotations"][0]["key"],
        "mesh/inject"
    );
    // The group says what it is set on, and where that lives.
    let items = server
        .get(&format!(
            "/api/organization/{org}/annotationsGroups/{}/associatedItems",
            annotations.as_str().unwrap()
        ))
        .await;
    assert_eq!(items.status, StatusCode::OK, "{}", items.body);
    let item = &items.body["results"][0];
    assert_eq!(
        (&item["item_id"], &item["item_name"], &item["item_type"]),
        (&json!(application), &json!("api"), &json!("APPLICATION"))
    );
    assert_eq!(item["environment_id"], environment.as_str());
    assert_eq!(items.body["results"].as_array().unwrap().len(), 1);
    let labelled = server
        .get(&format!(
            "/api/organization/{org}/labelsGroups/{}/associatedItems",
            labels.as_str().unwrap()
        ))
        .await;
    assert_eq!(labelled.body["results"][0]["item_id"], application);
    assert_eq!(labelled.body["results"][0]["project_name"], "shop");
    let policy = &created.body["autoscaling"];
    assert_eq!(policy["mode"], "KEDA");
    assert_eq!(policy["service_id"], application);
    assert_eq!(policy["polling_interval_seconds"], 15);
    assert_eq!(policy["cooldown_period_seconds"], 300);
    assert_eq!(policy["scalers"][0]["scaler_type"], "cpu");
    assert_eq!(policy["scalers"][0]["enabled"], true);

    // A group renamed shows under its new name on the service; a group deleted is gone from it.
    server
        .put(
            &format!("/api/organization/{org}/labelsGroups/{}", labels.as_str().unwrap()),
            json!({"name": "squad", "labels": [{"key": "team", "value": "web", "propagate_to_cloud_provider": false}]}),
        )
        .await;
    let read = server.get(&format!("/api/application/{application}")).await;
    assert_eq!(read.body["labels_groups"][0]["name"], "squad");
    // An update keeps the policy's and the scaler's ids.
    let updated = server
        .put(
            &format!("/api/application/{application}"),
            json!({"autoscaling": {"mode": "KEDA", "cooldown_period_seconds": 60,
                   "scalers": [{"scaler_type": "cpu", "role": "PRIMARY"}]}}),
        )
        .await;
    assert_eq!(updated.status, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["autoscaling"]["id"], policy["id"]);
    assert_eq!(
        updated.body["autoscaling"]["scalers"][0]["id"],
        policy["scalers"][0]["id"]
    );
    assert_eq!(updated.body["autoscaling"]["cooldown_period_seconds"], 60);
    assert_eq!(updated.body["labels_groups"][0]["name"], "squad");
    let deleted = server
        .call(
            Method::DELETE,
            &format!(
                "/api/organization/{org}/annotationsGroups/{}",
                annotations.as_str().unwrap()
            ),
            Some(&format!("Token {}", server.token)),
            None,
        )
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.body);
    let read = server.get(&format!("/api/application/{application}")).await;
    assert_eq!(read.body["annotations_groups"], json!([]));
}

#[tokio::test]
async fn a_database_runs_a_version_of_its_type_and_never_goes_back() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let path = format!("/api/environment/{environment}/database");
    let body = |version: &str| json!({"name": "orders", "type": "POSTGRESQL", "version": version, "mode": "CONTAINER"});
    // What a new database may run, as the form offers it: each version once per mode.
    let listed = server
        .get(&format!(
            "/api/environment/{environment}/databaseConfiguration"
        ))
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    let postgresql = listed.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|configuration| configuration["database_type"] == "POSTGRESQL")
        .expect("PostgreSQL is listed");
    let in_cluster: Vec<&str> = postgresql["version"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|version| version["supported_mode"] == "CONTAINER")
        .map(|version| version["name"].as_str().unwrap())
        .collect();
    assert_eq!(in_cluster, ["13", "14", "15", "16", "17"]);
    let unknown = server.post(&path, body("12")).await;
    assert_invalid_fields(&unknown, &["version"]);
    assert_eq!(
        unknown.body["fields"][0]["message"],
        "must be a version PostgreSQL runs: 13, 14, 15, 16, 17"
    );
    let created = server.post(&path, body("15")).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let id = created.body["id"].as_str().unwrap();
    let eligible = server.get(&format!("/api/database/{id}/version")).await;
    assert_eq!(eligible.status, StatusCode::OK, "{}", eligible.body);
    assert_eq!(
        eligible.body["results"],
        json!([{"name": "15"}, {"name": "16"}, {"name": "17"}])
    );

    let database = format!("/api/database/{id}");
    let upgraded = server.put(&database, body("16")).await;
    assert_eq!(upgraded.status, StatusCode::OK, "{}", upgraded.body);
    let back = server.put(&database, body("15")).await;
    assert_invalid_fields(&back, &["version"]);
    assert_eq!(
        back.body["fields"][0]["message"],
        "may not go back from 16: one of 16, 17"
    );
    assert_eq!(server.get(&database).await.body["version"], "16");
}

#[tokio::test]
async fn a_local_helm_repositorys_charts_are_read_from_its_index() {
    let server = TestServer::new().await;
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(
        dir.path().join("index.yaml"),
        "apiVersion: v1\nentries:\n  web:\n  - name: web\n    version: 0.2.0\n  - name: web\n    version: 0.1.0\n  worker:\n  - name: worker\n    version: 1.0.0\n",
    )
    .unwrap();
    let repository = server
        .post(
            &format!("/api/organization/{}/helmRepository", server.organization_id),
            json!({"name": "local", "kind": "HTTPS", "url": format!("file://{}", dir.path().display())}),
        )
        .await;
    assert_eq!(
        repository.status,
        StatusCode::CREATED,
        "{}",
        repository.body
    );
    let charts = format!(
        "/api/organization/{}/helmRepository/{}/charts",
        server.organization_id,
        repository.body["id"].as_str().unwrap()
    );
    assert_eq!(
        server.get(&charts).await.body["results"],
        json!([{"chart_name": "web", "versions": ["0.2.0", "0.1.0"]},
               {"chart_name": "worker", "versions": ["1.0.0"]}])
    );
    assert_eq!(
        server.get(&format!("{charts}?chartName=worker")).await.body["results"],
        json!([{"chart_name": "worker", "versions": ["1.0.0"]}])
    );

    // An index that is a link (here to a file outside the repository) is not followed, and
    // one that is a pipe nobody writes to is not waited on.
    let outside = tempfile::TempDir::new().unwrap();
    let elsewhere = outside.path().join("secret.yaml");
    std::fs::write(
        &elsewhere,
        "apiVersion: v1\nentries:\n  secret:\n  - name: secret\n    version: 9.9.9\n",
    )
    .unwrap();
    let index = dir.path().join("index.yaml");
    std::fs::remove_file(&index).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &index).unwrap();
    assert_eq!(server.get(&charts).await.body["results"], json!([]));
    std::fs::remove_file(&index).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&index)
        .status()
        .unwrap();
    assert!(made.success());
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), server.get(&charts))
        .await
        .expect("a pipe as index.yaml is not waited on");
    assert_eq!(read.body["results"], json!([]));
}

#[tokio::test]
async fn a_managed_database_is_of_a_type_its_cloud_manages_and_sized_by_its_instance() {
    let server = TestServer::new().await;
    let names = |body: &Value| -> Vec<String> {
        body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_string())
            .collect()
    };
    let aws_types = server.get("/api/aws/managedDatabase/type").await;
    assert_eq!(
        names(&aws_types.body),
        ["POSTGRESQL", "MYSQL", "MONGODB", "REDIS"]
    );
    let provider_a_types = server.get("/api/scaleway/managedDatabase/type").await;
    assert_eq!(names(&provider_a_types.body), ["POSTGRESQL", "MYSQL"]);
    let caches = server
        .get("/api/aws/managedDatabase/instanceType/eu-west-3/REDIS")
        .await;
    assert_eq!(caches.status, StatusCode::OK, "{}", caches.body);
    assert!(names(&caches.body).contains(&"cache.t3.micro".to_string()));
    for unknown in ["nowhere-1/REDIS", "eu-west-3/ORACLE"] {
        let reply = server
            .get(&format!("/api/aws/managedDatabase/instanceType/{unknown}"))
            .await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{unknown}");
    }

    let project = server.project("shop").await;
    let on_premise = server.environment(&project, "rack").await;
    let on_aws = server
        .environment_on(&project, "aws", "AWS", "eu-west-3")
        .await;
    let on_provider_a = server
        .environment_on(&project, "provider-a", "PROVIDER_A", "fr-par")
        .await;
    let managed_types = |environment: String| {
        let server = &server;
        async move {
            let listed = server
                .get(&format!(
                    "/api/environment/{environment}/databaseConfiguration"
                ))
                .await;
            listed.body["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|configuration| {
                    configuration["version"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|version| version["supported_mode"] == "MANAGED")
                })
                .map(|configuration| configuration["database_type"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert!(managed_types(on_premise.clone()).await.is_empty());
    assert_eq!(
        managed_types(on_provider_a.clone()).await,
        ["POSTGRESQL", "MYSQL"]
    );
    assert_eq!(managed_types(on_aws.clone()).await.len(), 4);

    let create = |environment: &str, body: Value| {
        let path = format!("/api/environment/{environment}/database");
        let server = &server;
        async move { server.post(&path, body).await }
    };
    let managed = |database_type: &str, version: &str| {
        json!({"name": "cache", "type": database_type, "version": version, "mode": "MANAGED",
               "cpu": 500, "memory": 768})
    };
    assert_invalid_fields(&create(&on_premise, managed("REDIS", "7")).await, &["mode"]);
    assert_invalid_fields(
        &create(&on_provider_a, managed("REDIS", "7")).await,
        &["mode"],
    );
    let unsized_on_aws = create(&on_aws, managed("REDIS", "7")).await;
    assert_invalid_fields(&unsized_on_aws, &["instance_type"]);
    assert!(unsized_on_aws.body["fields"][0]["message"]
        .as_str()
        .unwrap()
        .contains("cache.t3.micro"));
    let container_with_instance = json!({"name": "cache", "type": "REDIS", "version": "7",
        "mode": "CONTAINER", "instance_type": "cache.t3.micro"});
    assert_invalid_fields(
        &create(&on_aws, container_with_instance).await,
        &["instance_type"],
    );
    // A cloud that lists no instance sizes its managed databases by cpu and memory.
    let mysql = create(&on_provider_a, managed("MYSQL", "8.0")).await;
    assert_eq!(mysql.status, StatusCode::CREATED, "{}", mysql.body);
    assert_eq!(
        (&mysql.body["cpu"], &mysql.body["memory"]),
        (&json!(500), &json!(768))
    );

    let mut sized = managed("REDIS", "7");
    sized["instance_type"] = json!("cache.t3.micro");
    let cache = create(&on_aws, sized).await;
    assert_eq!(cache.status, StatusCode::CREATED, "{}", cache.body);
    assert_eq!(
        (&cache.body["cpu"], &cache.body["memory"]),
        (&json!(2000), &json!(512))
    );
    let path = format!("/api/database/{}", cache.body["id"].as_str().unwrap());
    let larger = server
        .put(&path, json!({"instance_type": "cache.r6g.large"}))
        .await;
    assert_eq!(larger.status, StatusCode::OK, "{}", larger.body);
    assert_eq!(larger.body["memory"], 13384);
    let wrong = server
        .put(&path, json!({"instance_type": "db.t3.micro"}))
        .await;
    assert_invalid_fields(&wrong, &["instance_type"]);
    assert_eq!(
        server.get(&path).await.body["instance_type"],
        "cache.r6g.large"
    );
}
