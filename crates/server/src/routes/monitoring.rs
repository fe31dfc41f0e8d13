//! How services are doing, through the document's monitoring routes: a cluster's metrics
//! (PromQL), logs (LogQL) and Kubernetes events, answered by the simulated cluster
//! (`crate::telemetry`) for the caller's organization's services only.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::monitoring::{EventsParameters, LogsParameters, MetricsParameters};
use platform_api::paths;
use platform_api::{
    ClusterLogsResponse, ClusterMetricsResponse, FieldError, KubernetesEvent, List,
};
use uuid::Uuid;

use crate::caller::{Caller, Permission};
use crate::error::{ApiError, ApiPath, ApiQuery, ApiResult};
use crate::routes::doc;
use crate::routes::organization::clusters::Clusters;
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::runs;
use crate::telemetry::Refusal;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::CLUSTER_METRICS,
            Permission::Read,
            Doc::new(
                "The cluster's metrics through its Prometheus API (simulated on this server from \
                 the services' history): a range or instant PromQL query, or a label's values",
            )
            .query("endpoint", true, doc::text())
            .query("query", true, doc::text())
            .query("start", false, doc::text())
            .query("end", false, doc::text())
            .query("step", false, doc::text())
            .query("time", false, doc::text())
            .answers::<ClusterMetricsResponse>(StatusCode::OK),
            metrics,
        )
        .add(
            Method::GET,
            paths::CLUSTER_LOGS,
            Permission::Read,
            Doc::new(
                "The cluster's logs through its Loki API (simulated on this server): the lines a \
                 LogQL query keeps, counts of them, or a label's values",
            )
            .query("endpoint", true, doc::text())
            .query("query", true, doc::text())
            .query("start", false, doc::text())
            .query("end", false, doc::text())
            .query("limit", false, doc::text())
            .query("direction", false, doc::one_of(["backward", "forward"]))
            .query("step", false, doc::text())
            .query("time", false, doc::text())
            .answers::<ClusterLogsResponse>(StatusCode::OK),
            logs,
        )
        .add(
            Method::GET,
            paths::CLUSTER_EVENTS,
            Permission::Read,
            Doc::new(
                "The Kubernetes events of the organization's services on the cluster between two \
                 times, newest first (simulated on this server)",
            )
            .query("from_date_time", true, doc::text())
            .query("to_date_time", true, doc::text())
            .query("pod_name", false, doc::text())
            .query("node_name", false, doc::text())
            .query("reporting_component", false, doc::text())
            .answers_list_of::<KubernetesEvent>(StatusCode::OK),
            events,
        );
}

/// The caller's organization and the cluster, or 404 when the cluster is not one of its.
async fn own_cluster(
    state: &AppState,
    caller: &Caller,
    cluster_id: Uuid,
) -> ApiResult<(Uuid, Uuid)> {
    let organization_id = caller.organization_id;
    let stored_as = Clusters::KIND.stored_as;
    if runs::cluster_of(&state.db, organization_id, cluster_id, stored_as).await? {
        Ok((organization_id, cluster_id))
    } else {
        Err(ApiError::not_found("cluster"))
    }
}

fn refused(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Parameter { name, message } => {
            ApiError::invalid(vec![FieldError::new(name, message)])
        }
        Refusal::Busy => ApiError::busy(),
    }
}

async fn metrics(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
    ApiQuery(request): ApiQuery<MetricsParameters>,
) -> ApiResult<Json<ClusterMetricsResponse>> {
    let scope = own_cluster(&state, &caller, cluster_id).await?;
    let metrics = state
        .telemetry
        .metrics(&state.db, scope, request)
        .await
        .map_err(refused)?;
    Ok(Json(ClusterMetricsResponse {
        metrics: Some(metrics),
    }))
}

async fn logs(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
    ApiQuery(request): ApiQuery<LogsParameters>,
) -> ApiResult<Json<ClusterLogsResponse>> {
    let scope = own_cluster(&state, &caller, cluster_id).await?;
    let response = state
        .telemetry
        .logs(&state.db, scope, request)
        .await
        .map_err(refused)?;
    Ok(Json(ClusterLogsResponse {
        response: Some(response),
    }))
}

async fn events(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
    ApiQuery(request): ApiQuery<EventsParameters>,
) -> ApiResult<Json<List<KubernetesEvent>>> {
    let scope = own_cluster(&state, &caller, cluster_id).await?;
    let events = state
        .telemetry
        .events(&state.db, scope, request)
        .await
        .map_err(refused)?;
    Ok(Json(List::new(events)))
}
