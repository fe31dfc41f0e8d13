//! Who calls, once known: the caller of a request (its organization, name, role and client),
//! the permissions a role grants, and an API token's caller as the server keeps it. How a caller
//! is known from a request's token is `auth`'s.

use axum::extract::FromRequestParts;
use axum::http::header::{ORIGIN, USER_AGENT};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use platform_api::audit::Origin;
use uuid::Uuid;

use crate::error::ApiError;

/// What a role lets a caller do; each level includes the ones before it. `SignedIn` is what
/// every caller has, a person who belongs to no organization included: their account, their
/// organizations, making one, accepting an invitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    SignedIn,
    Read,
    Deploy,
    Write,
    Admin,
}

impl Permission {
    /// The levels a role grants.
    pub const ALL: [Permission; 4] = [
        Permission::Read,
        Permission::Deploy,
        Permission::Write,
        Permission::Admin,
    ];

    /// The permission as the wire names it (a caller with no role in the organization reads as
    /// READ would, and reads nothing: it is answered only what a signed-in person may read).
    pub fn wire(self) -> platform_api::RolePermission {
        use platform_api::RolePermission;
        match self {
            Permission::SignedIn | Permission::Read => RolePermission::Read,
            Permission::Deploy => RolePermission::Deploy,
            Permission::Write => RolePermission::Write,
            Permission::Admin => RolePermission::Admin,
        }
    }
}

/// The four roles every organization starts with: name, description, permission.
pub const BUILT_IN_ROLES: [(&str, &str, Permission); 4] = [
    (
        "ADMIN",
        "Everything, including tokens, webhooks and roles",
        Permission::Admin,
    ),
    (
        "WRITE",
        "Create and update resources, and run actions",
        Permission::Write,
    ),
    (
        "DEPLOY",
        "Read resources and trigger deployments and actions",
        Permission::Deploy,
    ),
    ("READ", "Read resources only", Permission::Read),
];

/// The permission of a level as roles store it (ADMIN, WRITE, DEPLOY, READ).
pub fn role_permission(level: &str) -> Option<Permission> {
    BUILT_IN_ROLES
        .iter()
        .find(|(name, _, _)| *name == level)
        .map(|(_, _, permission)| *permission)
}

/// The authenticated caller of a request, put there by the route table's auth layer.
#[derive(Clone, Debug)]
pub struct Caller {
    pub organization_id: Uuid,
    /// Who is calling, for records that name an owner: the API token's name, or the access
    /// token's user.
    pub name: String,
    pub role_name: String,
    /// Where the request came from, for the audit log.
    pub client: Client,
    pub(crate) permission: Permission,
    /// Who signed in (`GET /account`), and whose quota the request counts against.
    pub account: Account,
}

/// Who a caller signed in as.
#[derive(Clone, Debug)]
pub enum Account {
    /// An API token, by id.
    Token(Uuid),
    /// A member signed in with the session their accepted invitation gave, by id.
    Member(Uuid),
    /// A person signed in through the identity provider, by their id (`people`), with their
    /// member in the organization of the request when they belong to it.
    Person { id: Uuid, member_id: Option<Uuid> },
}

impl Caller {
    /// 403 unless the caller's role grants `needed`.
    pub fn require(&self, needed: Permission) -> Result<(), ApiError> {
        if self.may(needed) {
            Ok(())
        } else {
            Err(ApiError::forbidden(format!(
                "Your token's role ({}) does not allow this call.",
                self.role_name
            )))
        }
    }

    /// The caller's permission level, as the wire names it.
    pub fn permission(&self) -> platform_api::RolePermission {
        self.permission.wire()
    }

    /// Whether the caller's role grants `needed`.
    pub fn may(&self, needed: Permission) -> bool {
        self.permission >= needed
    }

    /// What the caller's role grants.
    pub fn level(&self) -> Permission {
        self.permission
    }

    /// Whose quota the request counts against: the API token, the member or the access token's
    /// user.
    pub fn rate_key(&self) -> String {
        match &self.account {
            Account::Token(id) => format!("token:{id}"),
            Account::Member(id) => format!("member:{id}"),
            Account::Person { id, .. } => format!("person:{id}"),
        }
    }

    /// The caller as this request's headers describe its client.
    pub fn with_client(mut self, headers: &HeaderMap) -> Self {
        self.client = Client::of(headers);
        self
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .ok_or_else(|| ApiError::internal("a route was registered outside the route table"))
    }
}

/// Where a request came from: a browser (the console) or another client of the API, and its
/// `User-Agent`.
#[derive(Clone, Debug)]
pub struct Client {
    pub origin: Origin,
    pub user_agent: Option<String>,
}

impl Default for Client {
    fn default() -> Self {
        Self {
            origin: Origin::Api,
            user_agent: None,
        }
    }
}

impl Client {
    /// A browser sends `Origin` with every request that can change something (fetch does, for
    /// any method but GET and HEAD); other clients of the API do not, so no header of our own is
    /// needed (one a production CORS policy would refuse).
    pub fn of(headers: &HeaderMap) -> Self {
        Self {
            origin: if headers.contains_key(ORIGIN) {
                Origin::Console
            } else {
                Origin::Api
            },
            user_agent: headers
                .get(USER_AGENT)
                .and_then(|agent| agent.to_str().ok())
                .map(|agent| agent.chars().take(256).collect()),
        }
    }
}

/// An API token's caller and when the token expires, as `Fresh` keeps them.
#[derive(Clone)]
pub struct TokenCaller {
    pub(crate) caller: Caller,
    /// The token's id and name.
    pub(crate) id: uuid::Uuid,
    pub(crate) name: String,
    pub(crate) expires_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl crate::fresh::Weigh for TokenCaller {
    fn weight(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.name.len()
            + self.caller.name.len()
            + self.caller.role_name.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_include_the_lower_ones() {
        assert!(Permission::Admin > Permission::Write);
        assert!(Permission::Write > Permission::Deploy);
        assert!(Permission::Deploy > Permission::Read);
        assert_eq!(role_permission("DEPLOY"), Some(Permission::Deploy));
        assert_eq!(role_permission("OWNER"), None);
    }
}
