use gloo_net::http::Method;
use platform_api::paths;
use platform_api::{
    CallersOrganizations, Organization, OrganizationEditRequest, OrganizationRequest,
    TransferOwnershipRequest,
};
use uuid::Uuid;

use super::session::Credentials;
use super::{send_with, Api, ApiError, Named};

impl Api {
    /// The organization `org`, with its description.
    pub async fn organization_by_id(&self, org: Uuid) -> Result<Organization, ApiError> {
        self.get(&paths::ORGANIZATION.at(&[org])).await
    }

    /// Renames the organization and sets its description.
    pub async fn edit_organization(
        &self,
        org: Uuid,
        request: &OrganizationEditRequest,
    ) -> Result<Organization, ApiError> {
        self.put(&paths::ORGANIZATION.at(&[org]), request).await
    }

    /// A new organization, owned by the person signed in.
    pub async fn create_organization(
        &self,
        request: &OrganizationRequest,
    ) -> Result<Organization, ApiError> {
        self.post(paths::ORGANIZATIONS.0, request).await
    }

    /// Hands the organization to another member (the owner's to do).
    pub async fn transfer_ownership(&self, org: Uuid, member: Uuid) -> Result<(), ApiError> {
        let body = TransferOwnershipRequest { user_id: member };
        self.post_answering_nothing(&paths::TRANSFER_OWNERSHIP.at(&[org]), &body)
            .await
    }

    /// Deletes the organization and all it holds (the owner's to do).
    pub async fn delete_organization(&self, org: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::ORGANIZATION.at(&[org])).await
    }

    /// The id and name of every organization of the person signed in (a token's one).
    pub async fn organization_names(&self) -> Result<Vec<Named>, ApiError> {
        let answer: CallersOrganizations<Named> = self.get(paths::ORGANIZATIONS.0).await?;
        Ok(answer.all())
    }

    /// The id and name of the signed-in token's organization.
    pub async fn organization_name(&self) -> Result<Named, ApiError> {
        let answer: CallersOrganizations<Named> = self.get(paths::ORGANIZATIONS.0).await?;
        answer.first().ok_or_else(no_organization)
    }
}

/// The organization `credentials` reach: how a token is checked before it is used.
pub async fn callers_organization(credentials: &Credentials) -> Result<Named, ApiError> {
    let answer: CallersOrganizations<Named> =
        send_with(credentials, Method::GET, paths::ORGANIZATIONS.0, None).await?;
    answer.first().ok_or_else(no_organization)
}

fn no_organization() -> ApiError {
    ApiError::NotFound("This token belongs to no organization.".into())
}
