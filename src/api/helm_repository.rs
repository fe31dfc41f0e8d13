use platform_api::paths;
use platform_api::{ChartVersions, HelmRepository, HelmRepositoryRequest, List};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The organization's helm repositories, never their secrets.
    pub async fn helm_repositories(&self, org: Uuid) -> Result<Vec<HelmRepository>, ApiError> {
        let list: List<HelmRepository> = self.get(&paths::HELM_REPOSITORIES.at(&[org])).await?;
        Ok(list.results)
    }

    /// A helm repository's charts with their versions; none where the API does not list them.
    pub async fn helm_charts(
        &self,
        org: Uuid,
        repository: Uuid,
    ) -> Result<Vec<ChartVersions>, ApiError> {
        let list: List<ChartVersions> = self
            .get(&paths::HELM_REPOSITORY_CHARTS.at(&[org, repository]))
            .await?;
        Ok(list.results)
    }

    pub async fn create_helm_repository(
        &self,
        org: Uuid,
        request: &HelmRepositoryRequest,
    ) -> Result<HelmRepository, ApiError> {
        self.post(&paths::HELM_REPOSITORIES.at(&[org]), request)
            .await
    }

    pub async fn delete_helm_repository(
        &self,
        org: Uuid,
        repository: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&paths::HELM_REPOSITORY.at(&[org, repository]))
            .await
    }
}
