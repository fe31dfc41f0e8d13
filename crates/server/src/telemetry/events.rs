//! The Kubernetes events of a fleet's pods, as the cluster would record them: each pod scheduled,
//! its image pulled, its container created and started (again after each kill), killed for memory
//! and backed off, its readiness probe failing every 10 s when it knocks on a port nothing listens
//! on, its container stopped when the run ends; a pod asking more than a node has is never
//! scheduled. Repeated events are aggregated as Kubernetes does: one event with a count and its
//! first and last occurrences.

use chrono::{DateTime, Utc};
use platform_api::KubernetesEvent;

use super::fleet::{back_off, Fate, Pod, Probe, Run, Service, READY_AFTER};
use super::model::Seed;

/// The reasons of the Kubernetes events the model gives, as the event logger counts them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reason {
    Scheduled,
    Started,
    Killing,
    OomKilled,
    BackOff,
    Unhealthy,
    FailedScheduling,
}

impl Reason {
    pub const ALL: [Reason; 7] = [
        Reason::Scheduled,
        Reason::Started,
        Reason::Killing,
        Reason::OomKilled,
        Reason::BackOff,
        Reason::Unhealthy,
        Reason::FailedScheduling,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Reason::Scheduled => "Scheduled",
            Reason::Started => "Started",
            Reason::Killing => "Killing",
            Reason::OomKilled => "OOMKilled",
            Reason::BackOff => "BackOff",
            Reason::Unhealthy => "Unhealthy",
            Reason::FailedScheduling => "FailedScheduling",
        }
    }

    pub fn warning(self) -> bool {
        matches!(
            self,
            Reason::OomKilled | Reason::BackOff | Reason::Unhealthy | Reason::FailedScheduling
        )
    }
}

/// Seconds between two runs of a failing readiness probe, or two tries to schedule a pod.
const RETRY_EVERY: f64 = 10.0;
const SCHEDULE_EVERY: f64 = 60.0;

/// Where the events of a pod come from.
fn reporter(reason: Reason) -> &'static str {
    match reason {
        Reason::Scheduled | Reason::FailedScheduling => "default-scheduler",
        _ => "kubelet",
    }
}

/// One occurrence, or a run of the same event.
struct Occurrence {
    reason: Reason,
    first: f64,
    last: f64,
    count: u32,
    message: String,
}

/// Every event of the pod whose occurrences fall in `[from, to)`, each run of repeats aggregated.
fn of_pod(service: &Service, run: &Run, pod: &Pod, from: f64, to: f64) -> Vec<Occurrence> {
    let mut found = Vec::new();
    let container = &service.workload;
    let node = pod.node.clone().unwrap_or_default();
    let once = |reason: Reason, at: f64, message: String| {
        (at >= from && at < to).then_some(Occurrence {
            reason,
            first: at,
            last: at,
            count: 1,
            message,
        })
    };
    if let Fate::Unschedulable { nodes, short_of } = pod.fate {
        let end = pod.to.map_or(to, |end| end.min(to));
        let (count, first, last) = repeats(pod.from, SCHEDULE_EVERY, from.max(pod.from), end);
        if count > 0 {
            found.push(Occurrence {
                reason: Reason::FailedScheduling,
                first,
                last,
                count,
                message: format!("0/{nodes} nodes are available: {nodes} Insufficient {short_of}."),
            });
        }
        return found;
    }
    found.extend(once(
        Reason::Scheduled,
        pod.from - 1.5,
        format!(
            "Successfully assigned {}/{} to {node}",
            service.namespace, pod.name
        ),
    ));
    let mut starts = vec![pod.from];
    let kills = pod.kills_between(pod.from, to);
    for (restarts, killed) in kills.iter().enumerate() {
        let message = format!(
            "Container {container} was killed: out of memory (limit {} MiB)",
            run.resources.memory
        );
        found.extend(once(Reason::OomKilled, *killed, message));
        found.extend(once(
            Reason::BackOff,
            killed + 1.0,
            format!(
                "Back-off restarting failed container {container} in pod {}",
                pod.name
            ),
        ));
        starts.push(killed + back_off(restarts as u32));
    }
    for started in &starts {
        found.extend(once(
            Reason::Started,
            *started,
            format!("Started container {container} ({})", run.version),
        ));
    }
    if let Probe::Fails { port } = run.resources.probe {
        for started in starts.iter().filter(|started| **started < to) {
            let end = kills
                .iter()
                .copied()
                .find(|killed| killed > started)
                .or(pod.to)
                .map_or(to, |end| end.min(to));
            let (count, first, last) =
                repeats(started + READY_AFTER, RETRY_EVERY, from.max(*started), end);
            if count > 0 {
                found.push(Occurrence {
                    reason: Reason::Unhealthy,
                    first,
                    last,
                    count,
                    message: format!(
                        "Readiness probe failed: dial tcp 10.0.{}.{}:{port}: connect: connection refused",
                        pod.index % 8,
                        20 + pod.index
                    ),
                });
            }
        }
    }
    if let Some(ended) = pod.to {
        found.extend(once(
            Reason::Killing,
            ended,
            format!("Stopping container {container}"),
        ));
    }
    found
}

