//! Organization API tokens (spec 2.14) and the roles they carry.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

/// An API token. `token` (the secret) is present only in the answer that created it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiToken {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub name: String,
    pub description: Option<String>,
    #[serde(default)]
    pub role_name: String,
    /// The platform may leave it out.
    pub role_id: Option<Uuid>,
    /// When the token stops working; `null` for a token that does not expire.
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub expires_at: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

impl ApiToken {
    pub fn expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_some_and(|at| at <= now)
    }
}

/// Body of `POST /organization/{id}/apiToken`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiTokenRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    /// One of the organization's roles (`GET /organization/{id}/customRole`); required unless
    /// `scope` is ADMIN.
    #[serde(default)]
    pub role_id: Option<Uuid>,
    /// Deprecated; only ADMIN is accepted.
    #[serde(default)]
    pub scope: Option<String>,
    /// When the token stops working (spec 5.6: set at creation); never when left out.
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub expires_at: Option<DateTime<Utc>>,
}

impl ApiTokenRequest {
    pub fn validate(&self, now: DateTime<Utc>) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if let Some(expires_at) = self.expires_at {
            violations.check(rules::in_the_future("expires_at", expires_at, now));
        }
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        // The deprecated `scope: ADMIN` with `role_id: null` (production document) asks for
        // the built-in ADMIN role.
        if self.role_id.is_none() && self.scope.is_none() {
            violations.check(Some(FieldError::new(
                "role_id",
                "is required unless scope is ADMIN",
            )));
        }
        if self.scope.as_deref().is_some_and(|scope| scope != "ADMIN") {
            violations.check(Some(FieldError::new(
                "scope",
                "is deprecated and only accepts ADMIN",
            )));
        }
        violations.into_result()
    }
}

wire_enum!(
    /// What a role allows; each level includes the ones before it: READ reads, DEPLOY also runs
    /// actions, WRITE also creates and updates, ADMIN everything.
    RolePermission {
        Read = "READ",
        Deploy = "DEPLOY",
        Write = "WRITE",
        Admin = "ADMIN",
    }
);

impl RolePermission {
    /// Whether this level includes `needed` (each level includes the ones before it).
    pub fn allows(self, needed: RolePermission) -> bool {
        let rank = |level: RolePermission| Self::ALL.iter().position(|known| *known == level);
        rank(self) >= rank(needed)
    }
}

/// The role the signed-in caller carries, as `GET /organization/{id}/currentRole` gives it (this
/// server's: the production document reports no such thing for a token).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CallerRole {
    /// The role's name (ADMIN, WRITE, DEPLOY, READ or a custom role's).
    pub name: String,
    pub permission: RolePermission,
}

impl CallerRole {
    /// Why the caller cannot `doing` ("deploy"), when its role falls short of `needed`.
    pub fn refusal(&self, needed: RolePermission, doing: &str) -> Option<String> {
        (!self.permission.allows(needed)).then(|| {
            format!(
                "Your token's role ({}) cannot {doing}: that needs the {} permission.",
                self.name,
                needed.as_str()
            )
        })
    }
}

/// A role of the organization, as `GET /organization/{id}/customRole` lists them.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomRole {
    #[serde(default)]
    pub id: Uuid,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// This server's roles grant one permission to the whole organization; the platform's
    /// custom roles grant per project and cluster instead, and have none.
    pub permission: Option<RolePermission>,
    /// The four roles every organization starts with cannot be changed or deleted.
    #[serde(default)]
    pub built_in: bool,
}

/// Body of `POST /organization/{id}/customRole` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomRoleRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    /// READ when a role is created without one (the production document creates a role from
    /// its name alone); an update without one keeps the role's.
    #[serde(default)]
    pub permission: Option<RolePermission>,
    /// The production document's per-project grants. This server grants a role one permission
    /// for the whole organization, so it takes only grants that give no more than reading.
    #[serde(default)]
    pub project_permissions: Vec<ProjectPermissionRequest>,
    /// The production document's per-cluster grants, taken as `project_permissions` are.
    #[serde(default)]
    pub cluster_permissions: Vec<ClusterPermissionRequest>,
}

