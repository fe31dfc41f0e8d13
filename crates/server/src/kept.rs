//! The answers the server keeps in memory (`fresh`), one store per kind of read.

use platform_api::ServiceType;
use uuid::Uuid;

use crate::caller::TokenCaller;
use crate::db::Commits;
use crate::fresh::Fresh;
use crate::raw_json::KeptAnswer;

/// What the server keeps: the reads that clients repeat most (polls, lists, every request's
/// token), each answer as JSON ready to send, compressed once for all who ask alike.
pub struct Kept {
    /// Each environment's statuses.
    pub statuses: Fresh<Uuid, KeptAnswer>,
    /// Each environment's services of a kind, or of every kind (`None`).
    pub service_lists: Fresh<(Uuid, Option<ServiceType>), KeptAnswer>,
    /// Each page of an organization's projects: organization, limit, offset.
    pub project_lists: Fresh<(Uuid, i64, i64), KeptAnswer>,
    /// Each API token's caller, by the token's hash.
    pub callers: Fresh<String, TokenCaller>,
}

impl Kept {
    pub fn new(commits: &Commits) -> Self {
        Self {
            statuses: Fresh::new(commits.clone()),
            service_lists: Fresh::new(commits.clone()),
            project_lists: Fresh::new(commits.clone()),
            callers: Fresh::new(commits.clone()),
        }
    }
}
