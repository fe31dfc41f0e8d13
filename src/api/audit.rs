use platform_api::audit::{EventQuery, OrganizationEventList};
use platform_api::paths;
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// A page of the changes made in the organization, newest first, as `query` narrows them.
    pub async fn audit_events(
        &self,
        org: Uuid,
        query: &EventQuery,
    ) -> Result<OrganizationEventList, ApiError> {
        self.get(&query.on(&paths::ORGANIZATION_EVENTS.at(&[org])))
            .await
    }
}
