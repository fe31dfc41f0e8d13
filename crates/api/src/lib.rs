//! Wire types and field rules of the Deployment Platform Management API.
//!
//! Shared by the console (compiled to wasm) and the reference server, so that a shape or a rule is
//! written once. Field names follow the spec exactly, `maximun_gpu` included.

#[macro_use]
mod macros;

pub mod alert_receiver;
pub mod application;
pub mod audit;
pub mod clone;
pub mod cloud;
pub mod cluster;
pub mod common;
pub mod container;
pub mod database;
pub mod environment;
pub mod error;
pub mod flat;
pub mod git_source;
pub mod groups;
pub mod helm;
pub mod helm_repository;
pub mod history;
pub mod job;
pub mod logs;
pub mod on_premise;
pub mod organization;
pub mod project;
pub mod queue;
pub mod registry;
pub mod rules;
pub mod runtime;
pub mod selection;
pub mod status;
pub mod terraform;
pub mod tfvars;
pub mod token;
pub mod variable;
pub mod variable_bulk;
pub mod variable_import;
pub mod webhook;

pub use alert_receiver::*;
pub use application::*;
pub use clone::*;
pub use cloud::*;
pub use cluster::*;
pub use common::*;
pub use container::*;
pub use database::*;
pub use environment::*;
pub use error::*;
pub use git_source::*;
pub use groups::*;
pub use helm::*;
pub use helm_repository::*;
pub use history::*;
pub use job::*;
pub use logs::*;
pub use on_premise::*;
pub use organization::*;
pub use project::*;
pub use queue::*;
pub use registry::*;
pub use runtime::*;
pub use selection::*;
pub use status::*;
pub use terraform::*;
pub use tfvars::*;
pub use token::*;
pub use variable::*;
pub use variable_bulk::*;
pub use variable_import::*;
pub use webhook::*;

static UNKNOWN_VALUES_ACCEPTED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// From now on, an enumeration's value this version does not know reads as its `Other` variant
/// rather than failing the answer: what the console does, so that a platform newer than it
/// shows its new values as it sends them. The server never does: a request's unknown value is
/// refused with the values it takes.
pub fn accept_unknown_values() {
    UNKNOWN_VALUES_ACCEPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn unknown_values_accepted() -> bool {
    UNKNOWN_VALUES_ACCEPTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The unknown values read so far, each kept once for the life of the program (a few words a
/// platform added, read at every poll).
fn intern(value: &str) -> &'static str {
    static SEEN: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match seen.iter().find(|known| **known == value) {
        Some(known) => known,
        None => {
            let kept: &'static str = Box::leak(value.to_string().into_boxed_str());
            seen.push(kept);
            kept
        }
    }
}

/// What every enumeration of the wire (declared with `wire_enum!`) can say of itself: what a
/// select of it offers, sends and shows.
pub trait WireEnum: Copy + PartialEq + Send + Sync + std::str::FromStr + 'static {
    /// Every value, in the spec's order.
    fn all() -> &'static [Self];
    /// The value as the wire spells it.
    fn as_str(self) -> &'static str;
    /// The value in the words of a page.
    fn label(self) -> &'static str;
}
