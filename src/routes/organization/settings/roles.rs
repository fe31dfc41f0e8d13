//! Roles as the settings' pickers offer them: none chosen until a person chooses, unless the API
//! says which one only reads (the platform names its roles only: they grant per project and
//! cluster, and the first listed may well be an administrator's).

use platform_api::{CustomRole, RolePermission};
use uuid::Uuid;

/// The role chosen at first: the one that only reads, where the API says which.
pub fn least_role(roles: &[CustomRole]) -> Option<Uuid> {
    roles
        .iter()
        .find(|role| role.permission == Some(RolePermission::Read))
        .map(|role| role.id)
}

/// The roles as a select offers them, after a choice of none: each its name, and what it allows
/// in a few words where the API says.
pub fn role_options(roles: &[CustomRole]) -> Vec<(String, String)> {
    let none = (String::new(), "Choose a role".to_string());
    std::iter::once(none)
        .chain(roles.iter().map(|role| {
            let (id, label) = role_option(role);
            (id.to_string(), label)
        }))
        .collect()
}

/// A role as a select offers it.
pub fn role_option(role: &CustomRole) -> (Uuid, String) {
    let allows = match &role.permission {
        Some(RolePermission::Read) => "read only",
        Some(RolePermission::Deploy) => "read and run deployments",
        Some(RolePermission::Write) => "also create and change",
        Some(RolePermission::Admin) => "everything",
        Some(RolePermission::Other(permission)) => permission,
        None => return (role.id, role.name.clone()),
    };
    (role.id, format!("{}: {allows}", role.name))
}
