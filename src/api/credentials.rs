use platform_api::paths;
use platform_api::{
    credentials_paths, CloudCredentialsRequest, CloudProvider, ClusterCloudProviderInfo,
    ClusterCredentials, CredentialsReference, CredentialsWithClusters, List,
    OnPremiseCredentialsRequest,
};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The organization's on-premise credentials, never their secret key.
    pub async fn on_premise_credentials(
        &self,
        org: Uuid,
    ) -> Result<Vec<ClusterCredentials>, ApiError> {
        let list: List<ClusterCredentials> =
            self.get(&paths::ON_PREMISE_CREDENTIALS.at(&[org])).await?;
        Ok(list.results)
    }

    pub async fn create_on_premise_credentials(
        &self,
        org: Uuid,
        request: &OnPremiseCredentialsRequest,
    ) -> Result<ClusterCredentials, ApiError> {
        self.post(&paths::ON_PREMISE_CREDENTIALS.at(&[org]), request)
            .await
    }

    pub async fn delete_on_premise_credentials(
        &self,
        org: Uuid,
        credentials: Uuid,
    ) -> Result<(), ApiError> {
        self.delete(&paths::ON_PREMISE_CREDENTIAL.at(&[org, credentials]))
            .await
    }

    /// Every set of credentials of the organization, of every cloud, with the clusters each is
    /// used by; never a secret.
    pub async fn credentials_with_clusters(
        &self,
        org: Uuid,
    ) -> Result<Vec<CredentialsWithClusters>, ApiError> {
        let list: List<CredentialsWithClusters> = self
            .get(&paths::ORGANIZATION_CREDENTIALS.at(&[org]))
            .await?;
        Ok(list.results)
    }

    /// The organization's credentials for `provider`'s cloud, never a secret.
    pub async fn cloud_credentials(
        &self,
        org: Uuid,
        provider: CloudProvider,
    ) -> Result<Vec<ClusterCredentials>, ApiError> {
        let (collection, _) = cloud_paths(provider)?;
        let list: List<ClusterCredentials> = self.get(&collection.at(&[org])).await?;
        Ok(list.results)
    }

    /// Creates credentials at their cloud's route.
    pub async fn create_cloud_credentials(
        &self,
        org: Uuid,
        request: &CloudCredentialsRequest,
    ) -> Result<ClusterCredentials, ApiError> {
        let (collection, _) = cloud_paths(request.provider())?;
        self.post(&collection.at(&[org]), request).await
    }

    pub async fn delete_cloud_credentials(
        &self,
        org: Uuid,
        provider: CloudProvider,
        credentials: Uuid,
    ) -> Result<(), ApiError> {
        let (_, item) = cloud_paths(provider)?;
        self.delete(&item.at(&[org, credentials])).await
    }

    /// The cluster's cloud, region, and the credentials it is reached with.
    pub async fn cluster_cloud_provider_info(
        &self,
        org: Uuid,
        cluster: Uuid,
    ) -> Result<ClusterCloudProviderInfo, ApiError> {
        self.get(&paths::CLUSTER_CLOUD_PROVIDER_INFO.at(&[org, cluster]))
            .await
    }

    pub async fn choose_cluster_credentials(
        &self,
        org: Uuid,
        cluster: Uuid,
        credentials: Uuid,
    ) -> Result<ClusterCloudProviderInfo, ApiError> {
        let request = ClusterCloudProviderInfo {
            cloud_provider: None,
            credentials: Some(CredentialsReference {
                id: Some(credentials),
                name: None,
            }),
            region: None,
        };
        self.post(
            &paths::CLUSTER_CLOUD_PROVIDER_INFO.at(&[org, cluster]),
            &request,
        )
        .await
    }
}

/// A cloud the platform keeps no credentials for is a caller's mistake, said as one.
fn cloud_paths(provider: CloudProvider) -> Result<(paths::Template, paths::Template), ApiError> {
    credentials_paths(provider).ok_or_else(|| ApiError::Invalid {
        message: format!(
            "The platform keeps no credentials for {}.",
            provider.as_str()
        ),
        fields: Vec::new(),
    })
}
