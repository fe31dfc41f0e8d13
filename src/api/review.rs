//! The reads behind a review of what a deploy changes: what runs (the service's latest successful
//! deployment) and what the audit log recorded since, on the service and on the variables of its
//! environment and project. Document operations only: `deploymentHistoryV2` and the organization's
//! `events`, one read per scope, never one per entry.

use chrono::{DateTime, SecondsFormat, Utc};
use platform_api::audit::{EventQuery, EVENT_PAGE_SIZE_MAX};
use platform_api::review::ConfigurationChanges;
use platform_api::{DeploymentHistoryEntry, HistoryOutcome, ServiceType, StatusAction};
use uuid::Uuid;

use super::service::HistoryFilter;
use super::{Api, ApiError};

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

    /// What the audit log recorded from `since` to `until` (now when `None`) on the service and
    /// on its environment and project (whose variables reach it): three reads, together.
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
            async move { self.audit_events(place.org, &query).await }
        };
        let (own, environment, project) =
            futures::join!(read(service), read(place.environment), read(place.project));
        let events: Vec<_> = [own?, environment?, project?]
            .into_iter()
            .flat_map(|list| list.events)
            .collect();
        Ok(ConfigurationChanges::from_events(&events))
    }
}
