//! The services of an organization on a cluster as a cluster would run them, built from the
//! engine's history: a successful deploy or restart starts new instances with the settings it
//! put in place, a stop or an uninstall ends them, a failed action leaves the instances that ran
//! before. A job runs an instance for each execution. Instances' names, their containers'
//! restarts (memory under what the load needs: killed, started again after a growing back-off)
//! and their readiness (a probe on a port the service does not listen on never passes) follow.

use chrono::{DateTime, Utc};
use platform_api::{Cluster, ServiceState, ServiceType, StatusAction};
use serde_json::Value;
use uuid::Uuid;

use super::model::{Load, Seed, MIB};
use crate::store::runs::{ActionRow, ServiceRow};

/// The nodes of the cluster the fleet runs on, each of its instance type's cores and memory:
/// `at_least` always run (its `min_running_nodes`), and the node autoscaler adds more, up to
/// `count` (its `max_running_nodes`), as a service's instances need room. A service's instances
/// fill a node before the next; one past the last node's room, or asking more than a node has,
/// is never scheduled. Each service is placed as if alone on the nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nodes {
    pub at_least: u32,
    pub count: u32,
    pub cores: f64,
    pub memory_mib: f64,
}

impl Nodes {
    /// The cluster's nodes: its instance type's size, or 16 cores and 64 GiB when its cloud
    /// lists no types.
    pub fn of(cluster: &Cluster) -> Self {
        let listed = cluster.cloud_provider.instance_types().unwrap_or_default();
        let machine = cluster
            .instance_type
            .as_deref()
            .and_then(|name| listed.iter().find(|machine| machine.name == name))
            .or_else(|| cluster.cloud_provider.default_instance_type());
        let (cores, memory_gb) = machine.map_or((16, 64), |m| (m.cpu, m.ram_in_gb));
        let count = cluster.max_running_nodes.max(1);
        Nodes {
            at_least: cluster.min_running_nodes.clamp(1, count),
            count,
            cores: f64::from(cores),
            memory_mib: f64::from(memory_gb) * 1024.0,
        }
    }

    /// Where the instance `index` of a service asking `cpu` and `memory` runs: the node's name,
    /// or, past the last node's room, what it lacks. The nodes always running take the first
    /// instances (from one `seed` picks), the ones the autoscaler adds the rest.
    fn place(&self, index: u32, cpu: f64, memory: f64, seed: Seed) -> Result<String, &'static str> {
        let short_of = if cpu / self.cores >= memory / self.memory_mib {
            "cpu"
        } else {
            "memory"
        };
        let per_node = (self.cores / cpu.max(f64::MIN_POSITIVE))
            .min(self.memory_mib / memory.max(f64::MIN_POSITIVE))
            .floor();
        if per_node < 1.0 {
            return Err(short_of);
        }
        let slot = u64::from(index) / per_node.min(f64::from(u32::MAX)) as u64;
        let node = match slot {
            slot if slot >= u64::from(self.count) => return Err(short_of),
            slot if slot < u64::from(self.at_least) => {
                seed.bits().wrapping_add(slot) % u64::from(self.at_least)
            }
            slot => slot,
        };
        Ok(format!(
            "ip-10-0-{}-{}.ec2.internal",
            node / 200,
            10 + node % 200
        ))
    }
}
/// Seconds from a container's start until its readiness probe first passes.
pub const READY_AFTER: f64 = 10.0;
/// Autoscaling decides the instances wanted for ten minutes at a time.
pub const SCALE_EVERY: f64 = 600.0;
/// What autoscaling keeps an instance's CPU under, as a share of its request.
const SCALE_TARGET: f64 = 0.6;

/// The services of the organization on the cluster.
pub struct Fleet {
    pub services: Vec<Service>,
}

impl Fleet {
    /// When the first of its runs started: no series has a sample before it.
    pub fn first_started(&self) -> Option<f64> {
        self.services
            .iter()
            .flat_map(|service| &service.runs)
            .map(|run| run.pods.iter().map(|pod| pod.from).fold(run.from, f64::min))
            .min_by(f64::total_cmp)
    }
}

/// A service as the cluster runs it.
pub struct Service {
    pub id: Uuid,
    pub name: String,
    pub kind: ServiceType,
    pub namespace: String,
    /// Its Deployment's, StatefulSet's or Job's name, and its containers'.
    pub workload: String,
    /// Its ingress, for a service with a public HTTP port.
    pub ingress: Option<String>,
    pub load: Load,
    pub runs: Vec<Run>,
}

