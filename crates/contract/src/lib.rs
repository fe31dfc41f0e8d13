//! The production platform's API document (`../shared/reference/production-openapi.yaml`), read
//! for the contract tests: which operations it has, whether a request or an answer fits its
//! schemas, and sample answers built from those schemas.
//!
//! The document names the vendors; the spec hides them behind letters (PROVIDER_A...G). The
//! document is read with its vendor names translated to the spec's letters (`vendors`), so that
//! both sides are held to the same words.

mod document;
mod fuzz;
mod sample;
mod schema;
pub mod stand_in;
mod vendors;

pub use document::{default_path, Document, Operation};
pub use fuzz::Fuzzer;
pub use sample::{Fields, UNLISTED_VALUE};
pub use stand_in::StandIn;
