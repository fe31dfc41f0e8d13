//! Environments as the API answers them: each with where its cluster runs, read in one query.

use chrono::{DateTime, Utc};
use platform_api::{
    CloudProviderOfEnvironment, Environment, EnvironmentMode, EnvironmentRequest, Project,
    Reference,
};
use sqlx::{SqliteConnection, SqlitePool};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiResult, UniqueViolation};
use crate::store::organization_resources::CLUSTERS;

/// An environment with where its cluster runs, read in one query.
#[derive(sqlx::FromRow)]
struct EnvironmentRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    organization_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    project_id: Uuid,
    name: String,
    mode: EnvironmentMode,
    #[sqlx(try_from = "Hyphenated")]
    cluster_id: Uuid,
    cluster_name: Option<String>,
    cloud_provider: Option<String>,
    region: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

const SELECT: &str = "SELECT e.id, e.organization_id, e.project_id, e.name, e.mode, e.cluster_id,
        c.name AS cluster_name, json_extract(c.record, '$.cloud_provider') AS cloud_provider,
        json_extract(c.record, '$.region') AS region, e.created_at, e.updated_at
    FROM environments e LEFT JOIN organization_resources c ON c.id = e.cluster_id";

fn environment(row: EnvironmentRow) -> Environment {
    Environment {
        id: row.id,
        created_at: row.created_at,
        updated_at: row.updated_at,
        name: row.name,
        mode: row.mode,
        project: Reference { id: row.project_id },
        organization: Reference {
            id: row.organization_id,
        },
        cluster_id: row.cluster_id,
        cluster_name: row.cluster_name,
        cloud_provider: CloudProviderOfEnvironment {
            provider: row.cloud_provider,
            cluster: row.region,
        },
    }
}

/// The environments of a project, by name.
pub async fn of_project(db: &SqlitePool, project_id: Uuid) -> ApiResult<Vec<Environment>> {
    let rows: Vec<EnvironmentRow> =
        sqlx::query_as(&format!("{SELECT} WHERE e.project_id = ? ORDER BY e.name"))
            .bind(project_id.hyphenated())
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(environment).collect())
}

/// The environments of an organization, by project then name.
pub async fn of_organization(
    db: &SqlitePool,
    organization_id: Uuid,
) -> ApiResult<Vec<Environment>> {
    let rows: Vec<EnvironmentRow> = sqlx::query_as(&format!(
        "{SELECT} JOIN projects p ON p.id = e.project_id WHERE e.organization_id = ?
         ORDER BY p.name, e.name"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(environment).collect())
}

/// The organization's environment `id`, if there is one.
pub async fn find(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Option<Environment>> {
    let row: Option<EnvironmentRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE e.id = ? AND e.organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(conn)
    .await?;
    Ok(row.map(environment))
}

/// The organization's cluster an environment of this mode goes to when its request names none:
/// the oldest production cluster for a production environment, the oldest other one otherwise,
/// any cluster when there is none of that kind.
pub async fn preferred_cluster(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    production: bool,
) -> ApiResult<Option<Uuid>> {
    let id: Option<Hyphenated> = sqlx::query_scalar(
        "SELECT id FROM organization_resources WHERE organization_id = ? AND kind = ?
         ORDER BY json_extract(record, '$.production') = ? DESC, created_at LIMIT 1",
    )
    .bind(organization_id.hyphenated())
    .bind(CLUSTERS.stored_as)
    .bind(production)
    .fetch_optional(conn)
    .await?;
    Ok(id.map(Hyphenated::into_uuid))
}

/// A new environment of the project on `cluster_id`; its id. A name the project has already is
/// a 409.
pub async fn insert(
    conn: &mut SqliteConnection,
    project: &Project,
    request: &EnvironmentRequest,
    cluster_id: Uuid,
) -> ApiResult<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO environments (id, organization_id, project_id, name, mode, cluster_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(project.organization.id.hyphenated())
    .bind(project.id.hyphenated())
    .bind(request.name.trim())
    .bind(request.mode)
    .bind(cluster_id.hyphenated())
    .bind(Utc::now())
    .execute(conn)
    .await
    .on_unique_violation("name", "environment")?;
    Ok(id)
}

/// The environment as `request` says; left out, the cluster stays.
pub async fn update(
    conn: &mut SqliteConnection,
    id: Uuid,
    request: &EnvironmentRequest,
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE environments SET name = ?, mode = ?, cluster_id = COALESCE(?, cluster_id),
         updated_at = ? WHERE id = ?",
    )
    .bind(request.name.trim())
    .bind(request.mode)
    .bind(request.cluster_id.map(|id| id.hyphenated()))
    .bind(Utc::now())
    .bind(id.hyphenated())
    .execute(conn)
    .await
    .on_unique_violation("name", "environment")?;
    Ok(())
}
