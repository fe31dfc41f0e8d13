//! What the simulated cluster's Prometheus, Loki and Kubernetes would hold: metrics, lines and
//! events of an organization's services on a cluster, computed from the store's history (the
//! engine's finished actions and the settings each put in place) and a load model per service,
//! never stored point by point. There is no cloud here: this is a simulation, deterministic (the
//! same history and time give the same answer) and honest about what it models: instances started
//! by deploys and restarts, killed for memory under what their load needs, unready when their
//! probe knocks on a port they do not listen on, requests failing while no instance is ready.
//! The answers are in the shapes of the platform's routes (`observability.md`).

pub mod allowance;
pub mod events;
pub mod fleet;
pub mod logql;
pub mod logs;
pub mod model;
pub mod promql;
pub mod series;
pub mod traffic;

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use platform_api::monitoring::{
    sample_text, EventsParameters, LogsParameters, MetricsParameters, QueryAnswer, QueryData,
    ResultType,
};
use platform_api::{Cluster, KubernetesEvent};
use serde_json::{json, Value};
use sqlx::SqlitePool;
use uuid::Uuid;

use crate::offload::{Offload, Priority};
use crate::store::{organization_resources, runs};
use allowance::Allowance;
pub use fleet::Fleet;

/// Queries evaluated at once; the others wait their turn, up to `WAIT_FOR_TURN`.
const AT_ONCE: usize = 2;
const WAIT_FOR_TURN: Duration = Duration::from_secs(10);
/// The most points a metrics answer holds (Prometheus bounds a series to 11,000; this bounds
/// the answer, whatever its series).
const MOST_ANSWER_POINTS: usize = 500_000;
/// The most events an answer lists, newest first.
const MOST_EVENTS: usize = 1_000;

/// An evaluator's stack: recursion is bounded by the queries' depth (`promql::MOST_DEPTH`), with
/// room to spare in a debug build.
const EVALUATOR_STACK: usize = 8 * 1024 * 1024;

/// Why a monitoring request was not answered: a parameter's fault (named), or the server's
/// evaluators all busy.
#[derive(Debug)]
pub enum Refusal {
    Parameter { name: &'static str, message: String },
    Busy,
}

fn parameter(name: &'static str, message: impl Into<String>) -> Refusal {
    Refusal::Parameter {
        name,
        message: message.into(),
    }
}

/// The evaluators: a bounded number of queries at a time, each on a thread of its own at a lower
/// priority, so that none holds the server's workers or their CPU.
pub struct Telemetry {
    evaluators: Offload,
}

impl Default for Telemetry {
    fn default() -> Self {
        Telemetry {
            evaluators: Offload::new("telemetry", AT_ONCE, EVALUATOR_STACK, Priority::Idle),
        }
    }
}

impl Telemetry {
    /// `work` on an evaluator once a turn is free, told to stop when the caller goes.
    async fn evaluate<T: Send + 'static>(
        &self,
        work: impl FnOnce(Allowance) -> Result<T, Refusal> + Send + 'static,
    ) -> Result<T, Refusal> {
        let (allowance, _waiting) = Allowance::start();
        // The allowance stops the work at its own deadline, counted from its start.
        let deadline = WAIT_FOR_TURN + allowance::MOST_TIME;
        self.evaluators
            .run(deadline, move || work(allowance.from_now()))
            .await
            .map_err(|_| Refusal::Busy)?
    }

    /// `GET /cluster/{id}/metrics`: the Prometheus API's answer, as text.
    pub async fn metrics(
        &self,
        db: &SqlitePool,
        (organization_id, cluster_id): (Uuid, Uuid),
        request: MetricsParameters,
    ) -> Result<String, Refusal> {
        let history = load(db, organization_id, cluster_id).await?;
        let now = now();
        self.evaluate(move |allowance| metrics(&history.build(now), &request, now, allowance))
            .await
    }

    /// `GET /cluster/{id}/logs`: the Loki API's answer, as text.
    pub async fn logs(
        &self,
        db: &SqlitePool,
        (organization_id, cluster_id): (Uuid, Uuid),
        request: LogsParameters,
    ) -> Result<String, Refusal> {
        let history = load(db, organization_id, cluster_id).await?;
        let now = now();
        self.evaluate(move |allowance| logs(&history.build(now), &request, now, allowance))
            .await
    }

