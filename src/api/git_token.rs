use platform_api::paths;
use platform_api::{GitToken, GitTokenAssociatedService, GitTokenRequest, List};
use uuid::Uuid;

use super::{Api, ApiError};

fn git_tokens_path(org: Uuid) -> String {
    paths::GIT_TOKENS.at(&[org])
}

impl Api {
    /// The organization's git tokens, never their tokens.
    pub async fn git_tokens(&self, org: Uuid) -> Result<Vec<GitToken>, ApiError> {
        let list: List<GitToken> = self.get(&git_tokens_path(org)).await?;
        Ok(list.results)
    }

    pub async fn create_git_token(
        &self,
        org: Uuid,
        request: &GitTokenRequest,
    ) -> Result<GitToken, ApiError> {
        self.post(&git_tokens_path(org), request).await
    }

    pub async fn update_git_token(
        &self,
        org: Uuid,
        token: Uuid,
        request: &GitTokenRequest,
    ) -> Result<GitToken, ApiError> {
        self.put(&paths::GIT_TOKEN.at(&[org, token]), request).await
    }

    pub async fn delete_git_token(&self, org: Uuid, token: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::GIT_TOKEN.at(&[org, token])).await
    }

    /// The services whose repository is read with the token.
    pub async fn git_token_services(
        &self,
        org: Uuid,
        token: Uuid,
    ) -> Result<Vec<GitTokenAssociatedService>, ApiError> {
        let list: List<GitTokenAssociatedService> = self
            .get(&paths::GIT_TOKEN_SERVICES.at(&[org, token]))
            .await?;
        Ok(list.results)
    }
}
