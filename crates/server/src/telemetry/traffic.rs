//! The requests a service serving HTTP gets and how they are answered: the shares of each
//! status at a time (its own rare errors; 502 and 503 for the share of its instances not ready),
//! and a request's status and path drawn from them.

use super::fleet::{Run, Service};
use super::model::Load;

/// The statuses requests are answered with.
pub const STATUSES: [u16; 6] = [200, 301, 404, 500, 502, 503];

/// Share of requests answered by status at `t`, in the order of `STATUSES`.
pub fn status_shares(service: &Service, run: &Run, t: f64) -> [f64; 6] {
    let load = &service.load;
    let (wanted, ready) = run.instances(load, t);
    let unready = if wanted == 0 {
        1.0
    } else {
        f64::from(wanted - ready.min(wanted)) / f64::from(wanted)
    };
    let own = load.own_errors(t);
    let served = 1.0 - unready;
    [
        served * (1.0 - 0.015 - 0.013 - own),
        served * 0.015,
        served * 0.013,
        served * own,
        unready * 0.3,
        unready * 0.7,
    ]
}

/// The status of a request drawn at `t` with `draw` (0 to 1).
pub fn status_drawn(service: &Service, run: &Run, t: f64, draw: f64) -> u16 {
    let mut left = draw;
    for (status, share) in STATUSES.iter().zip(status_shares(service, run, t)) {
        if left < share {
            return *status;
        }
        left -= share;
    }
    200
}

/// The path of a request drawn with `draw` (0 to 1): its index in the service's paths.
pub fn path_drawn(load: &Load, draw: f64) -> usize {
    let mut left = draw;
    for (index, (_, share)) in load.paths.iter().enumerate() {
        if left < *share {
            return index;
        }
        left -= share;
    }
    load.paths.len() - 1
}
