//! How services are doing, through the document's monitoring operations: a cluster's metrics
//! (Prometheus's answer in a string), logs (Loki's) and Kubernetes events, and the alert rules.
//! An answer whose string is not a Prometheus or Loki body (a platform that answers otherwise)
//! reads as no data, never as a failed page.

use platform_api::monitoring::{
    EventsParameters, LogsParameters, MetricsParameters, QueryAnswer,
};
use platform_api::query::to_query_string;
use platform_api::{
    AlertRuleCreationRequest, AlertRuleEditRequest, AlertRuleResponse, ClusterLogsResponse,
    ClusterMetricsResponse, KubernetesEvent, List,
};
use uuid::Uuid;

use super::{Api, ApiError};

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
        let path = format!("/cluster/{cluster}/metrics?{}", to_query_string(parameters));
        let answer: ClusterMetricsResponse = self.get(&path).await?;
        Ok(read_answer(answer.metrics))
    }

    /// A LogQL query or a label's values on the cluster.
    pub async fn cluster_logs(
        &self,
        cluster: Uuid,
        parameters: &LogsParameters,
    ) -> Result<QueryAnswer, ApiError> {
        let path = format!("/cluster/{cluster}/logs?{}", to_query_string(parameters));
        let answer: ClusterLogsResponse = self.get(&path).await?;
        Ok(read_answer(answer.response))
    }

    /// The cluster's Kubernetes events between two times.
    pub async fn cluster_events(
        &self,
        cluster: Uuid,
        parameters: &EventsParameters,
    ) -> Result<Vec<KubernetesEvent>, ApiError> {
        let path = format!("/cluster/{cluster}/events?{}", to_query_string(parameters));
        let list: List<KubernetesEvent> = self.get(&path).await?;
        Ok(list.results)
    }

    /// The organization's managed alert rules (the ghosts a platform may list are left out).
    pub async fn alert_rules(&self, org: Uuid) -> Result<Vec<AlertRuleResponse>, ApiError> {
        let list: List<serde_json::Value> =
            self.get(&format!("/organization/{org}/alert-rules")).await?;
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
        self.post("/alert-rules", request).await
    }

    pub async fn update_alert_rule(
        &self,
        id: Uuid,
        request: &AlertRuleEditRequest,
    ) -> Result<AlertRuleResponse, ApiError> {
        self.put(&format!("/alert-rules/{id}"), request).await
    }

    pub async fn delete_alert_rule(&self, id: Uuid) -> Result<(), ApiError> {
        self.delete(&format!("/alert-rules/{id}")).await
    }
}
