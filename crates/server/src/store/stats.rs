//! Counts of what projects and environments hold, each list in one query.

use platform_api::{EnvironmentStats, ProjectStats};
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::ApiResult;

#[derive(sqlx::FromRow)]
struct Counted {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    services: i64,
    environments: i64,
}

/// Each environment of the project with how many services it holds, by name.
pub async fn of_environments(
    db: &SqlitePool,
    project_id: Uuid,
) -> ApiResult<Vec<EnvironmentStats>> {
    let counted: Vec<Counted> = sqlx::query_as(
        "SELECT e.id, COUNT(s.id) AS services, 1 AS environments
         FROM environments e LEFT JOIN services s ON s.environment_id = e.id
         WHERE e.project_id = ? GROUP BY e.id ORDER BY e.name, e.id",
    )
    .bind(project_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(counted
        .into_iter()
        .map(|row| EnvironmentStats {
            id: row.id,
            service_total_number: row.services,
            number: row.services,
        })
        .collect())
}

/// Each project of the organization with how many environments and services it holds, by name.
pub async fn of_projects(db: &SqlitePool, organization_id: Uuid) -> ApiResult<Vec<ProjectStats>> {
    let counted: Vec<Counted> = sqlx::query_as(
        "SELECT p.id,
                (SELECT COUNT(*) FROM environments e WHERE e.project_id = p.id) AS environments,
                (SELECT COUNT(*) FROM environments e JOIN services s ON s.environment_id = e.id
                 WHERE e.project_id = p.id) AS services
         FROM projects p WHERE p.organization_id = ? ORDER BY p.name, p.id",
    )
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(counted
        .into_iter()
        .map(|row| ProjectStats {
            id: row.id,
            service_total_number: row.services,
            environment_total_number: row.environments,
            number: row.services,
        })
        .collect())
}
