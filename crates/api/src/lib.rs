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
pub use selection::*;
pub use status::*;
pub use terraform::*;
pub use tfvars::*;
pub use token::*;
pub use variable::*;
pub use variable_bulk::*;
pub use variable_import::*;
pub use webhook::*;

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
