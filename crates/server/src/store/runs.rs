//! What the telemetry reads of the store: the services an organization runs
//! on a cluster, and the actions the engine finished on them, each with the settings it put in
//! place. Points, lines and events are computed from these; none is stored.

use chrono::{DateTime, Utc};
use platform_api::{ServiceState, ServiceType, StatusAction};
use sqlx::SqliteExecutor;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

/// A service of the organization on the cluster.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ServiceRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub name: String,
    pub kind: ServiceType,
    #[sqlx(try_from = "Hyphenated")]
    pub environment_id: Uuid,
    pub environment_name: String,
}

/// An action the engine finished, with what the service was configured with when it was asked
/// for (the deployment's `spec`).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ActionRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub service_id: Uuid,
    pub action: StatusAction,
    pub state: ServiceState,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: DateTime<Utc>,
    pub git_commit_id: Option<String>,
    pub tag: Option<String>,
    pub cpu: Option<i64>,
    pub memory: Option<i64>,
    pub min_instances: Option<i64>,
    pub max_instances: Option<i64>,
    /// JSON: the service's ports.
    pub ports: Option<String>,
    /// JSON: a database's storage in GiB, or a service's volumes.
    pub storage: Option<String>,
    /// JSON: the readiness probe.
    pub readiness: Option<String>,
}

const SERVICE_COLUMNS: &str = "s.id, s.name, s.kind, s.environment_id, e.name AS environment_name";

/// The organization's services in its environments on the cluster.
pub async fn services_on_cluster<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    cluster_id: Uuid,
) -> sqlx::Result<Vec<ServiceRow>> {
    sqlx::query_as(&format!(
        "SELECT {SERVICE_COLUMNS} FROM environments e JOIN services s ON s.environment_id = e.id
         WHERE e.organization_id = ? AND e.cluster_id = ? ORDER BY s.id"
    ))
    .bind(organization_id.hyphenated())
    .bind(cluster_id.hyphenated())
    .fetch_all(db)
    .await
}

/// The actions finished on the services of the organization on the cluster by `until`, oldest
/// first.
pub async fn finished_actions<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    cluster_id: Uuid,
    until: DateTime<Utc>,
) -> sqlx::Result<Vec<ActionRow>> {
    sqlx::query_as(
        "SELECT d.id, d.service_id, d.action, d.state, d.started_at, d.finished_at,
                d.git_commit_id, json_extract(d.spec, '$.tag') AS tag,
                json_extract(d.spec, '$.cpu') AS cpu, json_extract(d.spec, '$.memory') AS memory,
                json_extract(d.spec, '$.min_running_instances') AS min_instances,
                json_extract(d.spec, '$.max_running_instances') AS max_instances,
                json_extract(d.spec, '$.ports') AS ports,
                CAST(json_extract(d.spec, '$.storage') AS TEXT) AS storage,
                json_extract(d.spec, '$.healthchecks.readiness_probe') AS readiness
         FROM environments e JOIN services s ON s.environment_id = e.id
         JOIN deployments d ON d.service_id = s.id
         WHERE e.organization_id = ? AND e.cluster_id = ?
           AND d.finished_at IS NOT NULL AND d.finished_at <= ?
         ORDER BY d.finished_at",
    )
    .bind(organization_id.hyphenated())
    .bind(cluster_id.hyphenated())
    .bind(until)
    .fetch_all(db)
    .await
}

/// Whether the cluster is one of the organization's.
pub async fn cluster_of<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    cluster_id: Uuid,
    cluster_kind: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM organization_resources
                        WHERE id = ? AND organization_id = ? AND kind = ?)",
    )
    .bind(cluster_id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(cluster_kind)
    .fetch_one(db)
    .await
}

/// Whether the environment is one of the organization's on the cluster.
pub async fn environment_on_cluster<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    environment_id: Uuid,
    cluster_id: Uuid,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM environments
                        WHERE id = ? AND organization_id = ? AND cluster_id = ?)",
    )
    .bind(environment_id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(cluster_id.hyphenated())
    .fetch_one(db)
    .await
}

/// Moves the service's actions that finished in the last `recent` seconds `by` seconds back in
/// time, with the audit log's entries about the service of that time, as if they had happened
/// then: what the tests and benches read hours or a week of telemetry from without waiting.
pub async fn backdate(
    db: &sqlx::SqlitePool,
    service_id: Uuid,
    recent: i64,
    by: i64,
) -> sqlx::Result<u64> {
    let mut tx = db.begin().await?;
    let moved = sqlx::query(
        "UPDATE deployments
         SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', finished_at, ?1),
             started_at = strftime('%Y-%m-%dT%H:%M:%fZ', started_at, ?1),
             created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, ?1)
         WHERE service_id = ?2 AND finished_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?3)",
    )
    .bind(format!("-{by} seconds"))
    .bind(service_id.hyphenated())
    .bind(format!("-{recent} seconds"))
    .execute(&mut *tx)
    .await?;
    let nanos = |seconds: i64| seconds * 1_000_000_000;
    sqlx::query(
        "UPDATE audit_events SET at_nanos = at_nanos - ?1
         WHERE target_id = ?2 AND at_nanos >= ?3",
    )
    .bind(nanos(by))
    .bind(service_id.hyphenated())
    .bind(nanos(Utc::now().timestamp() - recent))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(moved.rows_affected())
}
