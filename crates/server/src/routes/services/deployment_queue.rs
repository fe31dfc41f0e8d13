//! The engine's queue: `GET /service/{id}/deploymentQueue`, the service's action waiting for a
//! worker, if any, with its place in the queue (actions are given workers in the order they were
//! asked for) and what it waits for; `GET /environment/{id}/deploymentQueue`, the requests on an
//! environment waiting, each with its services; `POST /deploymentQueue/{id}/cancelDeployment`,
//! a waiting request canceled before it starts.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::paths;
use platform_api::{
    List, QueueWait, QueuedAuditingData, QueuedDeploymentRequest, QueuedEnvironmentRequest,
    QueuedIdentifier, QueuedRequestIdentifier, QueuedServiceIdentifier, QueuedStage,
    QueuedStageService, StageStatus, StatusAction, StatusDetails, TriggerAction,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiResult};
use crate::routes::environments::find_environment;
use crate::routes::Doc;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::{deployment_queue, services};

pub fn register(routes: &mut RouteTable) {
    routes.add(
        Method::GET,
        paths::SERVICE_QUEUE,
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
        paths::QUEUED_CANCEL,
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

async fn environment_queue(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(environment_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<QueuedEnvironmentRequest>>> {
    find_environment(&state, &caller, environment_id).await?;
    let waiting = deployment_queue::in_environment(&state.db, environment_id).await?;
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

async fn service_queue(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(service_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<QueuedDeploymentRequest>>> {
    if !services::in_organization(&state.db, caller.organization_id, service_id).await? {
        return Err(ApiError::not_found("service"));
    }
    let waiting = deployment_queue::of_service(&state.db, service_id).await?;
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
