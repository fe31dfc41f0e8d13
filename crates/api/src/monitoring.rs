//! How a service is doing, as the platform's monitoring routes answer: `GET /cluster/{id}/metrics`
//! (a Prometheus answer in a string), `GET /cluster/{id}/logs` (a Loki answer in a string) and
//! `GET /cluster/{id}/events` (Kubernetes events). The answers inside the strings are read here
//! too, so that the console and the server agree on them.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// `GET /cluster/{id}/metrics`: the Prometheus API's body, as text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterMetricsResponse {
    #[serde(default)]
    pub metrics: Option<String>,
}

/// `GET /cluster/{id}/logs`: the Loki API's body, as text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterLogsResponse {
    #[serde(default)]
    pub response: Option<String>,
}

/// The query parameters of `GET /cluster/{id}/metrics` this server reads; the others the
/// platform's console sends (`dedup`, `engine`, `board_short_name`, …) are taken and left alone.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MetricsParameters {
    /// The Prometheus API path: `api/v1/query_range`, `api/v1/query`, or a label look-up
    /// (`api/v1/label/<name>/values?match[]=<selector>`, `api/v1/series?match[]=…`).
    pub endpoint: String,
    /// PromQL; empty for a look-up.
    #[serde(default)]
    pub query: String,
    /// Unix seconds, or RFC 3339.
    pub start: Option<String>,
    pub end: Option<String>,
    /// Seconds, or a duration such as `30000ms`.
    pub step: Option<String>,
    pub time: Option<String>,
    pub dedup: Option<String>,
    pub partial_response: Option<String>,
    pub max_source_resolution: Option<String>,
    pub engine: Option<String>,
    pub board_short_name: Option<String>,
    pub metric_short_name: Option<String>,
}

/// The query parameters of `GET /cluster/{id}/logs`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogsParameters {
    /// The Loki API path: `/loki/api/v1/query_range`, `/loki/api/v1/query`,
    /// `/loki/api/v1/label/<name>/values`.
    pub endpoint: String,
    /// LogQL; a stream selector for a label's values.
    #[serde(default)]
    pub query: String,
    /// Unix nanoseconds, or RFC 3339.
    pub start: Option<String>,
    pub end: Option<String>,
    pub limit: Option<String>,
    /// `backward` (newest first, the default) or `forward`.
    pub direction: Option<String>,
    pub step: Option<String>,
    pub time: Option<String>,
}

/// The query parameters of `GET /cluster/{id}/events`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EventsParameters {
    /// ISO 8601.
    pub from_date_time: String,
    pub to_date_time: String,
    pub pod_name: Option<String>,
    pub node_name: Option<String>,
    pub reporting_component: Option<String>,
}

/// One Kubernetes event (`GET /cluster/{id}/events`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KubernetesEvent {
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// The kind of object it is about: `Pod`.
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub message: String,
    /// `Normal` or `Warning`.
    #[serde(rename = "type", default)]
    pub event_type: String,
    #[serde(default)]
    pub reporting_component: String,
    #[serde(default)]
    pub count: i64,
    #[serde(with = "crate::timestamp")]
    pub first_occurrence: DateTime<Utc>,
    #[serde(with = "crate::timestamp")]
    pub last_occurrence: DateTime<Utc>,
}

/// The names the cluster's series know a service by, found with label look-ups: its Deployment's
/// or StatefulSet's name, which its containers take too; or, for a service run by neither (a
/// job), its namespace, its pods found through their label. Every query of a service the console
/// sends is written here, and the presets of its alert rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Workload {
    pub service_id: uuid::Uuid,
    pub name: Option<String>,
    pub namespace: Option<String>,
    /// Its ingress, for a service with a public HTTP port.
    pub ingress: Option<String>,
    /// Whether it runs as a StatefulSet (a database).
    pub stateful: bool,
}

/// A latency quantile the ingress records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantile {
    P50,
    P95,
    P99,
}

impl Quantile {
    pub const ALL: [Quantile; 3] = [Quantile::P50, Quantile::P95, Quantile::P99];

    pub fn label(self) -> &'static str {
        match self {
            Quantile::P50 => "p50",
            Quantile::P95 => "p95",
            Quantile::P99 => "p99",
        }
    }
}

