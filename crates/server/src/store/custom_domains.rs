//! A service's custom domains as stored: one row each, the name unique in its organization.

use chrono::{DateTime, Utc};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

/// A custom domain's row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Row {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub domain: String,
    pub generate_certificate: bool,
    pub use_cdn: Option<bool>,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, domain, generate_certificate, use_cdn, created_at, updated_at";

/// The service's custom domains, by name (read by the routes and by the engine's deployments).
pub async fn of_service<'e>(
    db: impl SqliteExecutor<'e>,
    service_id: Uuid,
) -> sqlx::Result<Vec<Row>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM custom_domains WHERE service_id = ? ORDER BY domain"
    ))
    .bind(service_id.hyphenated())
    .fetch_all(db)
    .await
}

/// The service's custom domain with this id, or 404.
pub async fn find<'e>(db: impl SqliteExecutor<'e>, service_id: Uuid, id: Uuid) -> ApiResult<Row> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM custom_domains WHERE id = ? AND service_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(service_id.hyphenated())
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found("custom domain"))
}

/// Stores a new custom domain of the service; 409 naming `domain` when the organization has it.
pub async fn insert(
    conn: &mut SqliteConnection,
    (organization_id, service_id): (Uuid, Uuid),
    row: &Row,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO custom_domains (id, organization_id, service_id, domain, generate_certificate, use_cdn, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(row.id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(service_id.hyphenated())
    .bind(&row.domain)
    .bind(row.generate_certificate)
    .bind(row.use_cdn)
    .bind(row.created_at)
    .execute(conn)
    .await
    .on_unique_violation("domain", "custom domain")?;
    Ok(())
}

pub async fn update(conn: &mut SqliteConnection, row: &Row) -> ApiResult<()> {
    sqlx::query(
        "UPDATE custom_domains SET domain = ?, generate_certificate = ?, use_cdn = ?, updated_at = ?
         WHERE id = ?",
    )
    .bind(&row.domain)
    .bind(row.generate_certificate)
    .bind(row.use_cdn)
    .bind(row.updated_at)
    .bind(row.id.hyphenated())
    .execute(conn)
    .await
    .on_unique_violation("domain", "custom domain")?;
    Ok(())
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    sqlx::query("DELETE FROM custom_domains WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}
