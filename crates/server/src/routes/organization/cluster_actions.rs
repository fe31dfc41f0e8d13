//! A cluster run from the console: deployed (installed or updated) and stopped through the
//! engine, its last action's log, whether it is ready, the organization's clusters' statuses at
//! once, and the environments running on it.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::EventType;
use platform_api::paths::{self, Template};
use platform_api::{
    ClusterAction, ClusterEnvironment, ClusterLogLine, ClusterReadiness, ClusterState,
    ClusterStatus, List,
};
use serde::Deserialize;
use uuid::Uuid;

use crate::audit;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiPath, ApiQuery, ApiResult};
use crate::routes::doc::{self, Doc};
use crate::routes::organization::clusters::{cluster_change, free_to_act, status, Clusters};
use crate::routes::organization::resources::OrganizationResource;
use crate::routes::own_organization;
use crate::routes::RouteTable;
use crate::state::AppState;
use crate::store::cluster_runs;
use crate::store::organization_resources as store;

const ITEM: Template = paths::CLUSTER;

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::POST,
            paths::CLUSTER_DEPLOY,
            Permission::Deploy,
            Doc::new(
                "Deploy (install or update) a cluster through the engine (simulated: no cloud \
                 is reached); `dry_run=true` checks that it may and starts nothing",
            )
            .query("dry_run", false, doc::boolean())
            .answers::<ClusterStatus>(StatusCode::CREATED),
            deploy,
        )
        .add(
            Method::POST,
            paths::CLUSTER_STOP,
            Permission::Deploy,
            Doc::new("Stop a cluster through the engine: its nodes scale down to zero")
                .answers::<ClusterStatus>(StatusCode::ACCEPTED),
            stop,
        )
        .add(
            Method::GET,
            paths::CLUSTER_ACTION_LOG,
            Permission::Read,
            Doc::new("The log of a cluster's last deployment or stop, oldest line first")
                .answers_list_of::<ClusterLogLine>(StatusCode::OK),
            logs,
        )
        .add(
            Method::GET,
            format!("{ITEM}/isReady"),
            Permission::Read,
            Doc::new("Whether a cluster is deployed and nothing runs on it")
                .answers::<ClusterReadiness>(StatusCode::OK),
            is_ready,
        )
        .add(
            Method::GET,
            paths::CLUSTER_STATUSES,
            Permission::Read,
            Doc::new("The status of every cluster of the organization, in one request")
                .answers_list_of::<ClusterStatus>(StatusCode::OK),
            statuses,
        )
        .add(
            Method::GET,
            paths::CLUSTER_ENVIRONMENTS,
            Permission::Read,
            Doc::new("The environments running on a cluster, each with its services")
                .answers_list_of::<ClusterEnvironment>(StatusCode::OK),
            environments,
        );
}

#[derive(Deserialize)]
struct DeployQuery {
    #[serde(default)]
    dry_run: bool,
}

async fn deploy(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
    ApiQuery(query): ApiQuery<DeployQuery>,
) -> ApiResult<(StatusCode, Json<ClusterStatus>)> {
    let started = start(
        &state,
        &caller,
        (organization_id, cluster_id),
        ClusterAction::Deploy,
        query.dry_run,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(started)))
}

async fn stop(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<(StatusCode, Json<ClusterStatus>)> {
    let started = start(
        &state,
        &caller,
        (organization_id, cluster_id),
        ClusterAction::Stop,
        false,
    )
    .await?;
    Ok((StatusCode::ACCEPTED, Json(started)))
}

/// Queues `action` on the cluster unless it is locked or busy (409), or, for a stop, not
/// deployed (400); with `dry_run`, checks only.
async fn start(
    state: &AppState,
    caller: &Caller,
    (organization_id, cluster_id): (Uuid, Uuid),
    action: ClusterAction,
    dry_run: bool,
) -> ApiResult<ClusterStatus> {
    own_organization(caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let current = status(&mut tx, organization_id, cluster_id).await?;
    free_to_act(&current)?;
    if action == ClusterAction::Stop && !current.is_deployed {
        return Err(ApiError::bad_request(
            "The cluster was never deployed; there is nothing to stop.",
        ));
    }
    if action == ClusterAction::Stop && current.status == ClusterState::Stopped {
        return Err(ApiError::bad_request("The cluster is already stopped."));
    }
    if dry_run {
        return Ok(ClusterStatus {
            status: ClusterState::DryRun,
            ..current
        });
    }
    state
        .engine
        .queue_cluster_action(&mut tx, cluster_id, action)
        .await?;
    let queued = status(&mut tx, organization_id, cluster_id).await?;
    let event = match action {
        ClusterAction::Stop => EventType::TriggerStop,
        _ => EventType::TriggerDeploy,
    };
    let change = cluster_change(&mut tx, event, organization_id, cluster_id)
        .await?
        .after(&serde_json::json!({ "action": action }));
    audit::record(&mut tx, caller, change).await?;
    tx.commit().await?;
    state.engine.start_cluster_action(cluster_id);
    Ok(queued)
}

async fn logs(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<List<ClusterLogLine>>> {
    own_organization(&caller, organization_id)?;
    store::find::<platform_api::Cluster>(&state.db, Clusters::KIND, organization_id, cluster_id)
        .await?;
    Ok(Json(List::new(
        cluster_runs::last_logs(&state.db, cluster_id).await?,
    )))
}

async fn is_ready(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ClusterReadiness>> {
    own_organization(&caller, organization_id)?;
    let current = status(&mut *state.db.acquire().await?, organization_id, cluster_id).await?;
    Ok(Json(ClusterReadiness {
        is_ready: current.is_deployed && current.status == ClusterState::Deployed,
    }))
}

async fn statuses(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ClusterStatus>>> {
    own_organization(&caller, organization_id)?;
    let clusters =
        store::list::<platform_api::Cluster>(&state.db, Clusters::KIND, organization_id).await?;
    // An organization has a few clusters: one status read each.
    let mut snapshot = state.db.begin().await?;
    let mut statuses = Vec::with_capacity(clusters.len());
    for (id, _) in clusters {
        statuses.push(status(&mut snapshot, organization_id, id).await?);
    }
    Ok(Json(List::new(statuses)))
}

async fn environments(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ClusterEnvironment>>> {
    store::find::<platform_api::Cluster>(
        &state.db,
        Clusters::KIND,
        caller.organization_id,
        cluster_id,
    )
    .await?;
    Ok(Json(List::new(
        cluster_runs::environments_on(&state.db, cluster_id).await?,
    )))
}
