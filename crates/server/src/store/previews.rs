//! Preview environments as stored: which environment previews what, of which environment.

use chrono::{DateTime, Utc};
use platform_api::{Preview, PreviewTrigger};
use sqlx::SqliteExecutor;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

#[derive(sqlx::FromRow)]
struct PreviewRow {
    #[sqlx(try_from = "Hyphenated")]
    environment_id: Uuid,
    name: String,
    #[sqlx(try_from = "Hyphenated")]
    source_environment_id: Uuid,
    source_environment_name: String,
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    trigger: PreviewTrigger,
    reference: String,
    created_at: DateTime<Utc>,
}

impl From<PreviewRow> for Preview {
    fn from(row: PreviewRow) -> Self {
        Preview {
            environment_id: row.environment_id,
            name: row.name,
            source_environment_id: row.source_environment_id,
            source_environment_name: row.source_environment_name,
            service_id: row.service_id,
            trigger: row.trigger,
            reference: row.reference,
            created_at: row.created_at,
        }
    }
}

const SELECT: &str = "SELECT p.environment_id, e.name, p.source_environment_id,
        s.name AS source_environment_name, p.service_id, p.trigger, p.reference, p.created_at
    FROM preview_environments p
    JOIN environments e ON e.id = p.environment_id
    JOIN environments s ON s.id = p.source_environment_id";

/// The previews of the environment `source`, oldest first.
pub async fn of_environment<'e>(
    db: impl SqliteExecutor<'e>,
    source: Uuid,
) -> sqlx::Result<Vec<Preview>> {
    let rows: Vec<PreviewRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE p.source_environment_id = ? ORDER BY p.created_at, e.name"
    ))
    .bind(source.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}

/// What the environment `id` previews, if it is a preview.
pub async fn preview<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> sqlx::Result<Option<Preview>> {
    let row: Option<PreviewRow> = sqlx::query_as(&format!("{SELECT} WHERE p.environment_id = ?"))
        .bind(id.hyphenated())
        .fetch_optional(db)
        .await?;
    Ok(row.map(Into::into))
}

pub async fn insert<'e>(db: impl SqliteExecutor<'e>, preview: &Preview) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO preview_environments
             (environment_id, source_environment_id, service_id, trigger, reference, created_at)
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(preview.environment_id.hyphenated())
    .bind(preview.source_environment_id.hyphenated())
    .bind(preview.service_id.hyphenated())
    .bind(preview.trigger)
    .bind(&preview.reference)
    .bind(preview.created_at)
    .execute(db)
    .await?;
    Ok(())
}
