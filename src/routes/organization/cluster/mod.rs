//! `/organization/:org/cluster/:cluster/...`: the pages of one cluster.

pub mod advanced_settings;
mod credentials;
mod network;
pub mod overview;
