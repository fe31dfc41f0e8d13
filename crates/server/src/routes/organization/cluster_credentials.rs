//! Which credentials each cluster is reached with (`cloudProviderInfo`), and the organization's
//! credentials of every cloud with the clusters using them (`/organization/{id}/credentials`).

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::{EventType, SubTargetType};
use platform_api::paths;
use platform_api::{
    Cluster, ClusterCloudProviderInfo, CredentialsReference, CredentialsWithClusters, FieldError,
    List, WireEnum,
};
use uuid::Uuid;

use crate::audit;
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::organization::clusters::cluster_change;
use crate::routes::organization::resources::ensure_exists;
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::cluster_credentials as store;
use crate::store::organization_resources::{self as resources, CLUSTERS};

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::ORGANIZATION_CREDENTIALS,
            Permission::Read,
            Doc::new("Every set of credentials of the organization, with the clusters using it")
                .answers_list_of::<CredentialsWithClusters>(StatusCode::OK),
            list_with_clusters,
        )
        .add(
            Method::GET,
            paths::CLUSTER_CLOUD_PROVIDER_INFO,
            Permission::Read,
            Doc::new("A cluster's cloud, region and the credentials it is reached with")
                .answers::<ClusterCloudProviderInfo>(StatusCode::OK),
            get_info,
        )
        .add(
            Method::POST,
            paths::CLUSTER_CLOUD_PROVIDER_INFO,
            Permission::Admin,
            Doc::new("Choose the credentials a cluster is reached with, among its cloud's")
                .body::<ClusterCloudProviderInfo>()
                .answers::<ClusterCloudProviderInfo>(StatusCode::CREATED),
            choose,
        );
}

async fn list_with_clusters(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<CredentialsWithClusters>>> {
    own_organization(&caller, organization_id)?;
    let listed = store::with_clusters(&state.db, organization_id).await?;
    Ok(Json(List::new(listed)))
}

async fn info(
    conn: &mut sqlx::SqliteConnection,
    cluster: &Cluster,
) -> ApiResult<ClusterCloudProviderInfo> {
    let chosen = store::of_cluster(&mut *conn, cluster.id).await?;
    Ok(ClusterCloudProviderInfo {
        cloud_provider: Some(cluster.cloud_provider),
        credentials: chosen.map(|(id, name)| CredentialsReference {
            id: Some(id),
            name: Some(name),
        }),
        region: Some(cluster.region.clone()),
    })
}

async fn get_info(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<ClusterCloudProviderInfo>> {
    own_organization(&caller, organization_id)?;
    let mut conn = state.db.acquire().await?;
    let cluster = resources::find::<Cluster>(&mut *conn, CLUSTERS, organization_id, cluster_id)
        .await?
        .record;
    Ok(Json(info(&mut conn, &cluster).await?))
}

/// 400 when the credentials are not the organization's of the cluster's cloud, or when the
/// request names another cloud or region than the cluster's (a cluster does not move).
async fn choose(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, cluster_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<ClusterCloudProviderInfo>,
) -> ApiResult<(StatusCode, Json<ClusterCloudProviderInfo>)> {
    own_organization(&caller, organization_id)?;
    let credentials_id = request.credentials_id().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let cluster = resources::find::<Cluster>(&mut *tx, CLUSTERS, organization_id, cluster_id)
        .await?
        .record;
    let cloud = cluster.cloud_provider;
    let mut refused = Vec::new();
    if request.cloud_provider.is_some_and(|given| given != cloud) {
        refused.push(FieldError::new(
            "cloud_provider",
            format!("must be the cluster's, {}", cloud.as_str()),
        ));
    }
    if request
        .region
        .as_deref()
        .is_some_and(|given| given != cluster.region)
    {
        refused.push(FieldError::new(
            "region",
            format!("must be the cluster's, {}", cluster.region),
        ));
    }
    if !refused.is_empty() {
        return Err(ApiError::invalid(refused));
    }
    let Some(kind) = store::kind_of(cloud) else {
        return Err(ApiError::invalid(vec![FieldError::new(
            "credentials.id",
            format!(
                "cannot be chosen: the platform keeps no credentials for {}",
                cloud.label()
            ),
        )]));
    };
    ensure_exists(
        &mut *tx,
        kind,
        organization_id,
        credentials_id,
        "credentials.id",
    )
    .await?;
    let before = info(&mut tx, &cluster).await?;
    store::choose(&mut tx, organization_id, cluster_id, credentials_id).await?;
    let after = info(&mut tx, &cluster).await?;
    let change = cluster_change(&mut tx, EventType::Update, organization_id, cluster_id)
        .await?
        .of(SubTargetType::CloudProviderCredentials)
        .before(&before)
        .after(&after);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(after)))
}
