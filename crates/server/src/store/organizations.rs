//! Organizations, as stored.

use chrono::{DateTime, Utc};
use platform_api::Organization;
use sqlx::SqliteExecutor;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

#[derive(sqlx::FromRow)]
struct OrganizationRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    description: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

/// The reference server's organizations are all on the free plan: billing is the platform's.
pub const PLAN: &str = "FREE";

/// The organization, or 404.
pub async fn find<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> ApiResult<Organization> {
    let row: OrganizationRow = sqlx::query_as(
        "SELECT id, name, description, created_at, updated_at FROM organizations WHERE id = ?",
    )
    .bind(id.hyphenated())
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found("organization"))?;
    Ok(Organization {
        id: row.id,
        name: row.name,
        plan: PLAN.into(),
        description: row.description,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
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
