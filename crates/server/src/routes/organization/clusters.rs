//! Clusters: the record on the shared layer, plus status (spec 2.19) with its lock, and a fresh
//! short-lived token at each call (spec 2.20).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use chrono::{DateTime, Duration, Utc};
use platform_api::audit::{EventType, SubTargetType, TargetType};
use platform_api::paths::{self, Template};
use platform_api::{
    changed_features, made_features, next_kubernetes_version, Cluster, ClusterLock,
    ClusterLockRequest, ClusterRequest, ClusterStatus, ClusterToken, ClusterTokenStatus,
    FieldError, InfraReason, List, Reference,
};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::auth::generate_token;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::organization::resources::{self, OrganizationResource};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::seal::Secrets;
use crate::state::AppState;
use crate::store::cluster_statuses;
use crate::store::organization_resources::UsedBy;
use crate::store::organization_resources::{self as store, Kind};

/// How long a cluster token lives.
const TOKEN_LIFETIME_MINUTES: i64 = 15;

pub struct Clusters;

impl OrganizationResource for Clusters {
    const KIND: Kind = store::CLUSTERS;
    const AUDITED_AS: (TargetType, Option<SubTargetType>) = (TargetType::Cluster, None);
    const COLLECTION: Template = paths::CLUSTERS;
    const ITEM: Template = paths::CLUSTER;

    type Request = ClusterRequest;
    type Record = Cluster;

    fn validate(request: &Self::Request, _kept: &[&str]) -> Result<(), Vec<FieldError>> {
        request.validate()
    }

    /// A cluster's features are fixed once it is made.
    fn validate_change(previous: &Self::Record, request: &Self::Request) -> Vec<FieldError> {
        changed_features(&request.features, &previous.features)
    }