    /// `GET /cluster/{id}/events`.
    pub async fn events(
        &self,
        db: &SqlitePool,
        (organization_id, cluster_id): (Uuid, Uuid),
        request: EventsParameters,
    ) -> Result<Vec<KubernetesEvent>, Refusal> {
        let from = date_time("from_date_time", &request.from_date_time)?;
        let to = date_time("to_date_time", &request.to_date_time)?;
        if to < from {
            return Err(parameter(
                "to_date_time",
                "must not be before from_date_time",
            ));
        }
        let history = load(db, organization_id, cluster_id).await?;
        let now = now();
        let to = to.min(now);
        self.evaluate(move |_| {
            let fleet = history.build(now);
            let filter = events::Filter {
                pod_name: request.pod_name.as_deref(),
                node_name: request.node_name.as_deref(),
                reporting_component: request.reporting_component.as_deref(),
            };
            Ok(events::list(
                &fleet.services,
                from,
                to,
                &filter,
                MOST_EVENTS,
            ))
        })
        .await
    }

    /// The samples each expression gives at `at` over the fleet (an alert round's evaluation),
    /// or why it gives none; none for an expression not given (a disabled rule). Each is
    /// evaluated within its own allowance: one rule that runs long fails alone.
    pub async fn instants(
        &self,
        history: History,
        expressions: Vec<Option<String>>,
        at: f64,
    ) -> Result<Vec<Result<Vec<f64>, String>>, Refusal> {
        self.evaluate(move |_| {
            let fleet = history.build(at);
            Ok(expressions
                .iter()
                .map(|expression| match expression {
                    Some(expression) => instant_values(&fleet, expression, at),
                    None => Ok(Vec::new()),
                })
                .collect())
        })
        .await
    }
}

/// The values `expression` gives at `at`.
fn instant_values(fleet: &Fleet, expression: &str, at: f64) -> Result<Vec<f64>, String> {
    let expr = promql::parse(expression).map_err(|error| error.message)?;
    let allowance = Allowance::unwatched();
    let mut evaluator = promql::Evaluator::new(fleet, &expr, (at, at, 60.0), at, allowance);
    match evaluator
        .instant(&expr, at)
        .map_err(|error| error.message)?
    {
        promql::Value::Vector(samples) => Ok(samples.iter().map(|sample| sample.value).collect()),
        promql::Value::Scalar(value) => Ok(vec![value]),
        _ => Err("the expression gives no number".to_string()),
    }
}

fn now() -> f64 {
    Utc::now().timestamp_millis() as f64 / 1000.0
}

/// The history of the organization's fleet on the cluster as it stands now: its services and
/// their finished actions, built into the fleet by `History::build` on an evaluator's thread.
pub struct History(Vec<runs::ServiceRow>, Vec<runs::ActionRow>, fleet::Nodes);

impl History {
    pub fn build(self, now: f64) -> Fleet {
        fleet::build(self.0, self.1, self.2, now)
    }
}

/// The history of the organization's fleet on the cluster.
pub async fn load(
    db: &SqlitePool,
    organization_id: Uuid,
    cluster_id: Uuid,
) -> Result<History, Refusal> {
    let read = async {
        let services = runs::services_on_cluster(db, organization_id, cluster_id).await?;
        let actions = runs::finished_actions(db, organization_id, cluster_id, Utc::now()).await?;
        Ok::<_, sqlx::Error>((services, actions))
    };
    let (services, actions) = read.await.map_err(|error| {
        tracing::error!(%error, "the fleet's history could not be read");
        Refusal::Busy
    })?;
    let cluster = organization_resources::find::<Cluster>(
        db,
        organization_resources::CLUSTERS,
        organization_id,
        cluster_id,
    )
    .await
    .map_err(|error| {
        tracing::error!(?error, "the fleet's cluster could not be read");
        Refusal::Busy
    })?;
    Ok(History(
        services,
        actions,
        fleet::Nodes::of(&cluster.record),
    ))
}

/// `text` as unix seconds (a number) or an RFC 3339 time.
fn seconds(name: &'static str, text: &str) -> Result<f64, Refusal> {
    if let Ok(seconds) = text.trim().parse::<f64>() {
        if seconds.is_finite() {
            return Ok(seconds);
        }
    }
    DateTime::parse_from_rfc3339(text.trim())
        .map(|at| at.timestamp_millis() as f64 / 1000.0)
        .map_err(|_| parameter(name, "must be unix seconds or an RFC 3339 time"))
}

