//! A cluster's network settings (`cluster_network`): its DNS provider, whose secret is kept
//! sealed beside it, and its routing table.

use platform_api::{Cluster, DnsProvider, Route};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};
use crate::store::organization_resources::CLUSTERS;

/// The cluster's record, whatever its organization (the engine's read as it deploys it).
pub async fn cluster(conn: &mut SqliteConnection, cluster_id: Uuid) -> ApiResult<Cluster> {
    let record: String =
        sqlx::query_scalar("SELECT record FROM organization_resources WHERE id = ? AND kind = ?")
            .bind(cluster_id.hyphenated())
            .bind(CLUSTERS.stored_as)
            .fetch_one(conn)
            .await?;
    serde_json::from_str(&record).map_err(ApiError::internal)
}

/// The cluster's DNS provider: the platform's until another is chosen.
pub async fn dns_provider(conn: &mut SqliteConnection, cluster_id: Uuid) -> ApiResult<DnsProvider> {
    let kept: Option<Option<String>> =
        sqlx::query_scalar("SELECT dns_provider FROM cluster_network WHERE cluster_id = ?")
            .bind(cluster_id.hyphenated())
            .fetch_optional(conn)
            .await?;
    read_dns_provider(kept.flatten())
}

/// The DNS provider of the cluster an environment runs on.
pub async fn dns_provider_of_environment(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
) -> ApiResult<DnsProvider> {
    let kept: Option<Option<String>> = sqlx::query_scalar(
        "SELECT network.dns_provider FROM environments
         JOIN cluster_network AS network ON network.cluster_id = environments.cluster_id
         WHERE environments.id = ?",
    )
    .bind(environment_id.hyphenated())
    .fetch_optional(conn)
    .await?;
    read_dns_provider(kept.flatten())
}

fn read_dns_provider(kept: Option<String>) -> ApiResult<DnsProvider> {
    match kept {
        Some(kept) => serde_json::from_str(&kept).map_err(ApiError::internal),
        None => Ok(DnsProvider::default()),
    }
}

/// `provider` (without its secret) is the cluster's from now on, its secret `sealed_secret`.
pub async fn set_dns_provider(
    conn: &mut SqliteConnection,
    cluster_id: Uuid,
    provider: &DnsProvider,
    sealed_secret: Option<&str>,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO cluster_network (cluster_id, dns_provider, dns_secret) VALUES (?, ?, ?)
         ON CONFLICT (cluster_id) DO UPDATE
         SET dns_provider = excluded.dns_provider, dns_secret = excluded.dns_secret",
    )
    .bind(cluster_id.hyphenated())
    .bind(serde_json::to_string(provider).map_err(ApiError::internal)?)
    .bind(sealed_secret)
    .execute(conn)
    .await?;
    Ok(())
}

/// The cluster's routes, in the order they were given.
pub async fn routing_table(conn: &mut SqliteConnection, cluster_id: Uuid) -> ApiResult<Vec<Route>> {
    let kept: Option<String> =
        sqlx::query_scalar("SELECT routing_table FROM cluster_network WHERE cluster_id = ?")
            .bind(cluster_id.hyphenated())
            .fetch_optional(conn)
            .await?;
    match kept {
        Some(kept) => serde_json::from_str(&kept).map_err(ApiError::internal),
        None => Ok(Vec::new()),
    }
}

pub async fn set_routing_table(
    conn: &mut SqliteConnection,
    cluster_id: Uuid,
    routes: &[Route],
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO cluster_network (cluster_id, routing_table) VALUES (?, ?)
         ON CONFLICT (cluster_id) DO UPDATE SET routing_table = excluded.routing_table",
    )
    .bind(cluster_id.hyphenated())
    .bind(serde_json::to_string(routes).map_err(ApiError::internal)?)
    .execute(conn)
    .await?;
    Ok(())
}
