//! A cluster's network: its DNS provider (`/cluster/{id}/dnsProvider`), under whose domain its
//! services' custom domains are pointed and by whom their records are written, and its routing
//! table (`…/cluster/{id}/routingTable`), applied by the cluster's next deployment.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::paths;
use platform_api::{
    CloudProvider, Cluster, ClusterDnsProvider, ClusterRoutingTable, ClusterRoutingTableRequest,
    FieldError, Route,
};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::audit;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::organization::clusters::cluster_change;
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::cluster_network as store;
use crate::store::organization_resources::{self as resources, CLUSTERS};

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::CLUSTER_DNS_PROVIDER,
            Permission::Read,
            Doc::new(
                "Who writes a cluster's DNS records and under which domain (the platform's own \
                 until another is chosen); its secret is never answered",
            )
            .answers::<ClusterDnsProvider>(StatusCode::OK),
            get_dns_provider,
        )
        .add(
            Method::PUT,
            paths::CLUSTER_DNS_PROVIDER,
            Permission::Admin,
            Doc::new(
                "Choose a cluster's DNS provider: its services' custom domains point under its \
                 domain from now on, and their deployments write their records there. The \
                 provider's secret is sent on every edit and kept sealed",
            )
            .body::<ClusterDnsProvider>()
            .answers::<ClusterDnsProvider>(StatusCode::OK),
            edit_dns_provider,
        )
        .add(
            Method::GET,
            paths::CLUSTER_ROUTING_TABLE,
            Permission::Read,
            Doc::new("The routes a cluster's network sends beyond itself")
                .answers::<ClusterRoutingTable>(StatusCode::OK),
            get_routing_table,
        )
        .add(
            Method::PUT,
            paths::CLUSTER_ROUTING_TABLE,
            Permission::Admin,
            Doc::new(
                "Replace an AWS cluster's routing table; its next deployment applies it, each \
                 route in its log",
            )
            .body::<ClusterRoutingTableRequest>()
            .answers::<ClusterRoutingTable>(StatusCode::CREATED),
            edit_routing_table,
        );
}

async fn find_cluster(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    cluster_id: Uuid,
) -> ApiResult<Cluster> {
    Ok(
        resources::find::<Cluster>(conn, CLUSTERS, organization_id, cluster_id)
            .await?
            .record,
    )
}

async fn get_dns_provider(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
) -> ApiResult<Json<ClusterDnsProvider>> {
    let mut conn = state.db.acquire().await?;
    find_cluster(&mut conn, caller.organization_id, cluster_id).await?;
    Ok(Json(ClusterDnsProvider {
        dns_provider: store::dns_provider(&mut conn, cluster_id).await?,
    }))
}

async fn edit_dns_provider(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(cluster_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<ClusterDnsProvider>,
) -> ApiResult<Json<ClusterDnsProvider>> {
    let given = request.dns_provider;
    given.validate().map_err(ApiError::invalid)?;
    let kept = given.without_secret();
    // Sealed before the write lock is taken: the lock waits on no caller's work.
    let sealed = given
        .secret()
        .map(|secret| state.sealer.seal(secret.trim()));
    let organization_id = caller.organization_id;
    let mut tx = db::begin_write(&state.writes).await?;
    find_cluster(&mut tx, organization_id, cluster_id).await?;
    let before = store::dns_provider(&mut tx, cluster_id).await?;
    store::set_dns_provider(&mut tx, cluster_id, &kept, sealed.as_deref()).await?;
    let change = cluster_change(&mut tx, EventType::Update, organization_id, cluster_id)
        .await?
        .of(SubTargetType::DnsProvider)
        .before(&before)
        .after(&kept);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(ClusterDnsProvider { dns_provider: kept }))
}

async fn get_routing_table(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ClusterRoutingTable>> {
    own_organization(&caller, organization_id)?;
    let mut conn = state.db.acquire().await?;
    find_cluster(&mut conn, organization_id, cluster_id).await?;
    Ok(Json(ClusterRoutingTable {
        results: store::routing_table(&mut conn, cluster_id).await?,
    }))
}

/// 400 naming `routes` for a cluster not on AWS (only its network has a routing table here),
/// naming a route's destination inside the cluster's own network.
async fn edit_routing_table(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<ClusterRoutingTableRequest>,
) -> ApiResult<(StatusCode, Json<ClusterRoutingTable>)> {
    own_organization(&caller, organization_id)?;
    // The cluster's cloud and network are fixed once it is made: the routes are checked against
    // them before the write lock is taken.
    let cluster =
        find_cluster(&mut *state.db.acquire().await?, organization_id, cluster_id).await?;
    if cluster.cloud_provider != CloudProvider::Aws {
        return Err(ApiError::invalid(vec![FieldError::new(
            "routes",
            "only an AWS cluster's network has a routing table",
        )]));
    }
    request
        .validate_beside(cluster.network().as_deref())
        .map_err(ApiError::invalid)?;
    let routes: Vec<Route> = request.routes.iter().map(Route::trimmed).collect();
    let mut tx = db::begin_write(&state.writes).await?;
    let before = store::routing_table(&mut tx, cluster_id).await?;
    store::set_routing_table(&mut tx, cluster_id, &routes).await?;
    let change = cluster_change(&mut tx, EventType::Update, organization_id, cluster_id)
        .await?
        .of(SubTargetType::ClusterRoutingTable)
        .before(&before)
        .after(&routes);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(ClusterRoutingTable { results: routes }),
    ))
}