/// `text` as unix nanoseconds (Loki's), seconds, or an RFC 3339 time.
fn loki_time(name: &'static str, text: &str) -> Result<f64, Refusal> {
    let text = text.trim();
    if text.len() > 13 && text.chars().all(|c| c.is_ascii_digit()) {
        return text
            .parse::<i128>()
            .map(|nanos| nanos as f64 / 1e9)
            .map_err(|_| parameter(name, "must be unix nanoseconds or an RFC 3339 time"));
    }
    seconds(name, text).map_err(|_| parameter(name, "must be unix nanoseconds or an RFC 3339 time"))
}

fn date_time(name: &'static str, text: &str) -> Result<f64, Refusal> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|at| at.timestamp_millis() as f64 / 1000.0)
        .map_err(|_| {
            parameter(
                name,
                "must be an ISO 8601 date and time, e.g. 2026-03-03T09:00:00+00:00 (+ written %2B)",
            )
        })
}

/// A step: seconds, or a duration such as `30000ms` or `1m`.
fn step(text: &str) -> Result<f64, Refusal> {
    let step = text
        .trim()
        .parse::<f64>()
        .ok()
        .or_else(|| logql::duration_seconds(text.trim()))
        .ok_or_else(|| parameter("step", "must be seconds or a duration such as 30s"))?;
    if !(step > 0.0 && step.is_finite()) {
        return Err(parameter("step", "must be above zero"));
    }
    Ok(step)
}

