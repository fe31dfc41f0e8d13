use platform_api::paths;
use platform_api::{
    InvitationAcceptance, InviteMember, InviteMemberRequest, List, Member, MemberRemoval,
    MemberRoleUpdateRequest,
};
use serde::Deserialize;
use uuid::Uuid;

use super::{send_with, Api, ApiError, Method};
use crate::api::session::{Credentials, TokenKind};

fn members_path(org: Uuid) -> String {
    paths::MEMBERS.at(&[org])
}

fn invitations_path(org: Uuid) -> String {
    paths::INVITATIONS.at(&[org])
}

impl Api {
    pub async fn members(&self, org: Uuid) -> Result<Vec<Member>, ApiError> {
        let list: List<Member> = self.get(&members_path(org)).await?;
        Ok(list.results)
    }

    /// Each member's id and e-mail address only (the owner's card): the rest of the record, and
    /// the date parser its times need, are left undecoded.
    pub async fn member_emails(&self, org: Uuid) -> Result<Vec<MemberEmail>, ApiError> {
        let list: List<MemberEmail> = self.get(&members_path(org)).await?;
        Ok(list.results)
    }

    pub async fn change_member_role(
        &self,
        org: Uuid,
        request: &MemberRoleUpdateRequest,
    ) -> Result<(), ApiError> {
        let _: serde_json::Value = self.put(&members_path(org), request).await?;
        Ok(())
    }

    pub async fn remove_member(&self, org: Uuid, member: Uuid) -> Result<(), ApiError> {
        self.delete_with(&members_path(org), &MemberRemoval { user_id: member })
            .await
    }

    /// The invitations not yet accepted, each with its link.
    pub async fn invitations(&self, org: Uuid) -> Result<Vec<InviteMember>, ApiError> {
        let list: List<InviteMember> = self.get(&invitations_path(org)).await?;
        Ok(list.results)
    }

    pub async fn invite(
        &self,
        org: Uuid,
        request: &InviteMemberRequest,
    ) -> Result<InviteMember, ApiError> {
        self.post(&invitations_path(org), request).await
    }

    pub async fn revoke_invitation(&self, org: Uuid, invitation: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::INVITATION.at(&[org, invitation])).await
    }
}

/// Accepts an invitation as the person `credentials` sign in (through the identity provider:
/// the invitation is to their access token's e-mail address). Called with the credentials
/// rather than through `Api`, whose code is not in the main module the invitation's page is in.
pub async fn accept_invitation_signed_in(
    credentials: &Credentials,
    org: Uuid,
    invitation: Uuid,
) -> Result<(), ApiError> {
    let path = paths::INVITATION.at(&[org, invitation]);
    send_with::<serde::de::IgnoredAny>(credentials, Method::POST, &path, None)
        .await
        .map(drop)
}

/// A member as the owner's card names them.
#[derive(Clone, Deserialize)]
pub struct MemberEmail {
    pub id: Uuid,
    pub email: String,
}

/// Of an accepted invitation's answer (`InvitationSignIn`), what the console reads: where the
/// new member is and the token they sign in with. Its member record is left undecoded, so that
/// the member's decoder (and chrono's date parser with it) is not in the code every page loads.
#[derive(Deserialize)]
pub struct InvitationSignedIn {
    pub organization_id: Uuid,
    pub token: String,
}

/// Accepts an invitation at the API at `base_url` by its link's code, before anyone is signed in
/// (this server's `POST /invitation/accept`; 404 from an API that has no such route).
pub async fn accept_invitation(
    base_url: &str,
    acceptance: &InvitationAcceptance,
) -> Result<InvitationSignedIn, ApiError> {
    let nobody = Credentials {
        base_url: base_url.to_string(),
        kind: TokenKind::ApiToken,
        token: String::new(),
        provider: None,
    };
    let body = serde_json::to_string(acceptance).map_err(|e| ApiError::Decode(e.to_string()))?;
    send_with(
        &nobody,
        gloo_net::http::Method::POST,
        paths::INVITATION_ACCEPT.0,
        Some(&body),
    )
    .await
}
