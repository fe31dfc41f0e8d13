//! Organizations, as stored.

use chrono::{DateTime, Utc};
use platform_api::Organization;
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::caller::BUILT_IN_ROLES;
use crate::error::{ApiError, ApiResult};

#[derive(sqlx::FromRow)]
struct OrganizationRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    description: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "crate::db::MaybeId")]
    owner_id: Option<Uuid>,
}

impl From<OrganizationRow> for Organization {
    fn from(row: OrganizationRow) -> Self {
        Organization {
            id: row.id,
            name: row.name,
            plan: PLAN.into(),
            description: row.description,
            created_at: row.created_at,
            updated_at: row.updated_at,
            owner: row.owner_id,
        }
    }
}

const ORGANIZATION: &str =
    "SELECT id, name, description, created_at, updated_at, owner_id FROM organizations";

/// The reference server's organizations are all on the free plan: billing is the platform's.
pub const PLAN: &str = "FREE";

/// The organization, or 404.
pub async fn find<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> ApiResult<Organization> {
    let row: OrganizationRow = sqlx::query_as(&format!("{ORGANIZATION} WHERE id = ?"))
        .bind(id.hyphenated())
        .fetch_optional(db)
        .await?
        .ok_or_else(|| ApiError::not_found("organization"))?;
    Ok(row.into())
}

/// The organizations with these ids, by name.
pub async fn with_ids(conn: &mut SqliteConnection, ids: &[Uuid]) -> ApiResult<Vec<Organization>> {
    let mut found = Vec::with_capacity(ids.len());
    // One query: a person belongs to a few organizations.
    let placeholders = vec!["?"; ids.len()].join(", ");
    let query = format!("{ORGANIZATION} WHERE id IN ({placeholders}) ORDER BY name, id");
    let mut rows = sqlx::query_as::<_, OrganizationRow>(&query);
    for id in ids {
        rows = rows.bind(id.hyphenated());
    }
    if !ids.is_empty() {
        found.extend(
            rows.fetch_all(conn)
                .await?
                .into_iter()
                .map(Organization::from),
        );
    }
    Ok(found)
}

/// A new organization with the four built-in roles; its id.
pub async fn insert(
    conn: &mut SqliteConnection,
    name: &str,
    description: Option<&str>,
) -> ApiResult<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO organizations (id, name, description, created_at) VALUES (?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(name)
    .bind(description)
    .bind(Utc::now())
    .execute(&mut *conn)
    .await?;
    for (role, description, _) in BUILT_IN_ROLES {
        sqlx::query(
            "INSERT INTO roles (id, organization_id, name, description, permission, built_in)
             VALUES (?, ?, ?, ?, ?, 1)",
        )
        .bind(Uuid::new_v4().hyphenated())
        .bind(id.hyphenated())
        .bind(role)
        .bind(description)
        .bind(role)
        .execute(&mut *conn)
        .await?;
    }
    Ok(id)
}

/// The organization made first: the one a sign-in token printed at start is for.
pub async fn oldest<'e>(db: impl SqliteExecutor<'e>) -> sqlx::Result<Option<Uuid>> {
    let id: Option<Hyphenated> =
        sqlx::query_scalar("SELECT id FROM organizations ORDER BY created_at, id LIMIT 1")
            .fetch_optional(db)
            .await?;
    Ok(id.map(Hyphenated::into_uuid))
}

/// Makes `member_id` the organization's owner.
pub async fn set_owner(conn: &mut SqliteConnection, id: Uuid, member_id: Uuid) -> ApiResult<()> {
    sqlx::query("UPDATE organizations SET owner_id = ?, updated_at = ? WHERE id = ?")
        .bind(member_id.hyphenated())
        .bind(Utc::now())
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes the organization with all it holds: its records go with it by their keys, its audit
/// log and the hashes of its deleted tokens (kept apart from any record) here.
pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    for table in ["audit_events", "revoked_api_tokens"] {
        sqlx::query(&format!("DELETE FROM {table} WHERE organization_id = ?"))
            .bind(id.hyphenated())
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("DELETE FROM organizations WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// The organization's name, or 404.
pub async fn name<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> ApiResult<String> {
    sqlx::query_scalar("SELECT name FROM organizations WHERE id = ?")
        .bind(id.hyphenated())
        .fetch_optional(db)
        .await?
        .ok_or_else(|| ApiError::not_found("organization"))
}

/// Writes the organization's name and description as `edited` has them.
pub async fn edit(conn: &mut sqlx::SqliteConnection, edited: &Organization) -> ApiResult<()> {
    sqlx::query("UPDATE organizations SET name = ?, description = ?, updated_at = ? WHERE id = ?")
        .bind(&edited.name)
        .bind(&edited.description)
        .bind(edited.updated_at)
        .bind(edited.id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}
