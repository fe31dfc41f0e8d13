//! The reads behind a review of what a deploy changes: what runs (the service's latest successful
//! deployment) and what the audit log recorded since, on the service and on the variables of its
//! environment and project. Document operations only: `deploymentHistoryV2` and the organization's
//! `events`, one read per scope, never one per entry.

use chrono::{DateTime, SecondsFormat, Utc};
use platform_api::audit::{link_token, EventQuery, OrganizationEvent, EVENT_PAGE_SIZE_MAX};
use platform_api::review::ConfigurationChanges;
use platform_api::{
    Commit, DeploymentHistoryEntry, HistoryOutcome, List, ServiceType, StatusAction,
};
use uuid::Uuid;

use super::service::HistoryFilter;
use super::{Api, ApiError};

/// How many pages of a target's changes a review reads at most (a thousand changes): past them,
/// it says that older ones were not read.
const EVENT_PAGES_MAX: usize = 10;

/// How many pages of a branch's commits (a hundred each) a review reads at most to reach the
/// commit that runs.
const COMMIT_PAGES_MAX: usize = 5;

/// A page of the commits the platform lists at once.
const COMMIT_PAGE_SIZE: usize = 100;

/// Where a service is: its organization, project and environment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    pub org: Uuid,
    pub project: Uuid,
    pub environment: Uuid,
}

impl Api {
    /// The service's latest successful deployment (what it runs), among its last twenty
    /// successful actions; `None` when it never deployed.
    pub async fn running_deployment(
        &self,
        kind: ServiceType,
        id: Uuid,
    ) -> Result<Option<DeploymentHistoryEntry>, ApiError> {
        let filter = HistoryFilter {
            outcome: Some(HistoryOutcome::Success),
            ..HistoryFilter::default()
        };
        let page = self.service_history(kind, id, 1, 20, &filter).await?;
        Ok(page
            .results
            .into_iter()
            .find(|entry| entry.status_details.action == StatusAction::Deploy))
    }

    /// The branch's commits after `commits` (newest first, as read so far) until every one of
    /// `wanted` is among them, the branch ends, or `COMMIT_PAGES_MAX` pages are read: a request
    /// per hundred commits (`startId`, the last one read).
    pub async fn commits_reaching(
        &self,
        kind: ServiceType,
        id: Uuid,
        commits: &mut Vec<Commit>,
        wanted: &[String],
    ) -> Result<(), ApiError> {
        let found = |commits: &[Commit]| {
            wanted
                .iter()
                .all(|id| commits.iter().any(|commit| &commit.git_commit_id == id))
        };
        for _ in 1..COMMIT_PAGES_MAX {
            let Some(last) = commits
                .last()
                .filter(|_| commits.len().is_multiple_of(COMMIT_PAGE_SIZE) && !found(commits))
            else {
                return Ok(());
            };
            let path = format!(
                "{}/commit?startId={}",
                kind.item_path(id),
                super::query_value(&last.git_commit_id)
            );
            let page: List<Commit> = self.get(&path).await?;
            if page.results.is_empty() {
                return Ok(());
            }
            commits.extend(page.results);
        }
        Ok(())
    }

    /// What the audit log recorded from `since` to `until` (now when `None`) on the service and
    /// on its environment and project (whose variables reach it): the three read together, each
    /// a hundred changes a request.
    pub async fn configuration_changes(
        &self,
        place: Place,
        service: Uuid,
        since: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
    ) -> Result<ConfigurationChanges, ApiError> {
        let read = |target: Uuid| {
            let query = EventQuery {
                target_id: Some(target),
                from_timestamp: Some(since.to_rfc3339_opts(SecondsFormat::Nanos, true)),
                to_timestamp: until.map(|until| until.to_rfc3339_opts(SecondsFormat::Nanos, true)),
                page_size: Some(EVENT_PAGE_SIZE_MAX),
                ..EventQuery::default()
            };
            self.every_event(place.org, query)
        };
        let (own, environment, project) =
            futures::join!(read(service), read(place.environment), read(place.project));
        let (own, environment, project) = (own?, environment?, project?);
        let mut changes =
            ConfigurationChanges::from_events(&[own.0, environment.0, project.0].concat());
        changes.incomplete = own.1 || environment.1 || project.1;
        Ok(changes)
    }

    /// The events `query` finds, page after page (`EVENT_PAGES_MAX` at most); whether older ones
    /// were left unread.
    async fn every_event(
        &self,
        org: Uuid,
        mut query: EventQuery,
    ) -> Result<(Vec<OrganizationEvent>, bool), ApiError> {
        let mut events = Vec::new();
        for _ in 0..EVENT_PAGES_MAX {
            let page = self.audit_events(org, &query).await?;
            let full = page.events.len() as i64 == EVENT_PAGE_SIZE_MAX;
            events.extend(page.events);
            match page
                .links
                .next
                .as_deref()
                .and_then(|link| link_token(link, "continueToken"))
                .filter(|_| full)
            {
                Some(token) => query.continue_token = Some(token),
                None => return Ok((events, false)),
            }
        }
        Ok((events, true))
    }
}
