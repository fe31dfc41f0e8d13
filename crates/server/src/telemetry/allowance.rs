//! What one evaluation may spend beyond its counted cost: a deadline, and whether its caller
//! still waits for the answer. A query refused by its estimate never gets here; this stops the
//! rare one the estimate misjudged, and the work of a caller who has gone.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest one evaluation may run.
pub const MOST_TIME: Duration = Duration::from_secs(10);

/// Why an evaluation stopped before its end.
#[derive(Debug, PartialEq)]
pub enum Stopped {
    /// Past `MOST_TIME`.
    TooLong,
    /// Its caller went away: nobody reads the answer.
    Abandoned,
}

impl Stopped {
    pub fn message(&self) -> String {
        match self {
            Stopped::TooLong => format!(
                "the query ran longer than {} s and was stopped: narrow its selectors, shorten its range or lengthen its step",
                MOST_TIME.as_secs()
            ),
            Stopped::Abandoned => "the caller went away".to_string(),
        }
    }
}

/// Checked by the evaluators as they go.
#[derive(Clone, Debug)]
pub struct Allowance {
    deadline: Instant,
    wanted: Arc<AtomicBool>,
}

impl Allowance {
    /// An allowance from now, and the guard whose drop (the caller's future dropped, or done)
    /// tells the evaluation to stop.
    pub fn start() -> (Allowance, Waiting) {
        let wanted = Arc::new(AtomicBool::new(true));
        (
            Allowance {
                deadline: Instant::now() + MOST_TIME,
                wanted: wanted.clone(),
            },
            Waiting(wanted),
        )
    }

    /// The allowance with its deadline counted from now, when its work starts after a wait.
    pub fn from_now(self) -> Allowance {
        Allowance {
            deadline: Instant::now() + MOST_TIME,
            ..self
        }
    }

    /// No caller and no deadline to watch (tests, and work that is its own caller).
    pub fn unwatched() -> Allowance {
        Allowance {
            deadline: Instant::now() + MOST_TIME,
            wanted: Arc::new(AtomicBool::new(true)),
        }
    }

    pub fn check(&self) -> Result<(), Stopped> {
        if !self.wanted.load(Ordering::Relaxed) {
            return Err(Stopped::Abandoned);
        }
        if Instant::now() > self.deadline {
            return Err(Stopped::TooLong);
        }
        Ok(())
    }
}

/// Held by the caller's side while it waits.
pub struct Waiting(Arc<AtomicBool>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_stops_once_its_caller_has_gone() {
        let (allowance, waiting) = Allowance::start();
        assert_eq!(allowance.check(), Ok(()));
        drop(waiting);
        assert_eq!(allowance.check(), Err(Stopped::Abandoned));
    }
}
