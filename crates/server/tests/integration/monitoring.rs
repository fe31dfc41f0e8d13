//! The monitoring routes as a cluster's Prometheus, Loki and Kubernetes would answer them, the
//! simulated series following the service's real state: a healthy service serves, a memory set
//! under what its load needs gets its instances killed after the next deployment (restarts in
//! PromQL, OOMKilled events, error lines in LogQL, 5xx), and raising it heals them. History is
//! moved back in time (the deployments' times) so that an hour of it can be read at once.

use std::collections::BTreeSet;

use crate::common::{assert_invalid_fields, TestServer};

use axum::http::{Method, StatusCode};
use platform_api::monitoring::{sample_value, QueryAnswer};
use serde_json::{json, Value};

/// A container of two instances with a public HTTP port, given `memory` MiB.
pub fn web(registry: &str, memory: i64) -> Value {
    json!({"name": "web", "registry_id": registry, "image_name": "shop/web", "tag": "1.0",
           "memory": memory, "cpu": 500, "min_running_instances": 2, "max_running_instances": 2,
           "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true,
                      "protocol": "HTTP"}]})
}

/// The container given `memory` MiB, then deployed.
pub async fn redeploy_with_memory(server: &TestServer, container: &str, memory: i64) {
    let registry = server
        .get(&format!("/api/container/{container}"))
        .await
        .body["registry"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let edited = server
        .put(
            &format!("/api/container/{container}"),
            web(&registry, memory),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    deploy(server, container).await;
}

/// The container `web`, deployed: `(environment, cluster, container)`.
pub async fn deployed_container(server: &TestServer, memory: i64) -> (String, String, String) {
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let container = server
        .create(
            &format!("/api/environment/{environment}/container"),
            web(&registry, memory),
        )
        .await;
    deploy(server, &container).await;
    let cluster = server.cluster_of(&environment).await;
    (environment, cluster, container)
}

pub async fn deploy(server: &TestServer, container: &str) {
    let deployed = server
        .post(&format!("/api/container/{container}/deploy"), json!({}))
        .await;
    assert_eq!(deployed.status, StatusCode::ACCEPTED, "{}", deployed.body);
    let status = server
        .settled(&format!("/api/container/{container}/status"))
        .await;
    assert_eq!(status["state"], "DEPLOYED", "{status}");
}

/// Moves the service's deployments that finished in the last `recent` seconds `by` seconds back.
pub async fn backdate(server: &TestServer, service: &str, recent: i64, by: i64) {
    let service = service.parse().unwrap();
    let moved = platform_server::backdate(&server.state.writes, service, recent, by)
        .await
        .unwrap();
    assert!(moved > 0, "no deployment of {service} to move");
}

pub fn now() -> f64 {
    chrono::Utc::now().timestamp() as f64
}

/// The Prometheus answer to `params` on the cluster.
async fn metrics(server: &TestServer, cluster: &str, params: &[(&str, String)]) -> QueryAnswer {
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let reply = server
        .get(&format!("/api/cluster/{cluster}/metrics?{query}"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{params:?}: {}", reply.body);
    serde_json::from_str(reply.body["metrics"].as_str().unwrap()).unwrap()
}

async fn instant(server: &TestServer, cluster: &str, query: &str, time: f64) -> Vec<(Value, f64)> {
    let answer = metrics(
        server,
        cluster,
        &[
            ("endpoint", "api/v1/query".into()),
            ("query", query.into()),
            ("time", time.to_string()),
        ],
    )
    .await;
    answer
        .instant_series()
        .into_iter()
        .map(|series| (json!(series.metric), sample_value(&series.value.1).unwrap()))
        .collect()
}

async fn one_value(server: &TestServer, cluster: &str, query: &str, time: f64) -> f64 {
    let found = instant(server, cluster, query, time).await;
    assert_eq!(found.len(), 1, "{query}: {found:?}");
    found[0].1
}

/// The workload (and container) running the service, found as the platform's console finds it.
pub async fn workload(server: &TestServer, cluster: &str, service: &str) -> String {
    let selector = format!("kube_deployment_labels{{label_qovery_com_service_id=\"{service}\"}}");
    let endpoint = format!(
        "api/v1/label/deployment/values?{}",
        url::form_urlencoded::Serializer::new(String::new())
            .append_pair("match[]", &selector)
            .finish()
    );
    let answer = metrics(
        server,
        cluster,
        &[("endpoint", endpoint), ("query", String::new())],
    )
    .await;
    let values = answer.values();
    assert_eq!(values.len(), 1, "{answer:?}");
    values[0].clone()
}

async fn loki(server: &TestServer, cluster: &str, params: &[(&str, String)]) -> QueryAnswer {
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(params)
        .finish();
    let reply = server
        .get(&format!("/api/cluster/{cluster}/logs?{query}"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{params:?}: {}", reply.body);
    serde_json::from_str(reply.body["response"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn the_series_follow_the_services_state_through_an_out_of_memory_and_back() {
    let server = TestServer::new().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    backdate(&server, &container, 60, 3 * 3600).await;
    let name = workload(&server, &cluster, &container).await;
    let t = now();

    // Healthy: two instances ready, CPU within its limit, memory under it, no restart.
    let ready = format!("sum(kube_deployment_status_replicas_available{{deployment=\"{name}\"}})");
    assert_eq!(one_value(&server, &cluster, &ready, t - 3600.0).await, 2.0);
    let cpu = format!("rate(container_cpu_usage_seconds_total{{container=\"{name}\"}}[5m])");
    let per_instance = instant(&server, &cluster, &cpu, t - 3600.0).await;
    assert_eq!(per_instance.len(), 2, "{per_instance:?}");
    assert!(
        per_instance
            .iter()
            .all(|(_, cores)| *cores > 0.0 && *cores <= 0.5),
        "{per_instance:?}"
    );
    let memory = format!("max(container_memory_working_set_bytes{{container=\"{name}\"}})");
    let used = one_value(&server, &cluster, &memory, t - 3600.0).await;
    assert!(
        used > 32.0 * 1024.0 * 1024.0 && used < 512.0 * 1024.0 * 1024.0,
        "{used}"
    );
    let restarts = format!(
        "sum(increase(kube_pod_container_status_restarts_total{{container=\"{name}\"}}[1h]))"
    );
    assert_eq!(one_value(&server, &cluster, &restarts, t - 60.0).await, 0.0);
    let ingress = format!("{name}-ingress");
    let errors = format!(
        "sum(nginx:req_rate:5m_by_status{{ingress=\"{ingress}\", status=~\"5..\"}}) / sum(nginx:req_rate:5m{{ingress=\"{ingress}\"}})"
    );
    let healthy_errors = one_value(&server, &cluster, &errors, t - 3600.0).await;
    assert!(healthy_errors < 0.01, "{healthy_errors}");

    // Its memory set under what its load needs, then deployed: killed, again and again.
    redeploy_with_memory(&server, &container, 16).await;
    backdate(&server, &container, 60, 3600).await;
    let t = now();
    let restarted = one_value(&server, &cluster, &restarts, t).await;
    assert!(restarted >= 10.0, "{restarted} restarts in the hour");
    let oom = format!(
        "sum(increase(k8s_event_logger_q_k8s_events_total{{qovery_com_service_id=\"{container}\", reason=\"OOMKilled\"}}[1h]))"
    );
    assert!(one_value(&server, &cluster, &oom, t).await >= 10.0);
    let failing = one_value(&server, &cluster, &errors, t - 1800.0).await;
    assert!(failing > 0.1, "{failing}");

    // Its events say why, for the instance a marker names.
    let pods = instant(
        &server,
        &cluster,
        &format!("kube_pod_container_status_restarts_total{{container=\"{name}\"}} > 0"),
        t,
    )
    .await;
    let pod = pods[0].0["pod"].as_str().unwrap().to_string();
    let from = chrono::DateTime::from_timestamp(t as i64 - 600, 0)
        .unwrap()
        .to_rfc3339();
    let to = chrono::DateTime::from_timestamp(t as i64, 0)
        .unwrap()
        .to_rfc3339();
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("from_date_time", &from)
        .append_pair("to_date_time", &to)
        .append_pair("pod_name", &pod)
        .finish();
    let events = server
        .get(&format!("/api/cluster/{cluster}/events?{query}"))
        .await;
    assert_eq!(events.status, StatusCode::OK, "{}", events.body);
    let reasons: Vec<&str> = events.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| event["reason"].as_str().unwrap())
        .collect();
    assert!(
        reasons.contains(&"OOMKilled") && reasons.contains(&"BackOff"),
        "{reasons:?}"
    );
    assert!(events.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|event| event["name"].as_str().unwrap().starts_with(&pod)));

    // Its error lines, each of the deployment that runs.
    let deployment = sqlx::query_scalar::<_, String>(
        "SELECT id FROM deployments WHERE service_id = ? ORDER BY finished_at DESC LIMIT 1",
    )
    .bind(&container)
    .fetch_one(&server.state.db)
    .await
    .unwrap();
    let lines = loki(
        &server,
        &cluster,
        &[
            ("endpoint", "/loki/api/v1/query_range".into()),
            (
                "query",
                format!("{{qovery_com_service_id=\"{container}\", level=\"error\"}} |= \"out of memory\""),
            ),
            ("start", format!("{}", (t as i64 - 3600) * 1_000_000_000)),
            ("end", format!("{}", t as i64 * 1_000_000_000)),
            ("limit", "200".into()),
        ],
    )
    .await;
    let streams = lines.streams();
    assert!(!streams.is_empty(), "{lines:?}");
    for stream in &streams {
        assert_eq!(stream.stream["qovery_com_deployment_id"], deployment);
        assert_eq!(stream.stream["level"], "error");
        assert!(stream
            .values
            .iter()
            .all(|(_, line)| line.contains("out of memory")));
    }

    // Given its memory back, the next deployment heals it.
    redeploy_with_memory(&server, &container, 512).await;
    backdate(&server, &container, 60, 900).await;
    let t = now();
    let recent = format!(
        "sum(increase(kube_pod_container_status_restarts_total{{container=\"{name}\"}}[10m]))"
    );
    assert_eq!(one_value(&server, &cluster, &recent, t).await, 0.0);
    assert_eq!(one_value(&server, &cluster, &ready, t).await, 2.0);
    assert!(one_value(&server, &cluster, &errors, t).await < 0.01);
}

#[tokio::test]
async fn a_range_query_answers_a_matrix_and_a_stopped_service_has_no_points() {
    let server = TestServer::new().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    backdate(&server, &container, 60, 2 * 3600).await;
    let name = workload(&server, &cluster, &container).await;
    let t = now();
    let answer = metrics(
        &server,
        &cluster,
        &[
            ("endpoint", "api/v1/query_range".into()),
            (
                "query",
                format!(
                    "sum by (status) (nginx:req_rate:5m_by_status{{ingress=\"{name}-ingress\"}})"
                ),
            ),
            ("start", (t - 3600.0).to_string()),
            ("end", t.to_string()),
            ("step", "60000ms".into()),
            ("dedup", "True".into()),
            ("engine", "thanos".into()),
        ],
    )
    .await;
    let series = answer.range_series();
    let ok = series
        .iter()
        .find(|s| s.metric.get("status").map(String::as_str) == Some("200"))
        .unwrap();
    assert_eq!(ok.values.len(), 61);
    assert!(ok
        .values
        .iter()
        .all(|(_, v)| sample_value(v).unwrap() > 0.5));

    let stopped = server
        .post(&format!("/api/container/{container}/stop"), json!({}))
        .await;
    assert_eq!(stopped.status, StatusCode::ACCEPTED, "{}", stopped.body);
    server
        .settled(&format!("/api/container/{container}/status"))
        .await;
    backdate(&server, &container, 60, 120).await;
    let memory = format!("container_memory_working_set_bytes{{container=\"{name}\"}}");
    assert!(instant(&server, &cluster, &memory, now()).await.is_empty());
    assert_eq!(
        instant(&server, &cluster, &memory, t - 600.0).await.len(),
        2
    );
}

#[tokio::test]
async fn a_probe_on_a_port_nothing_listens_on_never_passes() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let container = server
        .create(
            &format!("/api/environment/{environment}/container"),
            json!({"name": "api", "registry_id": registry, "image_name": "shop/api", "tag": "2",
                   "ports": [{"internal_port": 8080, "external_port": 443, "publicly_accessible": true, "protocol": "HTTP"}],
                   "healthchecks": {"readiness_probe": {"type": {"http": {"path": "/health", "scheme": "HTTP", "port": 3000}}}}}),
        )
        .await;
    deploy(&server, &container).await;
    backdate(&server, &container, 60, 1800).await;
    let cluster = server.cluster_of(&environment).await;
    let name = workload(&server, &cluster, &container).await;
    let t = now();
    let ready = format!("sum(kube_pod_container_status_ready{{container=\"{name}\"}})");
    assert_eq!(one_value(&server, &cluster, &ready, t).await, 0.0);
    let unhealthy = format!(
        "sum(increase(k8s_event_logger_q_k8s_events_total{{qovery_com_service_id=\"{container}\", reason=\"Unhealthy\"}}[10m]))"
    );
    assert!(one_value(&server, &cluster, &unhealthy, t).await >= 50.0);
    let unavailable =
        format!("sum(nginx:req_rate:5m_by_status{{ingress=\"{name}-ingress\", status=\"503\"}})");
    assert!(one_value(&server, &cluster, &unavailable, t).await > 0.0);
}

#[tokio::test]
async fn what_a_query_cannot_be_is_a_400_naming_the_parameter() {
    let server = TestServer::new().await;
    let (_, cluster, _) = deployed_container(&server, 512).await;
    let t = now();
    let ask = |params: Vec<(&'static str, String)>| {
        let server = &server;
        let cluster = cluster.clone();
        async move {
            let query: String = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(&params)
                .finish();
            server
                .get(&format!("/api/cluster/{cluster}/metrics?{query}"))
                .await
        }
    };
    let instant = |query: &str| {
        vec![
            ("endpoint", "api/v1/query".to_string()),
            ("query", query.to_string()),
            ("time", t.to_string()),
        ]
    };
    for (query, said) in [
        (
            "predict_linear(container_memory_working_set_bytes[1h], 3600)",
            "predict_linear",
        ),
        ("count_values(\"v\", kube_pod_labels)", "count_values"),
        (
            "sum(rate(container_cpu_usage_seconds_total[5m]",
            "parenthesis",
        ),
        ("{pod=\"x\"}", "name its metric"),
    ] {
        let reply = ask(instant(query)).await;
        assert_invalid_fields(&reply, &["query"]);
        let message = reply.body["fields"][0]["message"].as_str().unwrap();
        assert!(message.contains(said), "{query}: {message}");
    }
    let range = |start: f64, end: f64, step: &str| {
        vec![
            ("endpoint", "api/v1/query_range".to_string()),
            ("query", "vector(1)".to_string()),
            ("start", start.to_string()),
            ("end", end.to_string()),
            ("step", step.to_string()),
        ]
    };
    assert_invalid_fields(&ask(range(t, t - 60.0, "30s")).await, &["end"]);
    assert_invalid_fields(&ask(range(t - 30.0 * 86400.0, t, "60s")).await, &["step"]);
    assert_invalid_fields(&ask(range(t - 60.0, t, "zero")).await, &["step"]);
    let mut unknown = instant("vector(1)");
    unknown[0].1 = "api/v1/admin/tsdb/delete_series".into();
    assert_invalid_fields(&ask(unknown).await, &["endpoint"]);
    let logs = server
        .get(&format!(
            "/api/cluster/{cluster}/logs?endpoint=/loki/api/v1/query_range&query=%7Ba%3D%22b%22%7D%20%7C%20json"
        ))
        .await;
    assert_invalid_fields(&logs, &["query"]);
}

#[tokio::test]
async fn another_organizations_token_sees_nothing_of_the_cluster() {
    let server = TestServer::new().await;
    let (_, cluster, container) = deployed_container(&server, 512).await;
    backdate(&server, &container, 60, 600).await;
    let (_, other) = crate::tenants::another_organization(&server, "rival").await;
    let query = "endpoint=api/v1/query&query=count(kube_pod_labels)";
    let refused = server
        .call(
            Method::GET,
            &format!("/api/cluster/{cluster}/metrics?{query}"),
            Some(&other),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.body);
    // A READ token of the organization reads it.
    let reader = format!("Token {}", server.token_with_role("READ").await);
    let read = server
        .call(
            Method::GET,
            &format!("/api/cluster/{cluster}/metrics?{query}"),
            Some(&reader),
            None,
        )
        .await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.body);
    let answer: QueryAnswer = serde_json::from_str(read.body["metrics"].as_str().unwrap()).unwrap();
    assert_eq!(sample_value(&answer.instant_series()[0].value.1), Some(2.0));
}

/// The pods the metrics, the logs and the events name for one service over an hour, and at its
/// end as many pods as the replicas wanted: one set of instances, read three ways. A service
/// of one to three instances with cores to spare is scaled to one: its other two instances
/// exist in none of them.
#[tokio::test]
async fn logs_events_and_metrics_read_the_same_instances() {
    let server = TestServer::new().await;
    let (_, environment) = server.staging().await;
    let registry = server.container_registry().await;
    let mut body = web(&registry, 512);
    body["cpu"] = json!(4000);
    body["min_running_instances"] = json!(1);
    body["max_running_instances"] = json!(3);
    let container = server
        .create(&format!("/api/environment/{environment}/container"), body)
        .await;
    deploy(&server, &container).await;
    backdate(&server, &container, 60, 3600).await;
    let cluster = server.cluster_of(&environment).await;
    let name = workload(&server, &cluster, &container).await;
    let t = now();
    // From before the deployment (an hour ago): its pods scheduled and started in it.
    let (from, to) = ((t - 4000.0).to_string(), t.to_string());
    let selector = format!("kube_pod_labels{{label_qovery_com_service_id=\"{container}\"}}");
    let endpoint = format!(
        "api/v1/label/pod/values?{}",
        url::form_urlencoded::Serializer::new(String::new())
            .append_pair("match[]", &selector)
            .finish()
    );
    let in_metrics: BTreeSet<String> = metrics(
        &server,
        &cluster,
        &[
            ("endpoint", endpoint),
            ("query", String::new()),
            ("start", from.clone()),
            ("end", to.clone()),
        ],
    )
    .await
    .values()
    .into_iter()
    .collect();
    let in_logs: BTreeSet<String> = loki(
        &server,
        &cluster,
        &[
            ("endpoint", "/loki/api/v1/label/pod/values".to_string()),
            (
                "query",
                format!("{{qovery_com_service_id=\"{container}\"}}"),
            ),
            ("start", from.clone()),
            ("end", to.clone()),
        ],
    )
    .await
    .values()
    .into_iter()
    .collect();
    let stamp = |seconds: &str| {
        chrono::DateTime::from_timestamp(seconds.parse::<f64>().unwrap() as i64, 0)
            .unwrap()
            .to_rfc3339()
    };
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("from_date_time", &stamp(&from))
        .append_pair("to_date_time", &stamp(&to))
        .finish();
    let events = server
        .get(&format!("/api/cluster/{cluster}/events?{query}"))
        .await;
    assert_eq!(events.status, StatusCode::OK, "{}", events.body);
    let in_events: BTreeSet<String> = events.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|event| event["name"].as_str())
        .filter_map(|event| event.rsplit_once('.').map(|(pod, _)| pod.to_string()))
        .filter(|pod| pod.starts_with(&name))
        .collect();
    assert!(!in_metrics.is_empty());
    assert_eq!(in_metrics, in_logs, "metrics and logs");
    assert_eq!(in_metrics, in_events, "metrics and events");
    let replicas = one_value(
        &server,
        &cluster,
        &format!("kube_deployment_spec_replicas{{deployment=\"{name}\"}}"),
        t,
    )
    .await;
    let now_running = instant(&server, &cluster, &selector, t).await;
    assert_eq!(now_running.len() as f64, replicas, "{now_running:?}");
    assert!(
        replicas < 3.0,
        "one to three instances with cores to spare: {replicas}"
    );
}

#[tokio::test]
async fn a_service_asking_more_than_the_clusters_machines_have_is_never_scheduled() {
    let server = TestServer::new().await;
    let org = server.organization_id.clone();
    let small = server
        .create(
            &format!("/api/organization/{org}/cluster"),
            json!({"name": "small", "cloud_provider": "AWS", "region": "eu-west-3",
                   "instance_type": "t3a.medium", "min_running_nodes": 1, "max_running_nodes": 2}),
        )
        .await;
    let cluster = server
        .get(&format!("/api/organization/{org}/cluster/{small}"))
        .await;
    assert_eq!(cluster.body["instance_type"], "t3a.medium");
    assert_eq!(cluster.body["max_running_nodes"], 2);
    let project = server.project("machines").await;
    let environment = server
        .create(
            &format!("/api/project/{project}/environment"),
            json!({"name": "small", "mode": "STAGING", "cluster_id": small}),
        )
        .await;
    let registry = server.container_registry().await;
    // 6 GiB on a machine of 4 GB.
    let container = server
        .create(
            &format!("/api/environment/{environment}/container"),
            web(&registry, 6144),
        )
        .await;
    deploy(&server, &container).await;
    backdate(&server, &container, 60, 1800).await;

    let t = now();
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair(
            "from_date_time",
            &chrono::DateTime::from_timestamp(t as i64 - 3600, 0)
                .unwrap()
                .to_rfc3339(),
        )
        .append_pair(
            "to_date_time",
            &chrono::DateTime::from_timestamp(t as i64 + 60, 0)
                .unwrap()
                .to_rfc3339(),
        )
        .finish();
    let events = server
        .get(&format!("/api/cluster/{small}/events?{query}"))
        .await;
    assert_eq!(events.status, StatusCode::OK, "{}", events.body);
    let messages: Vec<&str> = events.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| event["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.contains(&"0/2 nodes are available: 2 Insufficient memory."),
        "{messages:?}"
    );

    // The same service on machines of 16 GB is scheduled.
    let edited = server
        .put(
            &format!("/api/organization/{org}/cluster/{small}"),
            json!({"name": "small", "cloud_provider": "AWS", "region": "eu-west-3",
                   "instance_type": "m5.xlarge", "min_running_nodes": 1, "max_running_nodes": 2}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    let events = server
        .get(&format!("/api/cluster/{small}/events?{query}"))
        .await;
    let scheduled = events.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|event| event["reason"] == "Scheduled");
    assert!(scheduled, "{}", events.body);

    // On one node of 8 GB, the first instance of 6 GiB fits and the second finds no room.
    let edited = server
        .put(
            &format!("/api/organization/{org}/cluster/{small}"),
            json!({"name": "small", "cloud_provider": "AWS", "region": "eu-west-3",
                   "instance_type": "t3a.large", "min_running_nodes": 1, "max_running_nodes": 1}),
        )
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    let events = server
        .get(&format!("/api/cluster/{small}/events?{query}"))
        .await;
    let results = events.body["results"].as_array().unwrap();
    assert!(
        results.iter().any(|event| event["reason"] == "Scheduled"),
        "{}",
        events.body
    );
    assert!(
        results
            .iter()
            .any(|event| event["message"] == "0/1 nodes are available: 1 Insufficient memory."),
        "{}",
        events.body
    );
}

#[tokio::test]
async fn a_clusters_machines_are_checked_against_the_catalog() {
    let server = TestServer::new().await;
    let path = format!("/api/organization/{}/cluster", server.organization_id);
    let refused = server
        .post(
            &path,
            json!({"name": "odd", "cloud_provider": "AWS", "region": "eu-west-3",
                   "instance_type": "DEV1-M", "min_running_nodes": 3, "max_running_nodes": 2}),
        )
        .await;
    assert_invalid_fields(&refused, &["instance_type", "max_running_nodes"]);
    let listed = server.get("/api/aws/eks/instanceType/eu-west-3").await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    assert!(listed.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|machine| machine["name"] == "t3a.medium" && machine["cpu"] == 2));
    let unknown = server.get("/api/aws/eks/instanceType/mars-north-1").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
    let zone = server.get("/api/scaleway/instanceType/fr-par-2").await;
    assert_eq!(zone.status, StatusCode::OK, "{}", zone.body);
    let providers = server.get("/api/cloudProvider").await;
    let aws = providers.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|provider| provider["short_name"] == "AWS")
        .cloned()
        .unwrap();
    assert!(aws["regions"].as_array().unwrap().len() > 3, "{aws}");
}
