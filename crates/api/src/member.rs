//! An organization's members and the invitations that make them: who belongs, with which role;
//! an invitation by e-mail gives a link that signs the new member in.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::token::RolePermission;

/// At most this many characters in an e-mail address (RFC 5321).
pub const EMAIL_MAX_CHARS: usize = 254;

/// How long an invitation may be accepted.
pub const INVITATION_DAYS: i64 = 7;

wire_enum!(
    /// The document's older naming of a member's role, kept beside `role_id`.
    MemberRole {
        Admin = "ADMIN" => "Admin",
        Developer = "DEVELOPER" => "Developer",
        Owner = "OWNER" => "Owner",
        Viewer = "VIEWER" => "Viewer",
    }
);

impl MemberRole {
    /// The older name of a role granting `permission`.
    pub fn of(permission: RolePermission) -> Self {
        match permission {
            RolePermission::Admin => MemberRole::Admin,
            RolePermission::Write | RolePermission::Deploy => MemberRole::Developer,
            _ => MemberRole::Viewer,
        }
    }

    /// The permission the older name stands for.
    pub fn permission(self) -> RolePermission {
        match self {
            MemberRole::Admin | MemberRole::Owner => RolePermission::Admin,
            MemberRole::Developer => RolePermission::Write,
            _ => RolePermission::Read,
        }
    }
}

wire_enum!(
    InvitationStatus {
        Pending = "PENDING" => "Pending",
        Expired = "EXPIRED" => "Expired",
    }
);

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Member {
    /// The member's user id.
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub email: String,
    pub name: Option<String>,
    pub nickname: Option<String>,
    /// The last time the member used the API.
    #[serde(default, with = "crate::timestamp::option")]
    pub last_activity_at: Option<DateTime<Utc>>,
    pub role: Option<MemberRole>,
    pub role_id: Option<Uuid>,
    pub role_name: Option<String>,
}

/// Body of `POST /organization/{id}/inviteMember`: `role_id` names the role; `role`, the
/// document's older way, stands for a built-in one when no `role_id` is given.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InviteMemberRequest {
    pub email: String,
    #[serde(default)]
    pub role: Option<MemberRole>,
    #[serde(default)]
    pub role_id: Option<Uuid>,
}

impl InviteMemberRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        match email("email", &self.email) {
            Some(error) => Err(vec![error]),
            None => Ok(()),
        }
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InviteMember {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub email: String,
    pub role: MemberRole,
    pub role_id: Option<Uuid>,
    pub role_name: Option<String>,
    /// Opened, it signs the new member in; sent to them by the inviter.
    pub invitation_link: String,
    pub invitation_status: InvitationStatus,
    /// Who invited them.
    pub inviter: String,
    pub organization_name: Option<String>,
    pub logo_url: Option<String>,
}

/// Body of `PUT /organization/{id}/member`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberRoleUpdateRequest {
    pub user_id: String,
    pub role_id: Uuid,
}

/// Body of `DELETE /organization/{id}/member`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberRemoval {
    pub user_id: Uuid,
}

/// Body of this server's `POST /invitation/accept` (the production platform signs its users in
/// itself): the invitation, and the code of its link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvitationAcceptance {
    pub organization_id: Uuid,
    pub invitation_id: Uuid,
    pub code: String,
}

/// What accepting an invitation gives: the new member, and the token they sign in with (shown
/// once, kept by the console as any session token).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvitationSignIn {
    pub organization_id: Uuid,
    pub member: Member,
    pub token: String,
}

/// An e-mail address: one `@` between a local part and a domain with a dot, no spaces, at most
/// 254 characters.
pub fn email(field: &str, value: &str) -> Option<FieldError> {
    let value = value.trim();
    if value.is_empty() {
        return Some(FieldError::new(field, "is required"));
    }
    if value.chars().count() > EMAIL_MAX_CHARS {
        return Some(FieldError::new(
            field,
            format!("must be at most {EMAIL_MAX_CHARS} characters"),
        ));
    }
    let well_formed = value.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && !domain.contains('@')
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !value.chars().any(|c| c.is_whitespace() || c.is_control())
    });
    (!well_formed)
        .then(|| FieldError::new(field, "must be an e-mail address such as ada@example.com"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_email_has_a_local_part_and_a_domain() {
        for good in ["ada@example.com", "a.b+c@mail.example.org"] {
            assert_eq!(email("email", good), None, "{good}");
        }
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a da@example.com",
            "a@b@example.com",
        ] {
            assert!(email("email", bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn older_role_names_stand_for_permissions() {
        for role in MemberRole::ALL {
            assert_eq!(
                MemberRole::of(role.permission()).permission(),
                role.permission()
            );
        }
    }
}
