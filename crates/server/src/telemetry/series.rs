//! The series the cluster's Prometheus would hold for a fleet, under the names and labels the
//! platform's exporters give them (`observability.md`): each is a function of time computed from
//! the model, scraped every 30 s. A counter counts from an anchor an hour before the earliest
//! sample a query reads (or from its container's start, if later): `rate` and `increase` read it
//! as they would the real one; its raw value is not the real total, which would take integrating
//! the service's whole life at every query.

use std::cell::RefCell;

use super::events::{self, Reason};
use super::fleet::{bytes, Fate, Fleet, Pod, Run, Service};
use super::logs::{self, Level};
use super::traffic::{status_shares, STATUSES};

/// Seconds between two samples of a series.
pub const SCRAPE_EVERY: f64 = 30.0;
/// Seconds a counter is integrated over at a time.
const BUCKET: f64 = 600.0;

/// A series' labels, sorted by name, its name under `__name__`.
pub type Labels = Vec<(String, String)>;

/// Where a query's counters count from, and the present: no series has a sample after it.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub anchor: f64,
    pub now: f64,
}

/// One series of the fleet.
pub struct Series {
    pub labels: Labels,
    source: Source,
    /// A counter's running totals at the start of each bucket from the anchor, extended as the
    /// query reads later samples: a counter read at many times is integrated once.
    totals: RefCell<Vec<f64>>,
}

