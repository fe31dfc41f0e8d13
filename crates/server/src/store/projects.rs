//! Projects, as stored, each with its count of environments.

use chrono::{DateTime, Utc};
use platform_api::{Project, ProjectRequest, Reference};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

#[derive(sqlx::FromRow)]
struct ProjectRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    name: String,
    description: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
    environments: i64,
}

const COLUMNS: &str = "id, organization_id, name, description, created_at, updated_at,
    (SELECT COUNT(*) FROM environments e WHERE e.project_id = projects.id) AS environments";

impl From<ProjectRow> for Project {
    fn from(row: ProjectRow) -> Self {
        Project {
            id: row.id,
            created_at: row.created_at,
            updated_at: row.updated_at,
            name: row.name,
            description: row.description,
            organization: Reference {
                id: row.organization_id,
            },
            associated_environments_count: row.environments,
        }
    }
}

/// A page of the organization's projects, by name.
pub async fn page<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    limit: i64,
    offset: i64,
) -> ApiResult<Vec<Project>> {
    let rows: Vec<ProjectRow> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM projects WHERE organization_id = ? ORDER BY name, id LIMIT ? OFFSET ?"
    ))
    .bind(organization_id.hyphenated())
    .bind(limit)
    .bind(offset)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(Project::from).collect())
}

/// The organization's project with this id, or 404.
pub async fn find<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Project> {
    let row: ProjectRow = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM projects WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found("project"))?;
    Ok(row.into())
}

/// A new project; a name the organization has already is a 409.
pub async fn insert(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    request: &ProjectRequest,
) -> ApiResult<Project> {
    let row: ProjectRow = sqlx::query_as(&format!(
        "INSERT INTO projects (id, organization_id, name, description, created_at)
         VALUES (?, ?, ?, ?, ?) RETURNING {COLUMNS}"
    ))
    .bind(Uuid::new_v4().hyphenated())
    .bind(organization_id.hyphenated())
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(Utc::now())
    .fetch_one(conn)
    .await
    .on_unique_violation("name", "project")?;
    Ok(row.into())
}

pub async fn update(
    conn: &mut SqliteConnection,
    id: Uuid,
    request: &ProjectRequest,
) -> ApiResult<Project> {
    let row: ProjectRow = sqlx::query_as(&format!(
        "UPDATE projects SET name = ?, description = ?, updated_at = ? WHERE id = ? RETURNING {COLUMNS}"
    ))
    .bind(request.name.trim())
    .bind(request.description.as_deref())
    .bind(Utc::now())
    .bind(id.hyphenated())
    .fetch_one(conn)
    .await
    .on_unique_violation("name", "project")?;
    Ok(row.into())
}
