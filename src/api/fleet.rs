//! The organization's services and environments, each in one read (the fleet page).

use platform_api::paths;
use platform_api::{List, OrganizationEnvironment, ServiceLight};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// Every service of the organization, with its project, environment and cluster.
    pub async fn organization_services(&self, org: Uuid) -> Result<Vec<ServiceLight>, ApiError> {
        let list: List<ServiceLight> = self.get(&paths::ORGANIZATION_SERVICES.at(&[org])).await?;
        Ok(list.results)
    }

    /// Every environment of the organization, with its project and mode.
    pub async fn organization_environments(
        &self,
        org: Uuid,
    ) -> Result<Vec<OrganizationEnvironment>, ApiError> {
        let path = paths::ORGANIZATION_ENVIRONMENTS.at(&[org]);
        let list: List<OrganizationEnvironment> = self.get(&path).await?;
        Ok(list.results)
    }
}
