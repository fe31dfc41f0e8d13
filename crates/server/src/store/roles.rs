//! An organization's roles, as stored: the built-in ones and its custom roles.

use platform_api::{CustomRole, CustomRoleRequest, RolePermission};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

#[derive(sqlx::FromRow)]
struct RoleRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    description: String,
    permission: RolePermission,
    built_in: bool,
}

const COLUMNS: &str = "id, name, description, permission, built_in";

impl From<RoleRow> for CustomRole {
    fn from(row: RoleRow) -> Self {
        CustomRole {
            id: row.id,
            name: row.name,
            description: row.description,
            permission: Some(row.permission),
            built_in: row.built_in,
        }
    }
}

/// The organization's roles, the built-in ones first, then by name.
pub async fn roles<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
) -> ApiResult<Vec<CustomRole>> {
    let rows: Vec<RoleRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM roles WHERE organization_id = ? ORDER BY built_in DESC, name"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(CustomRole::from).collect())
}

/// One of the organization's roles, or 404.
pub async fn find(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<CustomRole> {
    let row: RoleRow = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM roles WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| ApiError::not_found("role"))?;
    Ok(row.into())
}

/// A new custom role (READ unless the request names a permission); a name taken is a 409.
pub async fn insert(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    request: &CustomRoleRequest,
) -> ApiResult<CustomRole> {
    let row: RoleRow = sqlx::query_as(&format!(
        "INSERT INTO roles (id, organization_id, name, description, permission, built_in)
         VALUES (?, ?, ?, ?, ?, 0) RETURNING {COLUMNS}"
    ))
    .bind(Uuid::new_v4().hyphenated())
    .bind(organization_id.hyphenated())
    .bind(request.name.trim())
    .bind(request.description.as_deref().unwrap_or_default())
    .bind(request.permission.unwrap_or(RolePermission::Read))
    .fetch_one(conn)
    .await
    .on_unique_violation("name", "role")?;
    Ok(row.into())
}

/// The role `id` as `request` says, keeping its permission when the request names none.
pub async fn update(
    conn: &mut SqliteConnection,
    current: &CustomRole,
    request: &CustomRoleRequest,
) -> ApiResult<CustomRole> {
    let permission = request
        .permission
        .or(current.permission)
        .unwrap_or(RolePermission::Read);
    let row: RoleRow = sqlx::query_as(&format!(
        "UPDATE roles SET name = ?, description = ?, permission = ? WHERE id = ? RETURNING {COLUMNS}"
    ))
    .bind(request.name.trim())
    .bind(request.description.as_deref().unwrap_or_default())
    .bind(permission)
    .bind(current.id.hyphenated())
    .fetch_one(conn)
    .await
    .on_unique_violation("name", "role")?;
    Ok(row.into())
}

/// How many API tokens and how many members carry the role.
pub async fn carried_by(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<(i64, i64)> {
    let tokens: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM api_tokens WHERE role_id = ?")
        .bind(id.hyphenated())
        .fetch_one(&mut *conn)
        .await?;
    let members: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM members WHERE role_id = ?")
        .bind(id.hyphenated())
        .fetch_one(conn)
        .await?;
    Ok((tokens, members))
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    sqlx::query("DELETE FROM roles WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}