/// One project's grant in the production document's custom role.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectPermissionRequest {
    pub project_id: Uuid,
    #[serde(default)]
    pub is_admin: bool,
    #[serde(default)]
    pub permissions: Vec<ProjectPermission>,
}

/// One cluster's grant in the production document's custom role.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterPermissionRequest {
    pub cluster_id: Uuid,
    pub permission: ClusterPermission,
}

wire_enum!(
    /// What a custom role allows on one project, in the production document.
    ProjectPermission {
        NoAccess = "NO_ACCESS",
        Viewer = "VIEWER",
        Deployer = "DEPLOYER",
        Manager = "MANAGER",
    }
);

wire_enum!(
    /// What a custom role allows on one cluster, in the production document.
    ClusterPermission {
        Viewer = "VIEWER",
        EnvCreator = "ENV_CREATOR",
        Admin = "ADMIN",
    }
);

impl CustomRoleRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        const ONE_PERMISSION: &str = "grants more than reading to one project or cluster; \
            this server grants a role one permission for the whole organization (set permission)";
        for (index, grant) in self.project_permissions.iter().enumerate() {
            let reads_only = grant.permissions.iter().all(|permission| {
                matches!(
                    permission,
                    ProjectPermission::NoAccess | ProjectPermission::Viewer
                )
            });
            if grant.is_admin || !reads_only {
                violations.check(Some(FieldError::new(
                    format!("project_permissions[{index}]"),
                    ONE_PERMISSION,
                )));
            }
        }
        for (index, grant) in self.cluster_permissions.iter().enumerate() {
            if grant.permission != ClusterPermission::Viewer {
                violations.check(Some(FieldError::new(
                    format!("cluster_permissions[{index}]"),
                    ONE_PERMISSION,
                )));
            }
        }
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn name_and_role_are_required_and_scope_is_admin_only() {
        let now = Utc::now();
        let fields = |request: ApiTokenRequest| refused_fields(request.validate(now));
        assert_eq!(fields(ApiTokenRequest::default()), ["name", "role_id"]);
        let valid = ApiTokenRequest {
            name: "ci".into(),
            role_id: Some(Uuid::nil()),
            scope: Some("ADMIN".into()),
            ..Default::default()
        };
        assert!(valid.validate(now).is_ok());
        let expiring = ApiTokenRequest {
            expires_at: Some(now + chrono::Duration::days(30)),
            ..valid.clone()
        };
        assert!(expiring.validate(now).is_ok());
        let expired = ApiTokenRequest {
            expires_at: Some(now - chrono::Duration::seconds(1)),
            ..valid.clone()
        };
        assert_eq!(fields(expired), ["expires_at"]);
        let wrong_scope = ApiTokenRequest {
            scope: Some("READ".into()),
            ..valid
        };
        assert_eq!(fields(wrong_scope), ["scope"]);
    }

    #[test]
    fn the_secret_is_absent_unless_just_created() {
        let token = ApiToken {
            id: Uuid::nil(),
            created_at: Utc::now(),
            updated_at: None,
            name: "ci".into(),
            description: None,
            role_name: "READ".into(),
            role_id: Some(Uuid::nil()),
            expires_at: None,
            token: None,
        };
        let json = serde_json::to_value(&token).unwrap();
        assert!(json.get("token").is_none());
    }

    #[test]
    fn a_role_allows_its_level_and_those_below() {
        let read = CallerRole {
            name: "READ".into(),
            permission: RolePermission::Read,
        };
        assert_eq!(
            read.refusal(RolePermission::Deploy, "deploy").as_deref(),
            Some("Your token's role (READ) cannot deploy: that needs the DEPLOY permission.")
        );
        assert_eq!(read.refusal(RolePermission::Read, "read"), None);
        assert!(RolePermission::Admin.allows(RolePermission::Write));
        assert!(!RolePermission::Deploy.allows(RolePermission::Write));
    }
}
