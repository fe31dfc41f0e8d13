//! The organization's services with where each lives (the document's `ServiceLightResponse`),
//! in one query: the organization's list (`GET /organization/{id}/services`) and the services
//! alert rules watch.

use platform_api::{JobType, ServiceLight, ServiceType, ServicesQuery};
use sqlx::SqliteExecutor;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

#[derive(sqlx::FromRow)]
struct ServiceLightRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    name: String,
    description: Option<String>,
    kind: ServiceType,
    job_type: Option<JobType>,
    #[sqlx(try_from = "Hyphenated")]
    project_id: Uuid,
    project_name: String,
    #[sqlx(try_from = "Hyphenated")]
    environment_id: Uuid,
    environment_name: String,
    #[sqlx(try_from = "Hyphenated")]
    cluster_id: Uuid,
}

/// The organization's services that the query's filters keep, by project, environment and name.
pub async fn services<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    query: ServicesQuery,
) -> sqlx::Result<Vec<ServiceLight>> {
    select(db, organization_id, query, None).await
}

/// The organization's services of `ids` (those it has).
pub async fn services_of_ids<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    ids: &[Uuid],
) -> sqlx::Result<Vec<ServiceLight>> {
    let ids: Vec<String> = ids.iter().map(|id| id.hyphenated().to_string()).collect();
    let ids = serde_json::to_string(&ids).unwrap_or_default();
    select(db, organization_id, ServicesQuery::default(), Some(ids)).await
}

async fn select<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    query: ServicesQuery,
    ids_json: Option<String>,
) -> sqlx::Result<Vec<ServiceLight>> {
    let rows: Vec<ServiceLightRow> = sqlx::query_as(
        "SELECT s.id, s.name, json_extract(s.spec, '$.description') AS description, s.kind,
                CASE WHEN s.kind = 'JOB' THEN
                    CASE WHEN json_extract(s.spec, '$.schedule.cronjob') IS NULL THEN 'LIFECYCLE'
                         ELSE 'CRON' END
                END AS job_type,
                p.id AS project_id, p.name AS project_name,
                e.id AS environment_id, e.name AS environment_name, e.cluster_id
         FROM services s JOIN environments e ON e.id = s.environment_id
         JOIN projects p ON p.id = e.project_id
         WHERE s.organization_id = ?1
           AND (?2 IS NULL OR p.id = ?2) AND (?3 IS NULL OR e.id = ?3)
           AND (?4 IS NULL OR e.cluster_id = ?4)
           AND (?5 IS NULL OR s.id IN (SELECT value FROM json_each(?5)))
         ORDER BY p.name, e.name, s.name",
    )
    .bind(organization_id.hyphenated())
    .bind(query.project_id.map(|id| id.hyphenated()))
    .bind(query.environment_id.map(|id| id.hyphenated()))
    .bind(query.cluster_id.map(|id| id.hyphenated()))
    .bind(ids_json)
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| ServiceLight {
            id: row.id,
            name: row.name,
            description: row.description.unwrap_or_default(),
            icon_uri: row.kind.default_icon_uri(),
            service_type: row.kind,
            project_id: row.project_id,
            project_name: row.project_name,
            environment_id: row.environment_id,
            environment_name: row.environment_name,
            cluster_id: row.cluster_id,
            job_type: row.job_type,
        })
        .collect())
}