/// A repeat every `every` seconds from `origin`: how many fall in `[from, to)`, the first and
/// the last.
fn repeats(origin: f64, every: f64, from: f64, to: f64) -> (u32, f64, f64) {
    let first = ((from - origin) / every).ceil().max(0.0);
    let last = ((to - origin) / every).ceil() - 1.0;
    if last < first {
        return (0, 0.0, 0.0);
    }
    (
        (last - first + 1.0) as u32,
        origin + first * every,
        origin + last * every,
    )
}

/// How many events of `reason` the service's pods had in `[from, to)`.
pub fn count(service: &Service, reason: Reason, from: f64, to: f64) -> u64 {
    service
        .runs
        .iter()
        .flat_map(|run| run.pods.iter().map(move |pod| (run, pod)))
        .filter(|(_, pod)| pod.from < to && pod.to.is_none_or(|end| end >= from))
        .flat_map(|(run, pod)| of_pod(service, run, pod, from, to))
        .filter(|occurrence| occurrence.reason == reason)
        .map(|occurrence| u64::from(occurrence.count))
        .sum()
}

/// What narrows a list of events.
#[derive(Default)]
pub struct Filter<'a> {
    pub pod_name: Option<&'a str>,
    pub node_name: Option<&'a str>,
    pub reporting_component: Option<&'a str>,
}

/// The events of the fleet's services in `[from, to)` that `filter` keeps, newest first, at most
/// `most`.
pub fn list<'a>(
    services: impl IntoIterator<Item = &'a Service>,
    from: f64,
    to: f64,
    filter: &Filter,
    most: usize,
) -> Vec<KubernetesEvent> {
    let mut events = Vec::new();
    for service in services {
        for run in &service.runs {
            for pod in &run.pods {
                let overlaps = pod.from - 2.0 < to && pod.to.is_none_or(|end| end >= from);
                let named = filter.pod_name.is_none_or(|name| name == pod.name);
                let on_node = filter
                    .node_name
                    .is_none_or(|name| pod.node.as_deref() == Some(name));
                if !(overlaps && named && on_node) {
                    continue;
                }
                for occurrence in of_pod(service, run, pod, from, to) {
                    let reporting = reporter(occurrence.reason);
                    if filter
                        .reporting_component
                        .is_some_and(|wanted| wanted != reporting)
                    {
                        continue;
                    }
                    events.push(event(service, pod, occurrence, reporting));
                }
            }
        }
    }
    events.sort_by_key(|event| std::cmp::Reverse(event.last_occurrence));
    events.truncate(most);
    events
}

fn time(at: f64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis((at * 1000.0) as i64).unwrap_or_default()
}

fn event(service: &Service, pod: &Pod, occurrence: Occurrence, reporting: &str) -> KubernetesEvent {
    let seed = Seed::of(uuid::Uuid::from_u64_pair(
        occurrence.first.to_bits(),
        occurrence.reason as u64,
    ));
    KubernetesEvent {
        created_at: time(occurrence.first),
        kind: "Pod".to_string(),
        namespace: service.namespace.clone(),
        name: format!("{}.{:016x}", pod.name, seed.bits()),
        reason: occurrence.reason.name().to_string(),
        message: occurrence.message,
        event_type: if occurrence.reason.warning() {
            "Warning"
        } else {
            "Normal"
        }
        .to_string(),
        reporting_component: reporting.to_string(),
        count: i64::from(occurrence.count),
        first_occurrence: time(occurrence.first),
        last_occurrence: time(occurrence.last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_are_counted_within_their_window() {
        assert_eq!(repeats(100.0, 10.0, 100.0, 150.0), (5, 100.0, 140.0));
        assert_eq!(repeats(100.0, 10.0, 105.0, 131.0), (3, 110.0, 130.0));
        assert_eq!(repeats(100.0, 10.0, 200.0, 150.0).0, 0);
    }
}
