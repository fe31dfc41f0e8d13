use gloo_net::http::Method;
use platform_api::{CallersOrganizations, Organization};

use super::{send_with, Api, ApiError, Named};
use crate::api::session::Credentials;

/// The path that lists the caller's organizations; signing in checks a token with it.
const CALLERS_ORGANIZATIONS: &str = "/organization";

impl Api {
    /// The organization of the signed-in token.
    pub async fn organization(&self) -> Result<Organization, ApiError> {
        let answer: CallersOrganizations = self.get(CALLERS_ORGANIZATIONS).await?;
        answer.first().ok_or_else(no_organization)
    }

    /// The id and name of the signed-in token's organization.
    pub async fn organization_name(&self) -> Result<Named, ApiError> {
        let answer: CallersOrganizations<Named> = self.get(CALLERS_ORGANIZATIONS).await?;
        answer.first().ok_or_else(no_organization)
    }
}

/// The organization `credentials` reach: how a token is checked before it is used.
pub async fn callers_organization(credentials: &Credentials) -> Result<Named, ApiError> {
    let answer: CallersOrganizations<Named> =
        send_with(credentials, Method::GET, CALLERS_ORGANIZATIONS, None).await?;
    answer.first().ok_or_else(no_organization)
}

fn no_organization() -> ApiError {
    ApiError::NotFound("This token belongs to no organization.".into())
}