impl Workload {
    /// The look-up that finds a service's Deployment (`deployment`) or StatefulSet
    /// (`statefulset`): the `endpoint` of a label look-up.
    pub fn lookup(label: &str, service_id: uuid::Uuid) -> String {
        let series = match label {
            "statefulset" => "kube_statefulset_labels",
            "ingress" => "kube_ingress_labels",
            "namespace" => "kube_pod_labels",
            _ => "kube_deployment_labels",
        };
        let id_label = if label == "ingress" {
            "label_qovery_com_associated_service_id"
        } else {
            "label_qovery_com_service_id"
        };
        let selector = format!("{series}{{{id_label}=\"{service_id}\"}}");
        format!(
            "api/v1/label/{label}/values?match[]={}",
            crate::query::percent_encode(&selector)
        )
    }

    /// `metric` of the service's containers, `more` matchers added (`resource="cpu"`).
    fn containers(&self, metric: &str, more: &str) -> String {
        let more = if more.is_empty() {
            String::new()
        } else {
            format!(", {more}")
        };
        match (&self.name, &self.namespace) {
            (Some(name), _) => format!("{metric}{{container=\"{name}\"{more}}}"),
            (None, namespace) => format!(
                "({metric}{{namespace=\"{}\"{more}}} * on (namespace, pod) group_left () kube_pod_labels{{label_qovery_com_service_id=\"{}\"}})",
                namespace.as_deref().unwrap_or_default(),
                self.service_id
            ),
        }
    }

    /// Cores used per instance.
    pub fn cpu_by_instance(&self, window: &str) -> String {
        format!(
            "sum by (pod) (rate({}[{window}]))",
            self.containers("container_cpu_usage_seconds_total", "")
        )
    }

    /// Cores used by every instance together.
    pub fn cpu(&self, window: &str) -> String {
        format!(
            "sum(rate({}[{window}]))",
            self.containers("container_cpu_usage_seconds_total", "")
        )
    }

    /// Cores requested by every instance together.
    pub fn cpu_request(&self) -> String {
        format!(
            "sum({})",
            self.containers("kube_pod_container_resource_requests", "resource=\"cpu\"")
        )
    }

    /// An instance's cores: its request and its limit.
    pub fn cpu_per_instance(&self, limit: bool) -> String {
        let metric = if limit {
            "kube_pod_container_resource_limits"
        } else {
            "kube_pod_container_resource_requests"
        };
        format!("max({})", self.containers(metric, "resource=\"cpu\""))
    }

    /// Bytes held per instance.
    pub fn memory_by_instance(&self) -> String {
        format!(
            "sum by (pod) ({})",
            self.containers("container_memory_working_set_bytes", "")
        )
    }

    /// An instance's memory limit, in bytes.
    pub fn memory_limit(&self) -> String {
        format!(
            "max({})",
            self.containers("kube_pod_container_resource_limits", "resource=\"memory\"")
        )
    }

    /// Instances ready.
    pub fn instances_ready(&self) -> String {
        format!(
            "sum({})",
            self.containers("kube_pod_container_status_ready", "")
        )
    }

    /// Instances wanted.
    pub fn instances_wanted(&self) -> String {
        match (&self.name, self.stateful) {
            (Some(name), true) => {
                format!("max(kube_statefulset_replicas{{statefulset=\"{name}\"}})")
            }
            (Some(name), false) => {
                format!("max(kube_deployment_spec_replicas{{deployment=\"{name}\"}})")
            }
            (None, _) => format!(
                "count({})",
                self.containers("kube_pod_container_status_ready", "")
            ),
        }
    }

    /// Restarts of its containers over the window.
    pub fn restarts(&self, window: &str) -> String {
        format!(
            "sum(increase({}[{window}]))",
            self.containers("kube_pod_container_status_restarts_total", "")
        )
    }

    /// Each instance's restarts so far: a marker where the count rose from one point to the
    /// next (an `increase` over a step as short as the scrape interval would see nothing).
    pub fn restarts_by_instance(&self) -> String {
        format!(
            "max by (pod) ({})",
            self.containers("kube_pod_container_status_restarts_total", "")
        )
    }

    /// Kubernetes events of `reason` over the window (`OOMKilled`).
    pub fn events(&self, reason: &str, window: &str) -> String {
        format!(
            "sum(increase(k8s_event_logger_q_k8s_events_total{{qovery_com_service_id=\"{}\", reason=\"{reason}\"}}[{window}]))",
            self.service_id
        )
    }

    /// Lines logged at level error over the window.
    pub fn error_lines(&self, window: &str) -> String {
        format!(
            "sum(increase(promtail_custom_q_log_errors_total{{qovery_com_service_id=\"{}\"}}[{window}]))",
            self.service_id
        )
    }

