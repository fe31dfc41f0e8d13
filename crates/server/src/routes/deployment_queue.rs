//! `GET /service/{id}/deploymentQueue`: the service's action waiting for a worker, if any, with
//! its place in the engine's queue (actions are given workers in the order they were asked for)
//! and what it waits for.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{
    List, QueueWait, QueuedAuditingData, QueuedDeploymentRequest, QueuedIdentifier, ServiceType,
    StatusDetails,
};
use uuid::Uuid;

use super::RouteTable;
use crate::auth::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::Doc;
use crate::AppState;

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        "/service/{service_id}/deploymentQueue",
        Permission::Read,
        Doc::new(
            "The service's action waiting for a worker, with its place in the queue (`position`, from 1) and what it waits for (`waiting_for`)",
        )
        .answers_list_of::<QueuedDeploymentRequest>(StatusCode::OK),
        service_queue,
    );
}

#[derive(sqlx::FromRow)]
struct Waiting {
    id: String,
    service_id: String,
    kind: String,
    name: String,
    action: String,
    sub_action: String,
    triggered_by: String,
    origin: String,
    created_at: chrono::DateTime<chrono::Utc>,
    ahead: i64,
    ahead_in_environment: i64,
    busy: i64,
}

async fn service_queue(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<QueuedDeploymentRequest>>> {
    let known: Option<(String,)> =
        sqlx::query_as("SELECT id FROM services WHERE id = ? AND organization_id = ?")
            .bind(service_id.to_string())
            .bind(caller.organization_id.to_string())
            .fetch_optional(&state.db)
            .await?;
    known.ok_or_else(|| ApiError::not_found("service"))?;
    // Actions get a worker in the order of their requests (`rowid`): those ahead are the
    // unfinished ones without a worker asked for before.
    let waiting: Vec<Waiting> = sqlx::query_as(
        "SELECT d.id, d.service_id, s.kind, s.name, d.action, d.sub_action, d.triggered_by,
                d.origin, d.created_at,
                (SELECT COUNT(*) FROM deployments w
                 WHERE w.finished_at IS NULL AND w.worker_at IS NULL AND w.rowid < d.rowid) AS ahead,
                (SELECT COUNT(*) FROM deployments w JOIN services o ON o.id = w.service_id
                 WHERE w.finished_at IS NULL AND w.worker_at IS NULL AND w.rowid < d.rowid
                   AND o.environment_id = s.environment_id) AS ahead_in_environment,
                (SELECT COUNT(*) FROM deployments w
                 WHERE w.finished_at IS NULL AND w.worker_at IS NOT NULL) AS busy
         FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE d.service_id = ? AND d.finished_at IS NULL AND d.worker_at IS NULL",
    )
    .bind(service_id.to_string())
    .fetch_all(&state.db)
    .await?;
    let workers = i64::try_from(state.engine.worker_count).unwrap_or(i64::MAX);
    let results = waiting
        .into_iter()
        .map(|row| {
            let kind: ServiceType = db::wire(&row.kind)?;
            Ok(QueuedDeploymentRequest {
                identifier: QueuedIdentifier {
                    deployment_request_id: db::id(&row.id)?,
                    service_id: db::id(&row.service_id)?,
                    service_type: kind,
                    name: row.name,
                },
                auditing_data: QueuedAuditingData {
                    triggered_by: row.triggered_by,
                    origin: Some(row.origin),
                },
                status_details: StatusDetails {
                    action: db::wire(&row.action)?,
                    status: platform_api::ActionStatus::Queued,
                    sub_action: db::wire(&row.sub_action)?,
                },
                icon_uri: kind.default_icon_uri(),
                queued_at: Some(row.created_at),
                position: Some(row.ahead + 1),
                waiting_for: Some(QueueWait {
                    workers,
                    busy_workers: row.busy.min(workers),
                    ahead: row.ahead,
                    ahead_in_environment: row.ahead_in_environment,
                }),
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(List::new(results)))
}