/// What one successful action put in place, until the next one or a stop.
pub struct Run {
    pub deployment_id: Uuid,
    /// The version it runs: the commit's short id or the image's tag.
    pub version: String,
    pub from: f64,
    pub to: Option<f64>,
    pub resources: Resources,
    pub pods: Vec<Pod>,
}

/// The settings a run's instances were given.
#[derive(Clone, Debug, PartialEq)]
pub struct Resources {
    /// Cores requested and allowed (the platform gives both the same).
    pub cpu: f64,
    /// MiB requested and allowed.
    pub memory: f64,
    pub min_instances: u32,
    pub max_instances: u32,
    /// GiB of each volume.
    pub storage: Option<f64>,
    /// The public HTTP ports.
    pub public_ports: Vec<i64>,
    pub probe: Probe,
}

/// What the readiness probe finds.
#[derive(Clone, Debug, PartialEq)]
pub enum Probe {
    /// None set: an instance is ready once its container runs.
    Unset,
    Passes,
    /// It knocks on a port nothing listens on.
    Fails {
        port: i64,
    },
}

/// An instance of a run.
pub struct Pod {
    pub name: String,
    /// 0 for the first; instances past the minimum run only when autoscaling wants them.
    pub index: u32,
    pub from: f64,
    pub to: Option<f64>,
    /// How its container ends, if it does not run until the pod goes.
    pub fate: Fate,
    /// The node it runs on (none when no node has room for it).
    pub node: Option<String>,
}

/// What happens to a pod's container.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fate {
    Runs,
    /// Killed for memory `after` seconds of each start, started again after a back-off.
    OutOfMemory {
        after: f64,
    },
    /// No node has room for it: it never starts. Of how many nodes, and what it asks too much
    /// of (`cpu` or `memory`).
    Unschedulable {
        nodes: u32,
        short_of: &'static str,
    },
}

/// One start of a pod's container.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Container {
    pub started: f64,
    /// How many times it was started before: its restarts.
    pub restarts: u32,
    /// When it is killed, if it is.
    pub killed: Option<f64>,
}

/// Seconds the kubelet waits before starting a killed container again, after `restarts`
/// restarts: 10 s doubling, at most 5 minutes.
pub fn back_off(restarts: u32) -> f64 {
    (10.0 * 2f64.powi(restarts.min(5) as i32)).min(300.0)
}

impl Pod {
    pub fn alive(&self, t: f64) -> bool {
        t >= self.from && self.to.is_none_or(|to| t < to)
    }

    /// The container running at `t`, if one does (not during a back-off).
    pub fn container_at(&self, t: f64) -> Option<Container> {
        if !self.alive(t) {
            return None;
        }
        match self.fate {
            Fate::Runs => Some(Container {
                started: self.from,
                restarts: 0,
                killed: None,
            }),
            Fate::Unschedulable { .. } => None,
            Fate::OutOfMemory { after } => {
                let container = self.start_before(t, after);
                (t < container.started + after).then_some(container)
            }
        }
    }

    /// The last start of the container at or before `t`, for a pod killed `after` seconds of
    /// each start.
    fn start_before(&self, t: f64, after: f64) -> Container {
        // The first five back-offs grow; then every cycle is `after` + 5 minutes.
        let mut started = self.from;
        let mut restarts = 0;
        while restarts < 5 {
            let next = started + after + back_off(restarts);
            if next > t {
                return killed_at(started, restarts, after);
            }
            started = next;
            restarts += 1;
        }
        let cycle = after + back_off(5);
        let more = ((t - started) / cycle).floor().max(0.0);
        killed_at(started + more * cycle, restarts + more as u32, after)
    }

    /// How many times its container was started again by `t`.
    pub fn restarts_until(&self, t: f64) -> u32 {
        match self.fate {
            Fate::OutOfMemory { after } if t >= self.from => {
                let end = self.to.map_or(t, |to| t.min(to));
                self.start_before(end, after).restarts
            }
            _ => 0,
        }
    }

    /// The times its container was killed for memory in `[from, to)`.
    pub fn kills_between(&self, from: f64, to: f64) -> Vec<f64> {
        let Fate::OutOfMemory { after } = self.fate else {
            return Vec::new();
        };
        let end = self.to.map_or(to, |end| end.min(to));
        let mut kills = Vec::new();
        let mut container = self.start_before(from.max(self.from), after);
        while container.started + after < end {
            let killed = container.started + after;
            if killed >= from {
                kills.push(killed);
            }
            container = self.start_before(killed + back_off(container.restarts) + 1e-6, after);
        }
        kills
    }
}