    fn ingress(&self) -> &str {
        self.ingress.as_deref().unwrap_or_default()
    }

    /// Requests per second by status.
    pub fn requests_by_status(&self) -> String {
        format!(
            "sum by (status) (nginx:req_rate:5m_by_status{{ingress=\"{}\"}})",
            self.ingress()
        )
    }

    /// The share of requests answered 5xx over the window.
    pub fn error_share(&self, window: &str) -> String {
        let ingress = self.ingress();
        format!(
            "sum(avg_over_time(nginx:req_rate:5m_by_status{{ingress=\"{ingress}\", status=~\"5..\"}}[{window}])) / sum(avg_over_time(nginx:req_rate:5m{{ingress=\"{ingress}\"}}[{window}]))"
        )
    }

    /// A latency quantile, in seconds.
    pub fn latency(&self, quantile: Quantile) -> String {
        format!(
            "nginx:request_{}:5m{{ingress=\"{}\"}}",
            quantile.label(),
            self.ingress()
        )
    }

    /// The highest p99 latency over the window.
    pub fn worst_latency(&self, window: &str) -> String {
        format!(
            "max(max_over_time({}[{window}]))",
            self.latency(Quantile::P99)
        )
    }

    /// Bytes of its volumes used, or their capacity.
    pub fn storage(&self, capacity: bool) -> String {
        let metric = if capacity {
            "kubelet_volume_stats_capacity_bytes"
        } else {
            "kubelet_volume_stats_used_bytes"
        };
        format!(
            "sum({metric} * on (namespace, persistentvolumeclaim) group_left () kube_persistentvolumeclaim_labels{{label_qovery_com_service_id=\"{}\"}})",
            self.service_id
        )
    }
}

/// The services of a cluster whose instances restarted over the window, each with its count
/// (`label_qovery_com_service_id`): one query for a cluster's "what is unwell".
pub fn restarting_services(window: &str) -> String {
    format!(
        "sum by (label_qovery_com_service_id) (increase(kube_pod_container_status_restarts_total[{window}]) * on (namespace, pod) group_left (label_qovery_com_service_id) kube_pod_labels) > 0"
    )
}

/// What a person narrows a service's logs to: a level, an instance, a version, a text (any
/// case). Its LogQL is written here once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogFilter {
    pub service_id: uuid::Uuid,
    pub level: Option<String>,
    pub pod: Option<String>,
    /// The version the lines' instances ran (the `app` label).
    pub version: Option<String>,
    pub text: String,
}

/// The levels a line is logged at, most severe first.
pub const LOG_LEVELS: [&str; 4] = ["error", "warn", "info", "debug"];

impl LogFilter {
    /// The streams of the service, narrowed by level, instance and version.
    pub fn selector(&self) -> String {
        let mut matchers = vec![format!("qovery_com_service_id=\"{}\"", self.service_id)];
        for (label, value) in [
            ("level", &self.level),
            ("pod", &self.pod),
            ("app", &self.version),
        ] {
            if let Some(value) = value {
                matchers.push(format!("{label}=\"{}\"", logql_string(value)));
            }
        }
        format!("{{{}}}", matchers.join(", "))
    }

    /// The lines the filter keeps: its selector, and the text as a line filter of any case.
    pub fn query(&self) -> String {
        let text = self.text.trim();
        if text.is_empty() {
            return self.selector();
        }
        format!(
            "{} |~ \"(?i){}\"",
            self.selector(),
            logql_string(&regex_escape(text))
        )
    }
}

/// `text` inside a LogQL string: its backslashes and quotes escaped.
fn logql_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `text` matched as written by a regular expression (the characters Go's `QuoteMeta`, which
/// Loki's matching runs on, escapes).
fn regex_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// A Prometheus or Loki API body: `{"status": "success", "data": …}`, or an error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryAnswer {
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<QueryData>,
    #[serde(rename = "errorType", default, skip_serializing_if = "Option::is_none")]
    pub error_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a query found: series of points, streams of lines, or a label's values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum QueryData {
    Result {
        #[serde(rename = "resultType")]
        result_type: ResultType,
        result: serde_json::Value,
    },
    Values(Vec<String>),
}

wire_enum!(
    /// What a query's result holds.
    ResultType {
        Matrix = "matrix" => "Series of points",
        Vector = "vector" => "One point per series",
        Scalar = "scalar" => "A number",
        Text = "string" => "A text",
        Streams = "streams" => "Lines",
    }
);

