use platform_api::paths;
use platform_api::{ApiToken, ApiTokenRequest, CallerRole, CustomRole, List};
use uuid::Uuid;

use gloo_net::http::Method;

use super::{Api, ApiError, Enhancement};

impl Api {
    /// The organization's API tokens, never their secret.
    pub async fn api_tokens(&self, org: Uuid) -> Result<Vec<ApiToken>, ApiError> {
        let list: List<ApiToken> = self.get(&paths::API_TOKENS.at(&[org])).await?;
        Ok(list.results)
    }

    /// The answer carries the token's secret, this once.
    pub async fn create_api_token(
        &self,
        org: Uuid,
        request: &ApiTokenRequest,
    ) -> Result<ApiToken, ApiError> {
        self.post(&paths::API_TOKENS.at(&[org]), request).await
    }

    pub async fn delete_api_token(&self, org: Uuid, token: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::API_TOKEN.at(&[org, token])).await
    }

    /// Every role a member or a token may be given, built-in and custom (the platform names
    /// each; this server says what each grants too).
    pub async fn roles(&self, org: Uuid) -> Result<Vec<CustomRole>, ApiError> {
        let list: List<CustomRole> = self.get(&paths::AVAILABLE_ROLES.at(&[org])).await?;
        Ok(list.results)
    }

    /// The role the signed-in token carries; `None` from a platform that does not say.
    pub async fn current_role(&self, org: Uuid) -> Result<Option<CallerRole>, ApiError> {
        let path = paths::CURRENT_ROLE.at(&[org]);
        self.enhanced::<(), _>(Enhancement::CurrentRole, Method::GET, &path, None)
            .await
    }
}