fn killed_at(started: f64, restarts: u32, after: f64) -> Container {
    Container {
        started,
        restarts,
        killed: Some(started + after),
    }
}

impl Run {
    /// The instances autoscaling wants at `t`, from the minimum to the maximum.
    pub fn instances_wanted(&self, load: &Load, t: f64) -> u32 {
        let resources = &self.resources;
        if resources.max_instances <= resources.min_instances {
            return resources.min_instances;
        }
        let decided = (t / SCALE_EVERY).floor() * SCALE_EVERY;
        let needed = (load.work_at(decided) / (resources.cpu * SCALE_TARGET)).ceil() as u32;
        needed.clamp(resources.min_instances, resources.max_instances)
    }

    pub fn alive(&self, t: f64) -> bool {
        t >= self.from && self.to.is_none_or(|to| t < to)
    }

    /// Whether the pod's container runs and passes its probe at `t`.
    pub fn pod_ready(&self, pod: &Pod, t: f64) -> bool {
        !matches!(self.resources.probe, Probe::Fails { .. })
            && pod.alive(t)
            && pod
                .container_at(t)
                .is_some_and(|container| t >= container.started + READY_AFTER)
    }

    /// How many of its instances are wanted, and ready, at `t`.
    pub fn instances(&self, load: &Load, t: f64) -> (u32, u32) {
        let wanted = self.instances_wanted(load, t);
        let ready = self
            .pods
            .iter()
            .filter(|pod| self.pod_ready(pod, t))
            .count() as u32;
        (wanted, ready)
    }
}

impl Service {
    /// The run in place at `t`.
    pub fn run_at(&self, t: f64) -> Option<&Run> {
        self.runs.iter().rev().find(|run| run.alive(t))
    }

    /// Whether it takes requests: a public HTTP port.
    pub fn serves(&self) -> bool {
        self.ingress.is_some()
    }
}

/// The fleet the store's rows describe as its history stands at `now`, its pods named and fated.
pub fn build(services: Vec<ServiceRow>, actions: Vec<ActionRow>, nodes: Nodes, now: f64) -> Fleet {
    let mut services: Vec<Service> = services.into_iter().map(service).collect();
    for action in actions {
        let Ok(at) = services.binary_search_by_key(&action.service_id, |s| s.id) else {
            continue;
        };
        apply(&mut services[at], action);
    }
    for service in &mut services {
        let (load, name) = (&service.load, &service.workload);
        let stateful = service.kind == ServiceType::Database;
        for run in &mut service.runs {
            run.pods = pods(load, name, run, stateful, &nodes, now);
        }
    }
    Fleet { services }
}

fn short(id: Uuid) -> String {
    id.simple().to_string()[..8].to_string()
}

fn service(row: ServiceRow) -> Service {
    let prefix = match row.kind {
        ServiceType::Database => "db",
        ServiceType::Job => "job",
        _ => "app",
    };
    let serves = matches!(row.kind, ServiceType::Application | ServiceType::Container);
    Service {
        id: row.id,
        name: row.name,
        kind: row.kind,
        namespace: format!("z{}", short(row.environment_id)),
        workload: format!("{prefix}-z{}", short(row.id)),
        // Set once a run has a public port.
        ingress: None,
        load: Load::of(row.id, serves, row.kind == ServiceType::Database),
        runs: Vec::new(),
    }
}

/// The service's history taken one finished action further.
fn apply(service: &mut Service, action: ActionRow) {
    let at = timestamp(action.finished_at);
    let open = service.runs.last_mut().filter(|run| run.to.is_none());
    match (action.action, action.state) {
        (StatusAction::Deploy, ServiceState::Deployed) if service.kind == ServiceType::Job => {
            let from = action.started_at.map_or(at, timestamp).min(at);
            service
                .runs
                .push(run(&action, from, Some(at.max(from + 1.0))));
        }
        (StatusAction::Deploy, ServiceState::Deployed) => {
            if let Some(open) = open {
                open.to = Some(at);
            }
            let started = run(&action, at, None);
            if !started.resources.public_ports.is_empty() {
                service.ingress = Some(format!("{}-ingress", service.workload));
            }
            service.runs.push(started);
        }
        (StatusAction::Restart, ServiceState::Restarted) => {
            if let Some(open) = open {
                open.to = Some(at);
                let again = Run {
                    deployment_id: action.id,
                    version: open.version.clone(),
                    from: at,
                    to: None,
                    resources: open.resources.clone(),
                    pods: Vec::new(),
                };
                service.runs.push(again);
            }
        }
        (StatusAction::Stop, ServiceState::Stopped)
        | (StatusAction::Delete, ServiceState::Deleted) => {
            if let Some(open) = open {
                open.to = Some(at);
            }
        }
        // A failed or canceled action leaves what ran before.
        _ => {}
    }
}