#[derive(Clone, Copy, Debug)]
enum Source {
    Pod {
        service: usize,
        run: usize,
        pod: usize,
        metric: PodMetric,
    },
    Service {
        service: usize,
        metric: ServiceMetric,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Resource {
    Cpu,
    Memory,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum PodMetric {
    CpuSeconds,
    Memory,
    Requested(Resource),
    Limited(Resource),
    ContainerReady,
    Restarts,
    PodReady(bool),
    PodLabels,
    VolumeUsed,
    VolumeCapacity,
    VolumeLabels,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum ServiceMetric {
    WorkloadLabels,
    Replicas,
    Available,
    AutoscalerLabels,
    IngressLabels,
    Requests,
    RequestsByStatus(u16),
    RequestsByPathStatus(usize, u16),
    Latency(Quantile),
    Events(Reason),
    ErrorLines,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Quantile {
    P50,
    P95,
    P99,
}

/// Every metric name the fleet has series of.
pub const METRIC_NAMES: [&str; 30] = [
    "container_cpu_usage_seconds_total",
    "container_memory_working_set_bytes",
    "kube_pod_container_resource_requests",
    "kube_pod_container_resource_limits",
    "kube_pod_container_status_ready",
    "kube_pod_container_status_restarts_total",
    "kube_pod_status_ready",
    "kube_pod_labels",
    "kubelet_volume_stats_used_bytes",
    "kubelet_volume_stats_capacity_bytes",
    "kube_persistentvolumeclaim_labels",
    "kube_deployment_labels",
    "kube_statefulset_labels",
    "kube_deployment_spec_replicas",
    "kube_deployment_status_replicas_available",
    "kube_statefulset_replicas",
    "kube_statefulset_status_replicas_ready",
    "kube_horizontalpodautoscaler_labels",
    "kube_ingress_labels",
    "nginx:req_rate:5m",
    "nginx:req_rate:5m_by_status",
    "nginx:req_rate:5m_by_path_status",
    "nginx:request_p50:5m",
    "nginx:request_p95:5m",
    "nginx:request_p99:5m",
    "k8s_event_logger_q_k8s_events_total",
    "promtail_custom_q_log_errors_total",
    // Not of the fleet's own, but named so that a selector of them is known to be empty.
    "up",
    "kube_node_info",
    "kube_job_labels",
];

fn labels(pairs: &[(&str, &str)]) -> Labels {
    let mut labels: Labels = pairs
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    labels.sort();
    labels
}

impl Series {
    fn new(labels: Labels, source: Source) -> Self {
        Series {
            labels,
            source,
            totals: RefCell::new(Vec::new()),
        }
    }

    pub fn name(&self) -> &str {
        self.labels
            .iter()
            .find(|(name, _)| name == "__name__")
            .map_or("", |(_, value)| value)
    }

    /// Its sample at `t` (a scrape time), if it has one.
    pub fn value_at(&self, fleet: &Fleet, window: Window, t: f64) -> Option<f64> {
        if t > window.now {
            return None;
        }
        match self.source {
            Source::Pod {
                service,
                run,
                pod,
                metric,
            } => {
                let service = &fleet.services[service];
                let run = &service.runs[run];
                let pod = &run.pods[pod];
                pod_value(self, service, run, pod, metric, window, t)
            }
            Source::Service { service, metric } => {
                let service = &fleet.services[service];
                service_value(self, service, metric, window, t)
            }
        }
    }

    /// A counter's increase from `from` (when it last reset) to `t`, counted from `anchor` at
    /// the earliest; `bucket(a, b)` is its increase over `[a, b)`.
    fn total(&self, from: f64, t: f64, anchor: f64, bucket: impl Fn(f64, f64) -> f64) -> f64 {
        let start = from.max(anchor);
        if t <= start {
            return 0.0;
        }
        let until = |x: f64| {
            let whole = ((x - anchor) / BUCKET).floor().max(0.0) as usize;
            let mut totals = self.totals.borrow_mut();
            if totals.is_empty() {
                totals.push(0.0);
            }
            while totals.len() <= whole {
                let k = totals.len() - 1;
                let a = anchor + k as f64 * BUCKET;
                let next = totals[k] + bucket(a, a + BUCKET);
                totals.push(next);
            }
            let a = anchor + whole as f64 * BUCKET;
            totals[whole] + bucket(a, x)
        };
        until(t) - until(start)
    }
}

/// ∫ of `rate` over `[from, to]`, a bucket at a time.
fn simpson(rate: &impl Fn(f64) -> f64, from: f64, to: f64) -> f64 {
    let mut sum = 0.0;
    let mut a = from;
    while a < to {
        let b = (a + BUCKET).min(to);
        let m = (a + b) / 2.0;
        sum += (b - a) / 6.0 * (rate(a) + 4.0 * rate(m) + rate(b));
        a = b;
    }
    sum
}

fn pod_value(
    series: &Series,
    service: &Service,
    run: &Run,
    pod: &Pod,
    metric: PodMetric,
    window: Window,
    t: f64,
) -> Option<f64> {
    let load = &service.load;
    let resources = &run.resources;
    if !pod.alive(t)
        && !matches!(
            metric,
            PodMetric::VolumeUsed | PodMetric::VolumeCapacity | PodMetric::VolumeLabels
        )
    {
        return None;
    }
    if !pod.alive(t) {
        return None;
    }
    let instances = || run.instances_wanted(load, t);
    match metric {
        PodMetric::CpuSeconds => {
            let container = pod.container_at(t)?;
            let cores = |at: f64| load.cores(at, run.instances_wanted(load, at), resources.cpu);
            let used = |a: f64, b: f64| simpson(&cores, a, b);
            Some(series.total(container.started, t, window.anchor, used))
        }
        PodMetric::Memory => {
            let container = pod.container_at(t)?;
            let used = load.memory(t, t - container.started, instances());
            Some(bytes(used.min(resources.memory)))
        }
        PodMetric::Requested(Resource::Cpu) | PodMetric::Limited(Resource::Cpu) => {
            Some(resources.cpu)
        }
        PodMetric::Requested(Resource::Memory) | PodMetric::Limited(Resource::Memory) => {
            Some(bytes(resources.memory))
        }
        PodMetric::ContainerReady => Some(f64::from(u8::from(run.pod_ready(pod, t)))),
        PodMetric::Restarts => (!matches!(pod.fate, Fate::Unschedulable { .. }))
            .then(|| f64::from(pod.restarts_until(t))),
        PodMetric::PodReady(condition) => {
            Some(f64::from(u8::from(run.pod_ready(pod, t) == condition)))
        }
        PodMetric::PodLabels => Some(1.0),
        PodMetric::VolumeCapacity => resources.storage.map(|gib| gib * 1024.0 * 1024.0 * 1024.0),
        PodMetric::VolumeUsed => resources.storage.map(|gib| {
            let capacity = gib * 1024.0 * 1024.0 * 1024.0;
            let first = service.runs.first().map_or(t, |run| run.from);
            let days = (t - first).max(0.0) / super::model::DAY;
            let daily = load.seed.between(20, 0.005, 0.03);
            capacity * (0.04 + daily * days).min(0.95)
        }),
        PodMetric::VolumeLabels => resources.storage.map(|_| 1.0),
    }
}

fn service_value(
    series: &Series,
    service: &Service,
    metric: ServiceMetric,
    window: Window,
    t: f64,
) -> Option<f64> {
    let run = service.run_at(t)?;
    let load = &service.load;
    let requests = || load.requests_at(t);
    match metric {
        ServiceMetric::WorkloadLabels | ServiceMetric::IngressLabels => Some(1.0),
        ServiceMetric::AutoscalerLabels => {
            (run.resources.max_instances > run.resources.min_instances).then_some(1.0)
        }
        ServiceMetric::Replicas => Some(f64::from(run.instances(load, t).0)),
        ServiceMetric::Available => Some(f64::from(run.instances(load, t).1)),
        ServiceMetric::Requests => Some(requests()),
        ServiceMetric::RequestsByStatus(status) => {
            let at = STATUSES.iter().position(|s| *s == status)?;
            Some(requests() * status_shares(service, run, t)[at])
        }
        ServiceMetric::RequestsByPathStatus(path, status) => {
            let at = STATUSES.iter().position(|s| *s == status)?;
            let (_, share) = load.paths.get(path)?;
            Some(requests() * share * status_shares(service, run, t)[at])
        }
        ServiceMetric::Latency(quantile) => {
            let instances = run.instances_wanted(load, t);
            let busy = load.cores(t, instances, run.resources.cpu) / run.resources.cpu;
            let shares = status_shares(service, run, t);
            let failing = shares[4] + shares[5];
            let median = load.median_latency(busy) * (1.0 + 4.0 * failing);
            Some(match quantile {
                Quantile::P50 => median,
                Quantile::P95 => median * 2.4,
                Quantile::P99 => median * 4.5,
            })
        }
        ServiceMetric::Events(reason) => {
            Some(events::count(service, reason, window.anchor, t) as f64)
        }
        ServiceMetric::ErrorLines => {
            let lines = |a: f64, b: f64| error_lines(service, a, b) as f64;
            Some(series.total(window.anchor, t, window.anchor, lines))
        }
    }
}

/// How many lines at level error the service's containers printed in `[from, t)`.
pub fn error_lines(service: &Service, from: f64, t: f64) -> u64 {
    let mut count = 0;
    for run in &service.runs {
        for pod in &run.pods {
            for tick in logs::ticks(pod, from, t) {
                if logs::level_at(service, run, pod, tick) == Some(Level::Error) {
                    count += 1;
                }
            }
        }
    }
    count
}

/// Every series of the fleet named `name`, in a stable order.
pub fn named(fleet: &Fleet, name: &str) -> Vec<Series> {
    let mut found = Vec::new();
    for (index, service) in fleet.services.iter().enumerate() {
        service_series(&mut found, index, service, name);
        for (run_index, run) in service.runs.iter().enumerate() {
            for (pod_index, pod) in run.pods.iter().enumerate() {
                pod_series(
                    &mut found,
                    (index, run_index, pod_index),
                    service,
                    run,
                    pod,
                    name,
                );
            }
        }
    }
    found
}

fn pod_series(
    found: &mut Vec<Series>,
    (service_index, run_index, pod_index): (usize, usize, usize),
    service: &Service,
    run: &Run,
    pod: &Pod,
    name: &str,
) {
    let source = |metric| Source::Pod {
        service: service_index,
        run: run_index,
        pod: pod_index,
        metric,
    };
    let namespace = service.namespace.as_str();
    let container = service.workload.as_str();
    let pod_name = pod.name.as_str();
    let id = service.id.to_string();
    let deployment = run.deployment_id.to_string();
    let container_labels = |name: &str| {
        labels(&[
            ("__name__", name),
            ("namespace", namespace),
            ("pod", pod_name),
            ("container", container),
        ])
    };
    match name {
        "container_cpu_usage_seconds_total" => {
            found.push(Series::new(
                container_labels(name),
                source(PodMetric::CpuSeconds),
            ));
        }
        "container_memory_working_set_bytes" => {
            found.push(Series::new(
                container_labels(name),
                source(PodMetric::Memory),
            ));
        }
        "kube_pod_container_resource_requests" | "kube_pod_container_resource_limits" => {
            for (resource, unit, kind) in [
                ("cpu", "core", Resource::Cpu),
                ("memory", "byte", Resource::Memory),
            ] {
                let mut series = container_labels(name);
                series.push(("resource".into(), resource.into()));
                series.push(("unit".into(), unit.into()));
                series.sort();
                let metric = if name.ends_with("requests") {
                    PodMetric::Requested(kind)
                } else {
                    PodMetric::Limited(kind)
                };
                found.push(Series::new(series, source(metric)));
            }
        }
        "kube_pod_container_status_ready" => {
            found.push(Series::new(
                container_labels(name),
                source(PodMetric::ContainerReady),
            ));
        }
        "kube_pod_container_status_restarts_total" => {
            found.push(Series::new(
                container_labels(name),
                source(PodMetric::Restarts),
            ));
        }
        "kube_pod_status_ready" => {
            for condition in [true, false] {
                let text = if condition { "true" } else { "false" };
                found.push(Series::new(
                    labels(&[
                        ("__name__", name),
                        ("namespace", namespace),
                        ("pod", pod_name),
                        ("condition", text),
                    ]),
                    source(PodMetric::PodReady(condition)),
                ));
            }
        }
        "kube_pod_labels" => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("pod", pod_name),
                ("label_qovery_com_service_id", &id),
                ("label_qovery_com_deployment_id", &deployment),
            ]),
            source(PodMetric::PodLabels),
        )),
        "kubelet_volume_stats_used_bytes"
        | "kubelet_volume_stats_capacity_bytes"
        | "kube_persistentvolumeclaim_labels"
            if run.resources.storage.is_some() =>
        {
            let claim = format!("data-{pod_name}");
            let (metric, mut pairs) = match name {
                "kubelet_volume_stats_used_bytes" => (PodMetric::VolumeUsed, vec![]),
                "kubelet_volume_stats_capacity_bytes" => (PodMetric::VolumeCapacity, vec![]),
                _ => (
                    PodMetric::VolumeLabels,
                    vec![("label_qovery_com_service_id", id.as_str())],
                ),
            };
            pairs.extend([
                ("__name__", name),
                ("namespace", namespace),
                ("persistentvolumeclaim", claim.as_str()),
            ]);
            found.push(Series::new(labels(&pairs), source(metric)));
        }
        _ => {}
    }
}

fn service_series(found: &mut Vec<Series>, index: usize, service: &Service, name: &str) {
    if service.runs.is_empty() {
        return;
    }
    let source = |metric| Source::Service {
        service: index,
        metric,
    };
    if name.starts_with("nginx:") || name == "kube_ingress_labels" {
        ingress_series(found, service, name, &source);
    } else if name.starts_with("kube_") {
        workload_series(found, service, name, &source);
    } else {
        signal_series(found, service, name, &source);
    }
}

/// The series of the service's workload: its labels, replicas and autoscaler (a deployment, or
/// a stateful set for a database; a job has none).
fn workload_series(
    found: &mut Vec<Series>,
    service: &Service,
    name: &str,
    source: &dyn Fn(ServiceMetric) -> Source,
) {
    let namespace = service.namespace.as_str();
    let workload = service.workload.as_str();
    let id = service.id.to_string();
    let stateful = service.kind == platform_api::ServiceType::Database;
    let job = service.kind == platform_api::ServiceType::Job;
    match name {
        "kube_deployment_labels" if !stateful && !job => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("deployment", workload),
                ("label_qovery_com_service_id", &id),
            ]),
            source(ServiceMetric::WorkloadLabels),
        )),
        "kube_statefulset_labels" if stateful => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("statefulset", workload),
                ("label_qovery_com_service_id", &id),
            ]),
            source(ServiceMetric::WorkloadLabels),
        )),
        "kube_deployment_spec_replicas" if !stateful && !job => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("deployment", workload),
            ]),
            source(ServiceMetric::Replicas),
        )),
        "kube_deployment_status_replicas_available" if !stateful && !job => {
            found.push(Series::new(
                labels(&[
                    ("__name__", name),
                    ("namespace", namespace),
                    ("deployment", workload),
                ]),
                source(ServiceMetric::Available),
            ))
        }
        "kube_statefulset_replicas" if stateful => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("statefulset", workload),
            ]),
            source(ServiceMetric::Replicas),
        )),
        "kube_statefulset_status_replicas_ready" if stateful => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("statefulset", workload),
            ]),
            source(ServiceMetric::Available),
        )),
        "kube_horizontalpodautoscaler_labels" if !stateful && !job => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("horizontalpodautoscaler", workload),
                ("label_qovery_com_service_id", &id),
            ]),
            source(ServiceMetric::AutoscalerLabels),
        )),
        _ => {}
    }
}

