//! How services are doing, through the document's monitoring operations: a cluster's metrics
//! (Prometheus's answer in a string), logs (Loki's) and Kubernetes events, and the alert rules.
//! An answer whose string is not a Prometheus or Loki body (a platform that answers otherwise)
//! reads as no data, never as a failed page.

use platform_api::monitoring::{
    EventsParameters, InstantSeries, LogsParameters, MetricsParameters, QueryAnswer, RangeSeries,
    Workload,
};
use platform_api::paths;
use platform_api::query::to_query_string;
use platform_api::{
    AlertRuleCreationRequest, AlertRuleEditRequest, AlertRuleResponse, ClusterLogsResponse,
    ClusterMetricsResponse, KubernetesEvent, List, ServiceType,
};
use uuid::Uuid;

use super::{Api, ApiError};

/// A line of a service's logs, with the labels of its stream.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRecord {
    /// When it was printed, in unix nanoseconds: its place, and where the next page starts.
    pub nanos: i64,
    pub level: String,
    /// The instance that printed it.
    pub pod: String,
    /// The version the instance ran.
    pub version: String,
    pub text: String,
}

/// An answer of no series: what a body that does not read stands for.
fn no_data() -> QueryAnswer {
    QueryAnswer {
        status: "success".to_string(),
        data: None,
        error_type: None,
        error: None,
    }
}

fn read_answer(text: Option<String>) -> QueryAnswer {
    text.and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(no_data)
}

impl Api {
    /// A PromQL query or a label look-up on the cluster.
    pub async fn cluster_metrics(
        &self,
        cluster: Uuid,
        parameters: &MetricsParameters,
    ) -> Result<QueryAnswer, ApiError> {
        let path = format!(
            "{}?{}",
            paths::CLUSTER_METRICS.at(&[cluster]),
            to_query_string(parameters)
        );
        let answer: ClusterMetricsResponse = self.get(&path).await?;
        Ok(read_answer(answer.metrics))
    }

    /// `query`'s series over `[start, end]`, a point every `step` seconds.
    pub async fn metrics_range(
        &self,
        cluster: Uuid,
        query: String,
        (start, end, step): (f64, f64, f64),
    ) -> Result<Vec<RangeSeries>, ApiError> {
        let parameters = MetricsParameters {
            endpoint: "api/v1/query_range".to_string(),
            query,
            start: Some(start.to_string()),
            end: Some(end.to_string()),
            step: Some(format!("{}s", step as i64)),
            ..MetricsParameters::default()
        };
        Ok(self
            .cluster_metrics(cluster, &parameters)
            .await?
            .range_series())
    }

    /// `query`'s samples at `time`.
    pub async fn metrics_at(
        &self,
        cluster: Uuid,
        query: String,
        time: f64,
    ) -> Result<Vec<InstantSeries>, ApiError> {
        let parameters = MetricsParameters {
            endpoint: "api/v1/query".to_string(),
            query,
            time: Some(time.to_string()),
            ..MetricsParameters::default()
        };
        Ok(self
            .cluster_metrics(cluster, &parameters)
            .await?
            .instant_series())
    }

    /// The values a label takes in the series a look-up `endpoint` names.
    async fn label_values(&self, cluster: Uuid, endpoint: String) -> Result<Vec<String>, ApiError> {
        let parameters = MetricsParameters {
            endpoint,
            ..MetricsParameters::default()
        };
        Ok(self.cluster_metrics(cluster, &parameters).await?.values())
    }

    /// The names the cluster's series know the service by, found as the platform's console
    /// finds them: its Deployment (a database's StatefulSet), its ingress, its namespace.
    pub async fn workload(
        &self,
        cluster: Uuid,
        service_id: Uuid,
        kind: ServiceType,
    ) -> Result<Workload, ApiError> {
        let stateful = kind == ServiceType::Database;
        let named = matches!(
            kind,
            ServiceType::Application | ServiceType::Container | ServiceType::Database
        );
        let serves = matches!(kind, ServiceType::Application | ServiceType::Container);
        let label = if stateful {
            "statefulset"
        } else {
            "deployment"
        };
        let (names, ingresses, namespaces) = futures::join!(
            async {
                match named {
                    true => {
                        self.label_values(cluster, Workload::lookup(label, service_id))
                            .await
                    }
                    false => Ok(Vec::new()),
                }
            },
            async {
                match serves {
                    true => {
                        self.label_values(cluster, Workload::lookup("ingress", service_id))
                            .await
                    }
                    false => Ok(Vec::new()),
                }
            },
            self.label_values(cluster, Workload::lookup("namespace", service_id)),
        );
        Ok(Workload {
            service_id,
            name: names?.into_iter().next(),
            namespace: namespaces?.into_iter().next(),
            ingress: ingresses?.into_iter().next(),
            stateful,
        })
    }