    fn build(
        id: Uuid,
        organization_id: Uuid,
        created_at: DateTime<Utc>,
        updated_at: Option<DateTime<Utc>>,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> (Self::Record, Secrets) {
        let instance_type = request.instance_type_or_default();
        let features = match previous {
            Some(previous) => previous.features.clone(),
            None => made_features(request.cloud_provider, &request.features),
        };
        let cluster = Cluster {
            id,
            created_at,
            updated_at,
            organization: Reference {
                id: organization_id,
            },
            version: request.version_or_default(),
            name: request.name.trim().to_string(),
            description: request.description,
            cloud_provider: request.cloud_provider,
            region: request.region.trim().to_string(),
            production: request.production,
            instance_type,
            min_running_nodes: request.min_running_nodes,
            max_running_nodes: request.max_running_nodes,
            features,
        };
        (cluster, Secrets::new())
    }

    const USED_BY: UsedBy = UsedBy::Environments;

    fn name(record: &Self::Record) -> String {
        record.name.clone()
    }

    fn created_at(record: &Self::Record) -> DateTime<Utc> {
        record.created_at
    }
}

pub fn register(routes: &mut RouteTable) {
    resources::register::<Clusters>(routes);
    let lock = paths::CLUSTER_LOCK;
    routes
        .add(
            Method::GET,
            paths::CLUSTER_STATUS,
            Permission::Read,
            Doc::new("The status of a cluster").answers::<ClusterStatus>(StatusCode::OK),
            get_status,
        )
        .add(
            Method::POST,
            lock,
            Permission::Admin,
            Doc::new("Lock a cluster against changes for some days")
                .body::<ClusterLockRequest>()
                .answers::<ClusterLock>(StatusCode::OK),
            lock_cluster,
        )
        .add(
            Method::DELETE,
            lock,
            Permission::Admin,
            Doc::new("Unlock a cluster").answers_nothing(StatusCode::NO_CONTENT),
            unlock_cluster,
        )
        .add(
            Method::GET,
            "/organization/{organization_id}/lock",
            Permission::Read,
            Doc::new("The organization's clusters' locks still in force")
                .answers_list_of::<ClusterLock>(StatusCode::OK),
            list_locks,
        )
        .add(
            Method::POST,
            paths::CLUSTER_UPGRADE,
            Permission::Deploy,
            Doc::new("Upgrade a cluster to its next Kubernetes version")
                .answers::<ClusterStatus>(StatusCode::CREATED),
            upgrade_cluster,
        )
        .add(
            Method::GET,
            paths::CLUSTER_TOKEN,
            Permission::Admin,
            Doc::new("A fresh, short-lived token to reach the cluster")
                .answers::<ClusterToken>(StatusCode::OK),
            get_token,
        );
}

async fn get_status(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ClusterStatus>> {
    own_organization(&caller, organization_id)?;
    // One snapshot for the record and its status: an upgrade that ends between two reads would
    // read as done on the old version.
    let mut snapshot = state.db.begin().await?;
    Ok(Json(
        status(&mut snapshot, organization_id, cluster_id).await?,
    ))
}

async fn lock_cluster(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ClusterLockRequest>,
) -> ApiResult<Json<ClusterLock>> {
    let organization_id = caller.organization_id;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    status(&mut tx, organization_id, cluster_id).await?;
    let lock = ClusterLock {
        reason: request.reason.trim().to_string(),
        cluster_id,
        locked_at: Utc::now(),
        owner_name: caller.name.clone(),
        ttl_in_days: request.ttl_in_days,
    };
    cluster_statuses::set_lock(&mut tx, cluster_id, Some(&lock)).await?;
    let change = cluster_change(&mut tx, EventType::Lock, organization_id, cluster_id)
        .await?
        .after(&lock);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(lock))
}

async fn unlock_cluster(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    let organization_id = caller.organization_id;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = status(&mut tx, organization_id, cluster_id).await?;
    cluster_statuses::set_lock(&mut tx, cluster_id, None).await?;
    let change = cluster_change(&mut tx, EventType::Unlock, organization_id, cluster_id)
        .await?
        .before(&before.cluster_lock);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn list_locks(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<ClusterLock>>> {
    own_organization(&caller, organization_id)?;
    let locks = cluster_statuses::locks(&state.db, organization_id).await?;
    Ok(Json(List::new(
        locks.into_iter().filter(in_force).collect(),
    )))
}

/// Whether the lock's days are not over yet.
fn in_force(lock: &ClusterLock) -> bool {
    lock.locked_at + Duration::days(lock.ttl_in_days) > Utc::now()
}

/// A change to a cluster, for the audit log.
pub(crate) async fn cluster_change(
    conn: &mut SqliteConnection,
    event_type: EventType,
    organization_id: Uuid,
    cluster_id: Uuid,
) -> ApiResult<Change> {
    let cluster = store::find::<Cluster>(conn, Clusters::KIND, organization_id, cluster_id).await?;
    let target = Target::new(TargetType::Cluster, cluster_id, cluster.record.name);
    Ok(Change::new(event_type, target))
}

/// 400 without a newer version, 409 while the cluster is locked or busy.
async fn upgrade_cluster(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
) -> ApiResult<(StatusCode, Json<ClusterStatus>)> {
    let organization_id = caller.organization_id;
    let mut tx = db::begin_write(&state.writes).await?;
    let current = status(&mut tx, organization_id, cluster_id).await?;
    free_to_act(&current)?;
    let Some(version) = current.next_k8s_available_version else {
        return Err(ApiError::bad_request(
            "The cluster runs the latest Kubernetes version; there is nothing to upgrade to.",
        ));
    };
    state
        .engine
        .queue_cluster_upgrade(&mut tx, cluster_id, &version)
        .await?;
    let upgrading = status(&mut tx, organization_id, cluster_id).await?;
    let change = cluster_change(
        &mut tx,
        EventType::TriggerDeploy,
        organization_id,
        cluster_id,
    )
    .await?
    .after(&serde_json::json!({ "upgrading_to": version }));
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    state.engine.start_cluster_upgrade(cluster_id);
    Ok((StatusCode::CREATED, Json(upgrading)))
}

/// 409 while the cluster is locked or the engine works on it (an upgrade, a deployment, a
/// stop): one action at a time.
pub(crate) fn free_to_act(current: &ClusterStatus) -> ApiResult<()> {
    if let Some(lock) = &current.cluster_lock {
        return Err(ApiError::conflict(format!(
            "The cluster is locked by {} ({}); unlock it first.",
            lock.owner_name, lock.reason
        )));
    }
    if current.status.is_in_progress() {
        return Err(ApiError::conflict(
            "The engine is working on this cluster; wait for it to finish.",
        ));
    }
    Ok(())
}

async fn get_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
) -> ApiResult<Json<ClusterToken>> {
    store::find::<Cluster>(
        &state.db,
        Clusters::KIND,
        caller.organization_id,
        cluster_id,
    )
    .await?;
    Ok(Json(ClusterToken {
        api_version: "client.authentication.k8s.io/v1".to_string(),
        kind: "ExecCredential".to_string(),
        spec: serde_json::json!({}),
        status: ClusterTokenStatus {
            token: generate_token(),
            expiration_timestamp: Utc::now() + Duration::minutes(TOKEN_LIFETIME_MINUTES),
        },
    }))
}

/// The cluster's status; READY and not deployed until the engine works on it. A lock whose days
/// are over is no longer shown.
pub(crate) async fn status(
    db: &mut SqliteConnection,
    organization_id: Uuid,
    cluster_id: Uuid,
) -> ApiResult<ClusterStatus> {
    let cluster = store::find::<Cluster>(&mut *db, Clusters::KIND, organization_id, cluster_id)
        .await?
        .record;
    let row = cluster_statuses::find(db, cluster_id).await?;
    Ok(ClusterStatus {
        cluster_id,
        status: row.status,
        is_deployed: row.is_deployed,
        next_k8s_available_version: next_kubernetes_version(&cluster.version).map(str::to_string),
        last_execution_id: row.last_execution_id,
        cluster_lock: row.lock.filter(in_force),
        last_deployment_date: row.last_deployment_date,
        reason: InfraReason::Unspecified,
    })
}