/// The series of the service's ingress, where it has one: its labels, requests and latency.
fn ingress_series(
    found: &mut Vec<Series>,
    service: &Service,
    name: &str,
    source: &dyn Fn(ServiceMetric) -> Source,
) {
    let Some(ingress) = service.ingress.as_deref() else {
        return;
    };
    let id = service.id.to_string();
    let ingress_labels = |name: &str, more: &[(&str, &str)]| {
        let mut pairs = vec![
            ("__name__", name),
            ("namespace", service.namespace.as_str()),
            ("ingress", ingress),
        ];
        pairs.extend_from_slice(more);
        labels(&pairs)
    };
    match name {
        "kube_ingress_labels" => found.push(Series::new(
            ingress_labels(name, &[("label_qovery_com_associated_service_id", &id)]),
            source(ServiceMetric::IngressLabels),
        )),
        "nginx:req_rate:5m" => {
            found.push(Series::new(
                ingress_labels(name, &[]),
                source(ServiceMetric::Requests),
            ));
        }
        "nginx:req_rate:5m_by_status" => {
            for status in STATUSES {
                let text = status.to_string();
                found.push(Series::new(
                    ingress_labels(name, &[("status", &text)]),
                    source(ServiceMetric::RequestsByStatus(status)),
                ));
            }
        }
        "nginx:req_rate:5m_by_path_status" => {
            for (path_index, (path, _)) in service.load.paths.iter().enumerate() {
                for status in STATUSES {
                    let text = status.to_string();
                    found.push(Series::new(
                        ingress_labels(name, &[("path", path), ("status", &text)]),
                        source(ServiceMetric::RequestsByPathStatus(path_index, status)),
                    ));
                }
            }
        }
        "nginx:request_p50:5m" | "nginx:request_p95:5m" | "nginx:request_p99:5m" => {
            let quantile = match name {
                "nginx:request_p50:5m" => Quantile::P50,
                "nginx:request_p95:5m" => Quantile::P95,
                _ => Quantile::P99,
            };
            found.push(Series::new(
                ingress_labels(name, &[]),
                source(ServiceMetric::Latency(quantile)),
            ));
        }
        _ => {}
    }
}

/// The series counted from what the service's instances did: Kubernetes events, error lines.
fn signal_series(
    found: &mut Vec<Series>,
    service: &Service,
    name: &str,
    source: &dyn Fn(ServiceMetric) -> Source,
) {
    let namespace = service.namespace.as_str();
    let id = service.id.to_string();
    match name {
        "k8s_event_logger_q_k8s_events_total" => {
            for reason in Reason::ALL {
                let kind = if reason.warning() {
                    "Warning"
                } else {
                    "Normal"
                };
                found.push(Series::new(
                    labels(&[
                        ("__name__", name),
                        ("namespace", namespace),
                        ("qovery_com_service_id", &id),
                        ("reason", reason.name()),
                        ("type", kind),
                    ]),
                    source(ServiceMetric::Events(reason)),
                ));
            }
        }
        "promtail_custom_q_log_errors_total" => found.push(Series::new(
            labels(&[
                ("__name__", name),
                ("namespace", namespace),
                ("qovery_com_service_id", &id),
            ]),
            source(ServiceMetric::ErrorLines),
        )),
        _ => {}
    }
}
