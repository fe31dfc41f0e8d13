//! The engine's queue: `GET /service/{id}/deploymentQueue`, the service's action waiting for a
//! worker, if any, with its place in the queue (actions are given workers in the order they were
//! asked for) and what it waits for; `GET /environment/{id}/deploymentQueue`, the requests on an
//! environment waiting, each with its services; `POST /deploymentQueue/{id}/cancelDeployment`,
//! a waiting request canceled before it starts.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::{
    List, QueueWait, QueuedAuditingData, QueuedDeploymentRequest, QueuedEnvironmentRequest,
    QueuedIdentifier, QueuedRequestIdentifier, QueuedServiceIdentifier, QueuedStage,
    QueuedStageService, ServiceType, StageStatus, StatusAction, StatusDetails, TriggerAction,
};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::environments::find_environment;
use crate::routes::Doc;
use crate::routes::RouteTable;
use crate::state::AppState;

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
    )
    .add(
        Method::GET,
        "/environment/{environment_id}/deploymentQueue",
        Permission::Read,
        Doc::new("The requests on an environment's services waiting for the engine, oldest first, each with its services")
            .answers_list_of::<QueuedEnvironmentRequest>(StatusCode::OK),
        environment_queue,
    )
    .add(
        Method::POST,
        "/deploymentQueue/{deployment_request_id}/cancelDeployment",
        Permission::Deploy,
        Doc::new("Cancel a deployment request while it waits in the queue: it never starts")
            .answers_nothing(StatusCode::ACCEPTED),
        cancel_queued,
    );
}

async fn cancel_queued(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(request_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    state.engine.cancel_queued(request_id, &caller).await?;
    Ok(StatusCode::ACCEPTED)
}

#[derive(sqlx::FromRow)]
struct WaitingInEnvironment {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    /// Stored without hyphens (`Uuid::simple`), which `MaybeId` reads as well.
    #[sqlx(try_from = "db::MaybeId")]
    environment_execution_id: Option<Uuid>,
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    kind: ServiceType,
    name: String,
    action: StatusAction,
    triggered_by: String,
    origin: String,
}

async fn environment_queue(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<QueuedEnvironmentRequest>>> {
    find_environment(&state, &caller, environment_id).await?;
    let waiting: Vec<WaitingInEnvironment> = sqlx::query_as(
        "SELECT d.id, d.environment_execution_id, d.service_id, s.kind, s.name, d.action,
                d.triggered_by, d.origin
         FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE s.environment_id = ? AND d.finished_at IS NULL AND d.worker_at IS NULL
         ORDER BY d.rowid",
    )
    .bind(environment_id.hyphenated())
    .fetch_all(&state.db)
    .await?;
    // One request on the environment queued its actions together; a service's own is one.
    let mut requests: Vec<QueuedEnvironmentRequest> = Vec::new();
    for row in waiting {
        let request_id = row.environment_execution_id.unwrap_or(row.id);
        let kind = row.kind;
        let service = QueuedStageService {
            identifier: QueuedServiceIdentifier {
                service_id: row.service_id,
                service_type: kind,
                name: row.name,
            },
            status: StageStatus::Queued,
            icon_uri: kind.default_icon_uri(),
        };
        match requests
            .iter_mut()
            .find(|request| request.identifier.deployment_request_id == request_id)
        {
            Some(request) => request.stages[0].services.push(service),
            None => requests.push(QueuedEnvironmentRequest {
                identifier: QueuedRequestIdentifier {
                    deployment_request_id: request_id,
                    environment_id,
                },
                auditing_data: QueuedAuditingData {
                    triggered_by: row.triggered_by,
                    origin: Some(row.origin),
                },
                trigger_action: match row.action {
                    StatusAction::Deploy => TriggerAction::Deploy,
                    StatusAction::Delete => TriggerAction::Uninstall,
                    StatusAction::Restart => TriggerAction::Restart,
                    StatusAction::Stop => TriggerAction::Stop,
                    StatusAction::Unknown | StatusAction::Other(_) => TriggerAction::Unknown,
                },
                // The engine deploys a request's services together: one stage.
                stages: vec![QueuedStage {
                    name: "Services".into(),
                    status: StageStatus::Queued,
                    services: vec![service],
                }],
            }),
        }
    }
    Ok(Json(List::new(requests)))
}

#[derive(sqlx::FromRow)]
struct Waiting {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    kind: ServiceType,
    name: String,
    action: StatusAction,
    sub_action: platform_api::SubAction,
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
    let known: Option<Hyphenated> =
        sqlx::query_scalar("SELECT id FROM services WHERE id = ? AND organization_id = ?")
            .bind(service_id.hyphenated())
            .bind(caller.organization_id.hyphenated())
            .fetch_optional(&state.db)
            .await?;
    known.ok_or_else(|| ApiError::not_found("service"))?;
    // An organization's actions get a worker in the order of their requests (`rowid`): those
    // ahead of it in the organization are its unfinished ones without a worker asked for before.
    // Other organizations' are counted by the engine, which gives each organization its turn.
    let waiting: Vec<Waiting> = sqlx::query_as(
        "SELECT d.id, d.service_id, s.kind, s.name, d.action, d.sub_action, d.triggered_by,
                d.origin, d.created_at,
                (SELECT COUNT(*) FROM deployments w JOIN services o ON o.id = w.service_id
                 WHERE w.finished_at IS NULL AND w.worker_at IS NULL AND w.rowid < d.rowid
                   AND o.organization_id = s.organization_id) AS ahead,
                (SELECT COUNT(*) FROM deployments w JOIN services o ON o.id = w.service_id
                 WHERE w.finished_at IS NULL AND w.worker_at IS NULL AND w.rowid < d.rowid
                   AND o.environment_id = s.environment_id) AS ahead_in_environment,
                (SELECT COUNT(*) FROM deployments w
                 WHERE w.finished_at IS NULL AND w.worker_at IS NOT NULL) AS busy
         FROM deployments d JOIN services s ON s.id = d.service_id
         WHERE d.service_id = ? AND d.finished_at IS NULL AND d.worker_at IS NULL",
    )
    .bind(service_id.hyphenated())
    .fetch_all(&state.db)
    .await?;
    let workers = i64::try_from(state.engine.workers.count()).unwrap_or(i64::MAX);
    let results = waiting
        .into_iter()
        .map(|row| {
            let kind = row.kind;
            let ahead_elsewhere = state
                .engine
                .workers
                .place(caller.organization_id, row.id)
                .map_or(0, |place| place.others_ahead as i64);
            QueuedDeploymentRequest {
                identifier: QueuedIdentifier {
                    deployment_request_id: row.id,
                    service_id: row.service_id,
                    service_type: kind,
                    name: row.name,
                },
                auditing_data: QueuedAuditingData {
                    triggered_by: row.triggered_by,
                    origin: Some(row.origin),
                },
                status_details: StatusDetails {
                    action: row.action,
                    status: platform_api::ActionStatus::Queued,
                    sub_action: row.sub_action,
                },
                icon_uri: kind.default_icon_uri(),
                queued_at: Some(row.created_at),
                position: Some(row.ahead + ahead_elsewhere + 1),
                waiting_for: Some(QueueWait {
                    workers,
                    busy_workers: row.busy.min(workers),
                    ahead: row.ahead,
                    ahead_in_environment: row.ahead_in_environment,
                    ahead_elsewhere,
                }),
            }
        })
        .collect();
    Ok(Json(List::new(results)))
}
