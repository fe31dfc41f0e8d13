use platform_api::paths;
use platform_api::{List, OnPremiseCredentials, OnPremiseCredentialsRequest};
use uuid::Uuid;

use super::{Api, ApiError};

impl Api {
    /// The organization's on-premise credentials, never their secret key.
    pub async fn on_premise_credentials(
        &self,
        org: Uuid,
    ) -> Result<Vec<OnPremiseCredentials>, ApiError> {
        let list: List<OnPremiseCredentials> =
            self.get(&paths::ON_PREMISE_CREDENTIALS.at(&[org])).await?;
        Ok(list.results)
    }

    pub async fn create_on_premise_credentials(
        &self,
        org: Uuid,
        request: &OnPremiseCredentialsRequest,
    ) -> Result<OnPremiseCredentials, ApiError> {
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
}