pub fn timestamp(at: DateTime<Utc>) -> f64 {
    at.timestamp_millis() as f64 / 1000.0
}

fn run(action: &ActionRow, from: f64, to: Option<f64>) -> Run {
    let version = action
        .git_commit_id
        .as_deref()
        .map(|commit| platform_api::short_id(commit).to_string())
        .or_else(|| action.tag.clone())
        .unwrap_or_else(|| "latest".to_string());
    Run {
        deployment_id: action.id,
        version,
        from,
        to,
        resources: resources(action),
        pods: Vec::new(),
    }
}

fn resources(action: &ActionRow) -> Resources {
    let ports: Value = action
        .ports
        .as_deref()
        .and_then(|ports| serde_json::from_str(ports).ok())
        .unwrap_or(Value::Null);
    let listening: Vec<i64> = ports
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|port| port["internal_port"].as_i64())
        .collect();
    let public_ports = ports
        .as_array()
        .into_iter()
        .flatten()
        .filter(|port| {
            port["publicly_accessible"] == true
                && port["protocol"].as_str().is_none_or(|p| p == "HTTP")
        })
        .filter_map(|port| port["internal_port"].as_i64())
        .collect();
    let readiness: Value = action
        .readiness
        .as_deref()
        .and_then(|probe| serde_json::from_str(probe).ok())
        .unwrap_or(Value::Null);
    let probed = ["tcp", "http", "grpc"]
        .iter()
        .find_map(|kind| readiness["type"][kind]["port"].as_i64());
    let probe = match probed {
        None => Probe::Unset,
        Some(port) if listening.contains(&port) => Probe::Passes,
        Some(port) => Probe::Fails { port },
    };
    let storage: Option<Value> = action
        .storage
        .as_deref()
        .and_then(|storage| serde_json::from_str(storage).ok());
    let storage = match storage {
        Some(Value::Number(gib)) => gib.as_f64(),
        Some(Value::Array(volumes)) => volumes.first().and_then(|v| v["size"].as_f64()),
        _ => None,
    };
    let min_instances = action.min_instances.unwrap_or(1).clamp(0, 100) as u32;
    Resources {
        cpu: action.cpu.unwrap_or(500).max(1) as f64 / 1000.0,
        memory: action.memory.unwrap_or(512).max(1) as f64,
        min_instances,
        max_instances: (action.max_instances.unwrap_or(1).clamp(0, 100) as u32).max(min_instances),
        storage,
        public_ports,
        probe,
    }
}

const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `length` characters of Kubernetes' alphabet for generated names, from `seed`.
fn generated(seed: Seed, length: usize) -> String {
    (0..length)
        .map(|n| ALPHABET[(seed.with(n as u64).bits() % ALPHABET.len() as u64) as usize] as char)
        .collect()
}

