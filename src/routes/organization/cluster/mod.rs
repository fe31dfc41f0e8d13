//! `/organization/:org/cluster/:cluster/...`: the pages of one cluster.

pub mod overview;
