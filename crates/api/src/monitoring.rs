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
    pub first_occurrence: DateTime<Utc>,
    pub last_occurrence: DateTime<Utc>,
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