/// A run's pods, the instances autoscaling wants and only those: the minimum for the whole run,
/// and above it a pod of its own name for each stretch of decisions (every `SCALE_EVERY`) that
/// wants it, up to `now`. Metrics, logs, events and label values all read these, so they agree
/// on the instances.
fn pods(
    load: &Load,
    workload: &str,
    run: &Run,
    stateful: bool,
    nodes: &Nodes,
    now: f64,
) -> Vec<Pod> {
    let resources = &run.resources;
    let seed = Seed::of(run.deployment_id);
    let template = generated(seed, 10);
    let fate = {
        let needed = load.memory_needed(resources.min_instances.max(1));
        if needed > resources.memory {
            Fate::OutOfMemory {
                after: time_to_fill(load, resources.memory, resources.min_instances.max(1)),
            }
        } else {
            Fate::Runs
        }
    };
    let pod = |index: u32, from: f64, to: Option<f64>, scaled: bool| {
        let name_seed = seed.with(u64::from(index) + 1);
        // A pod autoscaling adds is a new pod each time, with a name of its own.
        let name_seed = if scaled {
            name_seed.with(from.to_bits())
        } else {
            name_seed
        };
        let (fate, node) = match nodes.place(index, resources.cpu, resources.memory, seed) {
            Ok(node) => (fate, Some(node)),
            Err(short_of) => (
                Fate::Unschedulable {
                    nodes: nodes.count,
                    short_of,
                },
                None,
            ),
        };
        Pod {
            name: if stateful {
                format!("{workload}-{index}")
            } else {
                format!("{workload}-{template}-{}", generated(name_seed, 5))
            },
            index,
            from,
            to,
            fate,
            node,
        }
    };
    // Pulled and started a few seconds after the run began, or after the decision that wants it.
    let start = |index: u32, at: f64| at.max(run.from) + 2.0 + f64::from(index);
    let mut pods: Vec<Pod> = (0..resources.min_instances)
        .map(|index| pod(index, start(index, run.from), run.to, false))
        .collect();
    if resources.max_instances > resources.min_instances {
        let end = run.to.unwrap_or(now).min(now);
        let mut opened: Vec<Option<f64>> = vec![None; resources.max_instances as usize];
        let mut decided = (run.from / SCALE_EVERY).floor() * SCALE_EVERY;
        while decided < end {
            let wanted = run.instances_wanted(load, decided);
            for index in resources.min_instances..resources.max_instances {
                let slot = &mut opened[index as usize];
                match (*slot, index < wanted) {
                    (None, true) => *slot = Some(start(index, decided)),
                    (Some(from), false) => {
                        pods.push(pod(index, from, Some(decided.max(from)), true));
                        *slot = None;
                    }
                    _ => {}
                }
            }
            decided += SCALE_EVERY;
        }
        for (index, from) in opened.into_iter().enumerate() {
            if let Some(from) = from {
                pods.push(pod(index as u32, from, run.to, true));
            }
        }
    }
    pods
}

/// Seconds from a start until the container's memory reaches `limit` MiB: at once when the
/// limit is under what it holds busy at start, later as it warms up otherwise.
fn time_to_fill(load: &Load, limit: f64, instances: u32) -> f64 {
    let cold = load.memory_needed(instances) - load.warm_memory;
    if limit <= cold {
        return 5.0;
    }
    let missing = (limit - cold) / load.warm_memory;
    // warm(age) = warm_memory · (1 − e^(−age/τ)), τ = WARM_UP / 3.
    let tau = super::model::WARM_UP / 3.0;
    (-tau * (1.0 - missing.min(0.999)).ln()).max(5.0)
}

/// Bytes of `mib` MiB.
pub fn bytes(mib: f64) -> f64 {
    mib * MIB
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(fate: Fate) -> Pod {
        Pod {
            name: "web-0".into(),
            index: 0,
            from: 1000.0,
            to: None,
            fate,
            node: None,
        }
    }

    #[test]
    fn a_container_killed_for_memory_starts_again_after_a_growing_back_off() {
        let pod = pod(Fate::OutOfMemory { after: 30.0 });
        assert_eq!(pod.container_at(1010.0).unwrap().restarts, 0);
        // Killed at 1030, started again at 1040.
        assert!(pod.container_at(1035.0).is_none());
        assert_eq!(pod.container_at(1041.0).unwrap().restarts, 1);
        assert_eq!(pod.restarts_until(1041.0), 1);
        // Then 20, 40, 80, 160 s of back-off, then 300 s each time.
        let kills = pod.kills_between(1000.0, 1000.0 + 3600.0);
        assert_eq!(&kills[..3], &[1030.0, 1070.0, 1120.0]);
        let gaps: Vec<f64> = kills.windows(2).map(|w| w[1] - w[0]).collect();
        assert_eq!(gaps.last(), Some(&330.0));
        // A kill is counted a restart once the container starts again.
        let restarts = pod.restarts_until(1000.0 + 3600.0) as usize;
        assert!(kills.len() == restarts || kills.len() == restarts + 1);
    }

    #[test]
    fn a_running_pod_keeps_its_container() {
        let pod = pod(Fate::Runs);
        assert!(pod.container_at(999.0).is_none());
        assert_eq!(pod.container_at(5000.0).unwrap().started, 1000.0);
        assert_eq!(pod.restarts_until(5000.0), 0);
        assert!(pod.kills_between(0.0, 9000.0).is_empty());
    }
}