    /// A LogQL query or a label's values on the cluster.
    pub async fn cluster_logs(
        &self,
        cluster: Uuid,
        parameters: &LogsParameters,
    ) -> Result<QueryAnswer, ApiError> {
        let path = format!(
            "{}?{}",
            paths::CLUSTER_LOGS.at(&[cluster]),
            to_query_string(parameters)
        );
        let answer: ClusterLogsResponse = self.get(&path).await?;
        Ok(read_answer(answer.response))
    }

    /// The lines `parameters` asks for, newest first, each with its stream's labels.
    pub async fn log_records(
        &self,
        cluster: Uuid,
        parameters: &LogsParameters,
    ) -> Result<Vec<LogRecord>, ApiError> {
        let streams = self.cluster_logs(cluster, parameters).await?.streams();
        let mut records: Vec<LogRecord> = streams
            .into_iter()
            .flat_map(|stream| {
                let label = |name: &str| stream.stream.get(name).cloned().unwrap_or_default();
                let (level, pod, version) = (label("level"), label("pod"), label("app"));
                stream.values.into_iter().filter_map(move |(nanos, text)| {
                    Some(LogRecord {
                        nanos: nanos.parse().ok()?,
                        level: level.clone(),
                        pod: pod.clone(),
                        version: version.clone(),
                        text,
                    })
                })
            })
            .collect();
        records.sort_by_key(|record| std::cmp::Reverse(record.nanos));
        Ok(records)
    }

    /// The values `label` takes in the streams `selector` names between two times (unix
    /// nanoseconds).
    pub async fn log_label_values(
        &self,
        cluster: Uuid,
        label: &str,
        selector: String,
        (start, end): (i64, i64),
    ) -> Result<Vec<String>, ApiError> {
        let parameters = LogsParameters {
            endpoint: format!("/loki/api/v1/label/{label}/values"),
            query: selector,
            start: Some(start.to_string()),
            end: Some(end.to_string()),
            ..LogsParameters::default()
        };
        Ok(self.cluster_logs(cluster, &parameters).await?.values())
    }

    /// The cluster's Kubernetes events between two times.
    pub async fn cluster_events(
        &self,
        cluster: Uuid,
        parameters: &EventsParameters,
    ) -> Result<Vec<KubernetesEvent>, ApiError> {
        let path = format!(
            "{}?{}",
            paths::CLUSTER_EVENTS.at(&[cluster]),
            to_query_string(parameters)
        );
        let list: List<KubernetesEvent> = self.get(&path).await?;
        Ok(list.results)
    }

    /// The organization's managed alert rules (the ghosts a platform may list are left out).
    pub async fn alert_rules(&self, org: Uuid) -> Result<Vec<AlertRuleResponse>, ApiError> {
        let list: List<serde_json::Value> = self
            .get(&paths::ORGANIZATION_ALERT_RULES.at(&[org]))
            .await?;
        Ok(list
            .results
            .into_iter()
            .filter_map(|rule| serde_json::from_value(rule).ok())
            .collect())
    }

    pub async fn create_alert_rule(
        &self,
        request: &AlertRuleCreationRequest,
    ) -> Result<AlertRuleResponse, ApiError> {
        self.post(paths::ALERT_RULES.0, request).await
    }

    pub async fn update_alert_rule(
        &self,
        id: Uuid,
        request: &AlertRuleEditRequest,
    ) -> Result<AlertRuleResponse, ApiError> {
        self.put(&paths::ALERT_RULE.at(&[id]), request).await
    }

    pub async fn delete_alert_rule(&self, id: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::ALERT_RULE.at(&[id])).await
    }
}
