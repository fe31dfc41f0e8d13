//! What a cluster runs and ran: the lines its last action logged, and the environments (with
//! their services) placed on it.

use chrono::{DateTime, Utc};
use platform_api::{
    ClusterEnvironment, ClusterEnvironmentService, ClusterLogLine, ClusterLogMessage,
    ClusterLogStep, ServiceType,
};
use sqlx::SqlitePool;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::ApiResult;

/// The lines the cluster's last action logged, oldest first.
pub async fn last_logs(db: &SqlitePool, cluster_id: Uuid) -> ApiResult<Vec<ClusterLogLine>> {
    #[derive(sqlx::FromRow)]
    struct Line {
        created_at: DateTime<Utc>,
        level: String,
        step: ClusterLogStep,
        message: String,
    }
    let lines: Vec<Line> = sqlx::query_as(
        "SELECT l.created_at, l.level, l.step, l.message
         FROM cluster_statuses s
         JOIN cluster_logs l ON l.cluster_id = s.cluster_id AND l.execution_id = s.last_execution_id
         WHERE s.cluster_id = ? ORDER BY l.position",
    )
    .bind(cluster_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(lines
        .into_iter()
        .map(|line| ClusterLogLine {
            level: Some(line.level),
            timestamp: Some(line.created_at),
            step: Some(line.step),
            message: Some(ClusterLogMessage {
                safe_message: Some(line.message),
            }),
        })
        .collect())
}

/// The environments placed on the cluster, by project and name, each with its services.
pub async fn environments_on(
    db: &SqlitePool,
    cluster_id: Uuid,
) -> ApiResult<Vec<ClusterEnvironment>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(try_from = "Hyphenated")]
        environment_id: Uuid,
        environment_name: String,
        #[sqlx(try_from = "Hyphenated")]
        project_id: Uuid,
        project_name: String,
        #[sqlx(try_from = "crate::db::MaybeId")]
        service_id: Option<Uuid>,
        service_name: Option<String>,
        kind: Option<ServiceType>,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT e.id AS environment_id, e.name AS environment_name, p.id AS project_id,
                p.name AS project_name, s.id AS service_id, s.name AS service_name, s.kind
         FROM environments e
         JOIN projects p ON p.id = e.project_id
         LEFT JOIN services s ON s.environment_id = e.id
         WHERE e.cluster_id = ?
         ORDER BY p.name, e.name, e.id, s.name",
    )
    .bind(cluster_id.hyphenated())
    .fetch_all(db)
    .await?;
    let mut environments: Vec<ClusterEnvironment> = Vec::new();
    for row in rows {
        if environments.last().map(|e| e.environment_id) != Some(row.environment_id) {
            environments.push(ClusterEnvironment {
                environment_id: row.environment_id,
                environment_name: row.environment_name,
                project_id: row.project_id,
                project_name: row.project_name,
                services: Vec::new(),
            });
        }
        if let (Some(id), Some(name), Some(service_type), Some(environment)) = (
            row.service_id,
            row.service_name,
            row.kind,
            environments.last_mut(),
        ) {
            environment.services.push(ClusterEnvironmentService {
                id,
                name,
                service_type,
            });
        }
    }
    Ok(environments)
}