fn answer(data: QueryData) -> String {
    let answer = QueryAnswer {
        status: "success".to_string(),
        data: Some(data),
        error_type: None,
        error: None,
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

fn result(result_type: ResultType, result: Value) -> String {
    answer(QueryData::Result {
        result_type,
        result,
    })
}

fn metric_labels(labels: &series::Labels) -> Value {
    Value::Object(
        labels
            .iter()
            .map(|(name, value)| (name.clone(), Value::String(value.clone())))
            .collect(),
    )
}

fn query_refusal(error: promql::QueryError) -> Refusal {
    parameter("query", error.message)
}

/// The Prometheus API's answer to `request` at `now`.
fn metrics(
    fleet: &Fleet,
    request: &MetricsParameters,
    now: f64,
    allowance: Allowance,
) -> Result<String, Refusal> {
    let (path, lookup) = request
        .endpoint
        .trim_start_matches('/')
        .split_once('?')
        .unwrap_or((request.endpoint.trim_start_matches('/'), ""));
    match path {
        "api/v1/query_range" => {
            let expr = promql::parse(&request.query).map_err(query_refusal)?;
            let start = seconds(
                "start",
                request
                    .start
                    .as_deref()
                    .ok_or_else(|| parameter("start", "is required"))?,
            )?;
            let end = seconds(
                "end",
                request
                    .end
                    .as_deref()
                    .ok_or_else(|| parameter("end", "is required"))?,
            )?;
            let step = step(
                request
                    .step
                    .as_deref()
                    .ok_or_else(|| parameter("step", "is required"))?,
            )?;
            if end < start {
                return Err(parameter("end", "must not be before start"));
            }
            if (end - start) / step > promql::MOST_POINTS as f64 {
                return Err(parameter(
                    "step",
                    format!("exceeded maximum resolution of {} points per timeseries: lengthen the step", promql::MOST_POINTS),
                ));
            }
            let mut evaluator =
                promql::Evaluator::new(fleet, &expr, (start, end, step), now, allowance);
            let series = evaluator.range(&expr).map_err(query_refusal)?;
            matrix_answer(&series)
        }
        "api/v1/query" => {
            let expr = promql::parse(&request.query).map_err(query_refusal)?;
            let time = match request.time.as_deref() {
                Some(time) => seconds("time", time)?,
                None => now,
            };
            let mut evaluator =
                promql::Evaluator::new(fleet, &expr, (time, time, 60.0), now, allowance);
            Ok(match evaluator.instant(&expr, time).map_err(query_refusal)? {
                promql::Value::Scalar(value) => result(ResultType::Scalar, json!([time, sample_text(value)])),
                promql::Value::Text(text) => result(ResultType::Text, json!([time, text])),
                promql::Value::Vector(samples) => result_json(
                    ResultType::Vector,
                    samples
                        .iter()
                        .map(|s| json!({"metric": metric_labels(&s.labels), "value": [time, sample_text(s.value)]}))
                        .collect(),
                ),
                promql::Value::Matrix(series) => matrix_answer(&series)?,
            })
        }
        _ => match path
            .strip_prefix("api/v1/label/")
            .and_then(|rest| rest.strip_suffix("/values"))
        {
            Some(label) => {
                let found = looked_up(fleet, request, lookup, now, allowance)?;
                let mut values: Vec<String> = found
                    .iter()
                    .filter_map(|labels| {
                        labels
                            .iter()
                            .find(|(n, _)| n == label)
                            .map(|(_, v)| v.clone())
                    })
                    .collect();
                values.sort();
                values.dedup();
                Ok(answer(QueryData::Values(values)))
            }
            None => Err(parameter(
                "endpoint",
                "must be api/v1/query_range, api/v1/query or api/v1/label/<name>/values",
            )),
        },
    }
}

/// A matrix's answer, written point by point rather than built as a JSON tree first (a tree
/// takes ten times the points' own memory), refused past `MOST_ANSWER_POINTS`.
fn matrix_answer(series: &[promql::Points]) -> Result<String, Refusal> {
    let points: usize = series.iter().map(|one| one.points.len()).sum();
    if points > MOST_ANSWER_POINTS {
        return Err(parameter(
            "query",
            format!("the answer would hold {points} points, more than the {MOST_ANSWER_POINTS} one answer may: narrow its selectors or lengthen its step"),
        ));
    }
    let mut result = String::with_capacity(points * 32);
    result.push('[');
    for (index, one) in series.iter().enumerate() {
        if index > 0 {
            result.push(',');
        }
        result.push_str("{\"metric\":");
        result.push_str(&metric_labels(&one.labels).to_string());
        result.push_str(",\"values\":[");
        for (index, (t, v)) in one.points.iter().enumerate() {
            if index > 0 {
                result.push(',');
            }
            result.push('[');
            result.push_str(&json!(t).to_string());
            result.push_str(",\"");
            result.push_str(&sample_text(*v));
            result.push_str("\"]");
        }
        result.push_str("]}");
    }
    result.push(']');
    Ok(format!(
        "{{\"status\":\"success\",\"data\":{{\"resultType\":\"{}\",\"result\":{result}}}}}",
        ResultType::Matrix.as_str(),
    ))
}

fn result_json(result_type: ResultType, items: Vec<Value>) -> String {
    result(result_type, Value::Array(items))
}

/// The label sets of the series a look-up's `match[]` selectors name, present between `start`
/// and `end` (the last hour by default).
fn looked_up(
    fleet: &Fleet,
    request: &MetricsParameters,
    lookup: &str,
    now: f64,
    allowance: Allowance,
) -> Result<Vec<series::Labels>, Refusal> {
    let end = match request.end.as_deref() {
        Some(end) => seconds("end", end)?,
        None => now,
    };
    let start = match request.start.as_deref() {
        Some(start) => seconds("start", start)?,
        None => end - 3600.0,
    };
    let selectors: Vec<String> = url::form_urlencoded::parse(lookup.as_bytes())
        .filter(|(name, _)| name == "match[]")
        .map(|(_, value)| value.into_owned())
        .collect();
    if selectors.is_empty() {
        return Err(parameter(
            "endpoint",
            "a look-up needs at least one match[] selector",
        ));
    }
    let mut found = Vec::new();
    for selector in selectors {
        let expr = promql::parse(&selector)
            .map_err(|error| parameter("endpoint", format!("match[]: {}", error.message)))?;
        let promql_parser::parser::Expr::VectorSelector(_) = &expr else {
            return Err(parameter("endpoint", "match[] must be a series selector"));
        };
        // The selector evaluated over the window: the series with a sample in it.
        let step = ((end - start) / 60.0).max(series::SCRAPE_EVERY);
        let mut evaluator =
            promql::Evaluator::new(fleet, &expr, (start, end, step), now, allowance.clone());
        for one in evaluator.range(&expr).map_err(query_refusal)? {
            found.push(one.labels.as_ref().clone());
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

/// The Loki API's answer to `request` at `now`.
fn logs(
    fleet: &Fleet,
    request: &LogsParameters,
    now: f64,
    allowance: Allowance,
) -> Result<String, Refusal> {
    let end = match request.end.as_deref() {
        Some(end) => loki_time("end", end)?,
        None => now,
    };
    let start = match request.start.as_deref() {
        Some(start) => loki_time("start", start)?,
        None => end - 3600.0,
    };
    if end < start {
        return Err(parameter("end", "must not be before start"));
    }
    // Nothing is printed after now.
    let end = end.min(now);
    let log_refusal = |error: logql::LogQueryError| parameter("query", error.0);
    let path = request.endpoint.split('?').next().unwrap_or_default();
    match path {
        "/loki/api/v1/query_range" | "/loki/api/v1/query" => {
            let query = logql::parse(&request.query).map_err(log_refusal)?;
            match query {
                logql::Query::Lines(query) => {
                    let limit = match request.limit.as_deref() {
                        Some(limit) => limit
                            .trim()
                            .parse::<usize>()
                            .map_err(|_| parameter("limit", "must be a whole number"))?,
                        None => 100,
                    }
                    .clamp(1, logql::MOST_LINES);
                    let backward = match request.direction.as_deref() {
                        None | Some("backward") | Some("BACKWARD") => true,
                        Some("forward") | Some("FORWARD") => false,
                        Some(_) => return Err(parameter("direction", "must be backward or forward")),
                    };
                    let mut budget = logql::Budget::new(allowance);
                    let found = logql::lines(fleet, &query, start, end, limit, backward, &mut budget).map_err(log_refusal)?;
                    let mut streams: BTreeMap<logql::Labels, Vec<Value>> = BTreeMap::new();
                    for line in found {
                        let nanos = format!("{}", (line.at * 1e9) as i128);
                        streams.entry(line.labels).or_default().push(json!([nanos, line.text]));
                    }
                    Ok(result_json(
                        ResultType::Streams,
                        streams
                            .into_iter()
                            .map(|(labels, values)| json!({"stream": labels, "values": values}))
                            .collect(),
                    ))
                }
                logql::Query::Metric(metric) if path == "/loki/api/v1/query" => {
                    let time = match request.time.as_deref() {
                        Some(time) => loki_time("time", time)?,
                        None => end,
                    };
                    logql::admit(fleet, &metric, time, time, f64::INFINITY).map_err(log_refusal)?;
                    let values = logql::metric_at(fleet, &metric, time, &mut logql::Budget::new(allowance)).map_err(log_refusal)?;
                    Ok(result_json(
                        ResultType::Vector,
                        values
                            .into_iter()
                            .map(|(labels, value)| json!({"metric": labels, "value": [time, sample_text(value)]}))
                            .collect(),
                    ))
                }
                logql::Query::Metric(metric) => {
                    let step = match request.step.as_deref() {
                        Some(text) => step(text)?,
                        None => ((end - start) / 250.0).max(1.0).ceil(),
                    };
                    if (end - start) / step > promql::MOST_POINTS as f64 {
                        return Err(parameter("step", "gives more than 11000 points: lengthen it"));
                    }
                    logql::admit(fleet, &metric, start, end, step).map_err(log_refusal)?;
                    let mut budget = logql::Budget::new(allowance);
                    let mut series: BTreeMap<logql::Labels, Vec<Value>> = BTreeMap::new();
                    let mut t = start;
                    while t <= end {
                        for (labels, value) in logql::metric_at(fleet, &metric, t, &mut budget).map_err(log_refusal)? {
                            series.entry(labels).or_default().push(json!([t, sample_text(value)]));
                        }
                        t += step;
                    }
                    Ok(result_json(
                        ResultType::Matrix,
                        series
                            .into_iter()
                            .map(|(labels, values)| json!({"metric": labels, "values": values}))
                            .collect(),
                    ))
                }
            }
        }
        _ => match path.strip_prefix("/loki/api/v1/label/").and_then(|rest| rest.strip_suffix("/values")) {
            Some(label) => {
                let query = match request.query.trim() {
                    "" => None,
                    text => match logql::parse(text).map_err(log_refusal)? {
                        logql::Query::Lines(query) => Some(query),
                        logql::Query::Metric(_) => {
                            return Err(parameter("query", "must be a stream selector for a label's values"))
                        }
                    },
                };
                Ok(answer(QueryData::Values(logql::label_values(fleet, label, query.as_ref(), start, end))))
            }
            None => Err(parameter(
                "endpoint",
                "must be /loki/api/v1/query_range, /loki/api/v1/query or /loki/api/v1/label/<name>/values",
            )),
        },
    }
}
