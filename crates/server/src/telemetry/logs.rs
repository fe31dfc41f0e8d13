//! What a service's instances print, as the cluster's Loki would hold it: a line every few
//! seconds of each running container, computed from the same model as the metrics, so that the
//! lines agree with the charts. A container says what it starts and where it listens; then each
//! line is a request it served (its status drawn from the shares of the moment: an error when
//! the service fails), or, for a service taking no requests, a piece of its work; now and then a
//! slow query warns or a dependency fails; a container about to be killed for memory says so.

use super::fleet::{Pod, Run, Service};
use super::model::Seed;

/// Seconds between two lines of a container.
pub const LINE_EVERY: f64 = 5.0;
/// Lines a container prints as it starts.
const STARTUP_LINES: u64 = 3;

/// A line's level, as the `level` label has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Debug, Level::Info, Level::Warn, Level::Error];

    pub fn label(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// What a line says.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Said {
    Starting(u64),
    Request { status: u16, path: usize },
    Work,
    SlowQuery,
    DependencyFailed,
    OutOfMemory,
    CacheStats,
}

/// The line a container of `pod` prints at its `tick`th moment (`pod.from + tick·LINE_EVERY`),
/// if its container runs then.
pub struct Line {
    pub at: f64,
    pub level: Level,
    pub text: String,
}

/// The moments of the pod's lines in `[from, to)`: their ticks.
pub fn ticks(pod: &Pod, from: f64, to: f64) -> std::ops::Range<u64> {
    let end = pod.to.map_or(to, |end| end.min(to));
    let first = ((from - pod.from) / LINE_EVERY).ceil().max(0.0) as u64;
    let last = ((end - pod.from) / LINE_EVERY).ceil().max(0.0) as u64;
    first..last.max(first)
}

/// What the pod's container says at `tick`, if it runs then: its level only, cheaply.
pub fn level_at(service: &Service, run: &Run, pod: &Pod, tick: u64) -> Option<Level> {
    said(service, run, pod, tick).map(|(_, said)| level(said))
}

fn level(said: Said) -> Level {
    match said {
        Said::Starting(_) | Said::Work => Level::Info,
        Said::Request { status, .. } if status >= 500 => Level::Error,
        Said::Request { status, .. } if status >= 400 => Level::Warn,
        Said::Request { .. } => Level::Info,
        Said::SlowQuery => Level::Warn,
        Said::DependencyFailed | Said::OutOfMemory => Level::Error,
        Said::CacheStats => Level::Debug,
    }
}

fn said(service: &Service, run: &Run, pod: &Pod, tick: u64) -> Option<(f64, Said)> {
    let at = pod.from + tick as f64 * LINE_EVERY;
    let container = pod.container_at(at)?;
    // A container about to be killed says why, whatever else it would say.
    if container
        .killed
        .is_some_and(|killed| killed - at <= 2.0 * LINE_EVERY)
    {
        return Some((at, Said::OutOfMemory));
    }
    let since_start = ((at - container.started) / LINE_EVERY).floor() as u64;
    if since_start < STARTUP_LINES {
        return Some((at, Said::Starting(since_start)));
    }
    let seed = Seed::of(run.deployment_id)
        .with(u64::from(pod.index))
        .with(tick);
    let draw = seed.unit(0);
    let load = &service.load;
    if draw < 0.01 {
        return Some((at, Said::SlowQuery));
    }
    if draw < 0.05 {
        return Some((at, Said::CacheStats));
    }
    if draw < 0.05 + load.own_errors(at) * 3.0 {
        return Some((at, Said::DependencyFailed));
    }
    if !service.serves() {
        return Some((at, Said::Work));
    }
    let status = super::traffic::status_drawn(service, run, at, seed.unit(1));
    let path = super::traffic::path_drawn(load, seed.unit(2));
    Some((at, Said::Request { status, path }))
}

/// The pod's line at `tick`, if its container runs then.
pub fn line_at(service: &Service, run: &Run, pod: &Pod, tick: u64) -> Option<Line> {
    let (at, said) = said(service, run, pod, tick)?;
    let seed = Seed::of(run.deployment_id)
        .with(u64::from(pod.index))
        .with(tick);
    let port = run.resources.public_ports.first().copied().unwrap_or(8080);
    let text = match said {
        Said::Starting(0) => format!("Starting {} version {}", service.name, run.version),
        Said::Starting(1) => format!("Listening on 0.0.0.0:{port}"),
        Said::Starting(_) => "Ready to accept requests".to_string(),
        Said::Request { status, path } => {
            let (path, _) = service.load.paths[path];
            let method = if path.starts_with("/api/cart") && seed.unit(3) < 0.5 {
                "POST"
            } else {
                "GET"
            };
            let millis = (service.load.latency * 1000.0 * (0.5 + 2.0 * seed.unit(4))).round();
            let bytes = 200 + (seed.unit(5) * 4000.0) as u32;
            format!(
                "10.0.{}.{} - - \"{method} {path} HTTP/1.1\" {status} {bytes} {millis}ms",
                seed.bits() % 8,
                (seed.bits() >> 8) % 250 + 2
            )
        }
        Said::Work => format!(
            "Processed a batch of {} items in {} ms",
            1 + seed.bits() % 200,
            5 + (seed.unit(4) * 400.0) as u32
        ),
        Said::SlowQuery => format!(
            "Slow query took {} ms: SELECT * FROM orders WHERE customer_id = $1",
            500 + (seed.unit(4) * 2500.0) as u32
        ),
        Said::DependencyFailed => {
            "Request to payments.internal:443 failed: timeout after 5000 ms; retrying".to_string()
        }
        Said::OutOfMemory => format!(
            "FATAL: out of memory: failed to allocate {} bytes (limit {} MiB reached)",
            1 << (16 + seed.bits() % 8),
            run.resources.memory
        ),
        Said::CacheStats => format!("cache hit ratio {:.2}", 0.7 + 0.29 * seed.unit(4)),
    };
    Some(Line {
        at,
        level: level(said),
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_as_loki_labels() {
        let labels: Vec<&str> = Level::ALL.iter().map(|level| level.label()).collect();
        assert_eq!(labels, ["debug", "info", "warn", "error"]);
    }
}
