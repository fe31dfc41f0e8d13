//! The load model: what a service's instances would use and serve, as deterministic functions of
//! time, seeded by the service's id. Every service gets its own daily pattern (a day's swell and
//! a half-hour wobble), its own cost per request, memory and latency. Nothing here is stored or random: the same service at the
//! same time always gives the same value.

use std::f64::consts::TAU;

use uuid::Uuid;

/// Seconds in a day: the load's pattern repeats daily.
pub const DAY: f64 = 86_400.0;
const WOBBLE: f64 = 1_800.0;
pub const MIB: f64 = 1024.0 * 1024.0;

/// A number of the service's own, from its id: the same id always gives the same numbers.
#[derive(Clone, Copy, Debug)]
pub struct Seed(u64);

impl Seed {
    pub fn of(id: Uuid) -> Self {
        let (high, low) = id.as_u64_pair();
        Seed(mix(high ^ mix(low)))
    }

    /// The `n`th number of this seed, from 0 to 1.
    pub fn unit(self, n: u64) -> f64 {
        (mix(self.0 ^ mix(n + 1)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The `n`th number of this seed, from `low` to `high`.
    pub fn between(self, n: u64, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit(n)
    }

    /// A seed for something of this one (an instance, a second).
    pub fn with(self, n: u64) -> Seed {
        Seed(mix(self.0 ^ mix(n.wrapping_mul(0x9E37_79B9_7F4A_7C15))))
    }

    pub fn bits(self) -> u64 {
        self.0
    }
}

/// SplitMix64's finalizer: every bit of the input reaches every bit of the output.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How busy a service is over the day, from about 0.15 to 1: `a + b·sin(day) + c·sin(wobble)`.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    day_phase: f64,
    wobble_phase: f64,
}

const LEVEL: f64 = 0.55;
const SWELL: f64 = 0.35;
const WOBBLE_SIZE: f64 = 0.06;

impl Pattern {
    pub fn of(seed: Seed) -> Self {
        Pattern {
            day_phase: seed.between(1, 0.0, TAU),
            wobble_phase: seed.between(2, 0.0, TAU),
        }
    }

    pub fn at(self, t: f64) -> f64 {
        LEVEL
            + SWELL * (TAU * t / DAY + self.day_phase).sin()
            + WOBBLE_SIZE * (TAU * t / WOBBLE + self.wobble_phase).sin()
    }

    /// The highest the pattern goes.
    pub fn peak() -> f64 {
        LEVEL + SWELL + WOBBLE_SIZE
    }
}

/// What serving a request, or working, costs one service: its own numbers.
#[derive(Clone, Debug)]
pub struct Load {
    pub seed: Seed,
    pub pattern: Pattern,
    /// Requests per second at the pattern's 1, over all instances (0 for a service that takes
    /// none: a worker, a job, a database).
    pub requests: f64,
    /// Cores one request costs for a second, or the cores the service works with at the
    /// pattern's 1 when it takes no requests.
    pub cost: f64,
    /// What an instance holds once started, and how much more once warm, in MiB.
    pub base_memory: f64,
    pub warm_memory: f64,
    /// The median time a request takes, in seconds, when the service is idle.
    pub latency: f64,
    /// The paths requests go to, with their share.
    pub paths: Vec<(&'static str, f64)>,
}

/// Seconds an instance takes to warm up (its memory to grow to its warm size).
pub const WARM_UP: f64 = 1_800.0;
/// Cores an idle instance uses.
const IDLE_CORES: f64 = 0.004;

const PATHS: [&str; 8] = [
    "/",
    "/api/orders",
    "/api/orders/{id}",
    "/api/products",
    "/api/cart",
    "/health",
    "/static/app.js",
    "/login",
];

impl Load {
    /// The load of a service taking requests (`serves`) or not; `database` for a database's
    /// smaller memory.
    pub fn of(id: Uuid, serves: bool, database: bool) -> Self {
        let seed = Seed::of(id);
        let requests = if serves {
            seed.between(3, 3.0, 40.0)
        } else {
            0.0
        };
        let cost = if serves {
            seed.between(4, 0.002, 0.009)
        } else {
            seed.between(4, 0.02, 0.2)
        };
        let (base_memory, warm_memory) = if database {
            (seed.between(5, 70.0, 120.0), seed.between(6, 20.0, 60.0))
        } else {
            (seed.between(5, 60.0, 220.0), seed.between(6, 30.0, 140.0))
        };
        let count = 3 + (seed.bits() % 4) as usize;
        let mut paths: Vec<(&'static str, f64)> = (0..count)
            .map(|n| {
                let path = PATHS[(seed.with(n as u64).bits() % PATHS.len() as u64) as usize];
                (path, seed.between(10 + n as u64, 0.2, 1.0))
            })
            .collect();
        paths.sort_by_key(|(path, _)| *path);
        paths.dedup_by_key(|(path, _)| *path);
        let total: f64 = paths.iter().map(|(_, weight)| weight).sum();
        for (_, weight) in &mut paths {
            *weight /= total;
        }
        Load {
            seed,
            pattern: Pattern::of(seed),
            requests,
            cost,
            base_memory,
            warm_memory,
            latency: seed.between(7, 0.012, 0.06),
            paths,
        }
    }

    /// Requests per second over all instances at `t`.
    pub fn requests_at(&self, t: f64) -> f64 {
        self.requests * self.pattern.at(t)
    }

    /// The cores of the whole service's work at `t` (spread over its instances).
    pub fn work_at(&self, t: f64) -> f64 {
        if self.requests > 0.0 {
            self.requests_at(t) * self.cost
        } else {
            self.cost * self.pattern.at(t)
        }
    }

    /// Cores an instance uses at `t`, one of `instances`, capped at `limit`.
    pub fn cores(&self, t: f64, instances: u32, limit: f64) -> f64 {
        (IDLE_CORES + self.work_at(t) / f64::from(instances.max(1))).min(limit)
    }

    /// Memory an instance holds `age` seconds after it started, at `t`, in MiB.
    pub fn memory(&self, t: f64, age: f64, instances: u32) -> f64 {
        let warm = self.warm_memory * (1.0 - (-age.max(0.0) / (WARM_UP / 3.0)).exp());
        let busy = 0.4 * self.requests_at(t) / f64::from(instances.max(1));
        self.base_memory + warm + busy
    }

    /// The most memory an instance needs, warm at the day's busiest, in MiB: a limit below it
    /// gets the instance killed.
    pub fn memory_needed(&self, instances: u32) -> f64 {
        self.base_memory
            + self.warm_memory
            + 0.4 * self.requests * Pattern::peak() / f64::from(instances.max(1))
    }

    /// Share of requests answered with an error by the service itself (a failing dependency
    /// now and then), from 0 to 1.
    pub fn own_errors(&self, t: f64) -> f64 {
        0.001 + 0.002 * self.seed.with((t / 600.0) as u64).unit(0)
    }

    /// The median seconds a request takes at `t`, with `busy` the share of its CPU limit an
    /// instance uses.
    pub fn median_latency(&self, busy: f64) -> f64 {
        self.latency * (1.0 + 2.0 * busy.clamp(0.0, 1.0).powi(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_service_has_the_same_numbers_and_another_its_own() {
        let id = Uuid::from_u128(7);
        let a = Load::of(id, true, false);
        let b = Load::of(id, true, false);
        assert_eq!(a.requests, b.requests);
        assert_eq!(a.requests_at(1234.5), b.requests_at(1234.5));
        let other = Load::of(Uuid::from_u128(8), true, false);
        assert_ne!(a.requests, other.requests);
        assert!((a.paths.iter().map(|(_, w)| w).sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn the_pattern_stays_within_its_bounds() {
        let pattern = Pattern::of(Seed::of(Uuid::from_u128(3)));
        for step in 0..1000 {
            let value = pattern.at(f64::from(step) * 97.0);
            assert!((0.1..=Pattern::peak()).contains(&value), "{value}");
        }
    }

    #[test]
    fn a_default_memory_holds_every_services_need() {
        for n in 0..500 {
            let app = Load::of(Uuid::from_u128(n), true, false);
            assert!(app.memory_needed(1) < 512.0, "{}", app.memory_needed(1));
            let database = Load::of(Uuid::from_u128(n), false, true);
            assert!(database.memory_needed(1) < 256.0);
        }
    }
}
