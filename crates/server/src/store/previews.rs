//! Preview environments as stored: which environment previews what, of which environment.

use chrono::{DateTime, Utc};
use platform_api::{ImagePaths, Preview, PreviewTrigger};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::ApiResult;

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

/// A container that a new tag of its image previews.
#[derive(sqlx::FromRow)]
pub struct PreviewCandidate {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub environment_id: Uuid,
}

/// The organization's containers with auto-preview, in environments that allow previews and
/// are not previews, that run `image_name` at another tag than `tag` and have no preview of it
/// yet; by environment, then name.
pub async fn containers_to_preview(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    image_name: &str,
    tag: &str,
) -> ApiResult<Vec<PreviewCandidate>> {
    let image = ImagePaths::CONTAINER;
    Ok(sqlx::query_as(&format!(
        "SELECT s.id, s.environment_id FROM services s
         JOIN environment_deployment_rules r ON r.environment_id = s.environment_id
         WHERE s.organization_id = ? AND s.kind = 'CONTAINER'
           AND json_extract(s.spec, '$.auto_preview') = 1
           AND (r.auto_preview = 1 OR r.on_demand_preview = 1)
           AND json_extract(s.spec, '{}') = ?
           AND coalesce(json_extract(s.spec, '{}'), '') <> ?
           AND s.environment_id NOT IN (SELECT environment_id FROM preview_environments)
           AND s.environment_id NOT IN (SELECT source_environment_id FROM preview_environments
                                        WHERE trigger = 'IMAGE_TAG' AND reference = ?)
         ORDER BY s.environment_id, s.name",
        image.name, image.tag
    ))
    .bind(organization_id.hyphenated())
    .bind(image_name)
    .bind(tag)
    .bind(tag)
    .fetch_all(conn)
    .await?)
}