/// A series' labels.
pub type Metric = BTreeMap<String, String>;

/// A series of a `matrix` result: `{"metric": {…}, "values": [[t, "v"], …]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangeSeries {
    #[serde(default)]
    pub metric: Metric,
    #[serde(default)]
    pub values: Vec<(f64, String)>,
}

/// A series of a `vector` result: `{"metric": {…}, "value": [t, "v"]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstantSeries {
    #[serde(default)]
    pub metric: Metric,
    pub value: (f64, String),
}

/// A stream of a Loki `streams` result: its labels and its lines, `[["<unix ns>", "<line>"]]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stream {
    #[serde(default)]
    pub stream: Metric,
    #[serde(default)]
    pub values: Vec<(String, String)>,
}

/// A value as Prometheus writes it: a number in a string, `NaN` and the infinities included.
pub fn sample_value(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "+Inf" | "Inf" => Some(f64::INFINITY),
        "-Inf" => Some(f64::NEG_INFINITY),
        _ => text.parse().ok(),
    }
}

/// A number as Prometheus writes it in an answer.
pub fn sample_text(value: f64) -> String {
    if value.is_nan() {
        "NaN".to_string()
    } else if value == f64::INFINITY {
        "+Inf".to_string()
    } else if value == f64::NEG_INFINITY {
        "-Inf".to_string()
    } else {
        value.to_string()
    }
}

impl QueryAnswer {
    /// The series of a `matrix` answer; none for an error or another kind of result.
    pub fn range_series(&self) -> Vec<RangeSeries> {
        self.result_of(ResultType::Matrix)
    }

    /// The series of a `vector` answer.
    pub fn instant_series(&self) -> Vec<InstantSeries> {
        self.result_of(ResultType::Vector)
    }

    /// The streams of a Loki `streams` answer.
    pub fn streams(&self) -> Vec<Stream> {
        self.result_of(ResultType::Streams)
    }

    /// A label look-up's values.
    pub fn values(&self) -> Vec<String> {
        match &self.data {
            Some(QueryData::Values(values)) => values.clone(),
            _ => Vec::new(),
        }
    }

    fn result_of<T: serde::de::DeserializeOwned>(&self, wanted: ResultType) -> Vec<T> {
        match &self.data {
            Some(QueryData::Result {
                result_type,
                result,
            }) if *result_type == wanted => {
                serde_json::from_value(result.clone()).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    pub fn is_success(&self) -> bool {
        self.status == "success"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_filter_is_a_selector_and_a_line_filter_of_any_case() {
        let filter = LogFilter {
            service_id: uuid::Uuid::nil(),
            level: Some("error".into()),
            pod: None,
            version: Some("v1".into()),
            text: "a.b \"c\"".into(),
        };
        assert_eq!(
            filter.query(),
            r#"{qovery_com_service_id="00000000-0000-0000-0000-000000000000", level="error", app="v1"} |~ "(?i)a\\.b \"c\"""#
        );
        let plain = LogFilter {
            text: "  ".into(),
            ..filter
        };
        assert!(!plain.query().contains("|~"));
    }

    #[test]
    fn a_prometheus_range_answer_reads_as_series() {
        let body = r#"{"status":"success","data":{"resultType":"matrix","result":[
            {"metric":{"pod":"web-1"},"values":[[1700000000,"0.25"],[1700000030,"NaN"]]}]}}"#;
        let answer: QueryAnswer = serde_json::from_str(body).unwrap();
        let series = answer.range_series();
        assert_eq!(series[0].metric["pod"], "web-1");
        assert_eq!(sample_value(&series[0].values[0].1), Some(0.25));
        assert!(sample_value(&series[0].values[1].1).unwrap().is_nan());
        assert!(answer.instant_series().is_empty());
    }

    #[test]
    fn a_label_look_up_and_an_error_read_too() {
        let values: QueryAnswer =
            serde_json::from_str(r#"{"status":"success","data":["app-z1","app-z2"]}"#).unwrap();
        assert_eq!(values.values(), ["app-z1", "app-z2"]);
        let error: QueryAnswer = serde_json::from_str(
            r#"{"status":"error","errorType":"bad_data","error":"parse error"}"#,
        )
        .unwrap();
        assert!(!error.is_success());
        assert!(error.range_series().is_empty());
    }
}
