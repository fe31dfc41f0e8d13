//! Deployment stages as stored: an environment's stages in order, and where each of its services
//! is (the `service_stages` view: the stage it was moved to, else its kind's default, else the
//! first).

use chrono::{DateTime, Utc};
use platform_api::{
    DeploymentStage, DeploymentStageRequest, DeploymentStageService, Reference, ServiceType,
};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

#[derive(sqlx::FromRow)]
struct StageRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    environment_id: Uuid,
    name: String,
    description: Option<String>,
    position: i64,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct MemberRow {
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    stage_id: Uuid,
    kind: ServiceType,
    is_skipped: bool,
    created_at: DateTime<Utc>,
    updated_at: Option<DateTime<Utc>>,
}

const STAGE_COLUMNS: &str =
    "id, environment_id, name, description, position, created_at, updated_at";

/// The environment's stages in order, each with its services (two queries).
pub async fn of_environment(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
) -> sqlx::Result<Vec<DeploymentStage>> {
    let stages: Vec<StageRow> = sqlx::query_as(&format!(
        "SELECT {STAGE_COLUMNS} FROM deployment_stages WHERE environment_id = ? ORDER BY position"
    ))
    .bind(environment_id.hyphenated())
    .fetch_all(&mut *conn)
    .await?;
    let members: Vec<MemberRow> = sqlx::query_as(
        "SELECT v.service_id, v.stage_id, v.kind, v.is_skipped, v.created_at, v.updated_at
         FROM service_stages v JOIN services s ON s.id = v.service_id
         WHERE v.environment_id = ? ORDER BY s.name",
    )
    .bind(environment_id.hyphenated())
    .fetch_all(&mut *conn)
    .await?;
    Ok(stages
        .into_iter()
        .map(|stage| {
            let services = members
                .iter()
                .filter(|member| member.stage_id == stage.id)
                .map(|member| DeploymentStageService {
                    id: member.service_id,
                    created_at: member.created_at,
                    updated_at: member.updated_at,
                    service_id: member.service_id,
                    service_type: member.kind.as_str().to_string(),
                    is_skipped: member.is_skipped,
                })
                .collect();
            DeploymentStage {
                id: stage.id,
                created_at: stage.created_at,
                updated_at: stage.updated_at,
                environment: Reference {
                    id: stage.environment_id,
                },
                name: stage.name,
                description: stage.description,
                deployment_order: stage.position,
                services,
            }
        })
        .collect())
}

/// The environment of the stage, in the caller's organization; 404 otherwise.
pub async fn environment_of<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    stage_id: Uuid,
) -> ApiResult<Uuid> {
    let environment: Option<Hyphenated> = sqlx::query_scalar(
        "SELECT d.environment_id FROM deployment_stages d
         JOIN environments e ON e.id = d.environment_id
         WHERE d.id = ? AND e.organization_id = ?",
    )
    .bind(stage_id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?;
    environment
        .map(Hyphenated::into_uuid)
        .ok_or_else(|| ApiError::not_found("deployment stage"))
}

/// The stage the service is in.
pub async fn of_service<'e>(db: impl SqliteExecutor<'e>, service_id: Uuid) -> sqlx::Result<Uuid> {
    let stage: Hyphenated =
        sqlx::query_scalar("SELECT stage_id FROM service_stages WHERE service_id = ?")
            .bind(service_id.hyphenated())
            .fetch_one(db)
            .await?;
    Ok(stage.into_uuid())
}

/// Adds a stage, without services, at the end of the environment's; 409 naming `name` when it
/// has one so named.
pub async fn insert(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
    request: &DeploymentStageRequest,
) -> ApiResult<DeploymentStage> {
    let (id, now) = (Uuid::new_v4(), Utc::now());
    let name = request.name.trim();
    let position: i64 = sqlx::query_scalar(
        "INSERT INTO deployment_stages (id, environment_id, name, description, position, created_at)
         VALUES (?, ?, ?, ?,
                 (SELECT coalesce(max(position), 0) + 1 FROM deployment_stages WHERE environment_id = ?), ?)
         RETURNING position",
    )
    .bind(id.hyphenated())
    .bind(environment_id.hyphenated())
    .bind(name)
    .bind(request.description.as_deref())
    .bind(environment_id.hyphenated())
    .bind(now)
    .fetch_one(conn)
    .await
    .on_unique_violation("name", "deployment stage")?;
    Ok(DeploymentStage {
        id,
        created_at: now,
        updated_at: None,
        environment: Reference { id: environment_id },
        name: name.to_string(),
        description: request.description.clone(),
        deployment_order: position,
        services: Vec::new(),
    })
}

pub async fn update(
    conn: &mut SqliteConnection,
    id: Uuid,
    (name, description): (&str, Option<&str>),
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE deployment_stages SET name = ?, description = ?, updated_at = ? WHERE id = ?",
    )
    .bind(name)
    .bind(description)
    .bind(Utc::now())
    .bind(id.hyphenated())
    .execute(conn)
    .await
    .on_unique_violation("name", "deployment stage")?;
    Ok(())
}

/// Deletes the stage (its services go back to their kind's default stage, or the first) and
/// closes the gap in the order; 409 for the environment's last stage.
pub async fn delete(conn: &mut SqliteConnection, environment_id: Uuid, id: Uuid) -> ApiResult<()> {
    let mut order = order(&mut *conn, environment_id).await?;
    if order.len() <= 1 {
        return Err(ApiError::conflict(
            "An environment keeps at least one deployment stage.",
        ));
    }
    sqlx::query("DELETE FROM deployment_stages WHERE id = ?")
        .bind(id.hyphenated())
        .execute(&mut *conn)
        .await?;
    order.retain(|stage| *stage != id);
    renumber(conn, &order).await
}

/// The environment's stages' ids in order.
async fn order(conn: &mut SqliteConnection, environment_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    let ids: Vec<Hyphenated> = sqlx::query_scalar(
        "SELECT id FROM deployment_stages WHERE environment_id = ? ORDER BY position",
    )
    .bind(environment_id.hyphenated())
    .fetch_all(conn)
    .await?;
    Ok(ids.into_iter().map(Hyphenated::into_uuid).collect())
}

async fn renumber(conn: &mut SqliteConnection, order: &[Uuid]) -> ApiResult<()> {
    for (position, id) in order.iter().enumerate() {
        sqlx::query("UPDATE deployment_stages SET position = ? WHERE id = ?")
            .bind(position as i64 + 1)
            .bind(id.hyphenated())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Moves the stage `id` just before (or after) the stage `other` of the same environment.
pub async fn move_next_to(
    conn: &mut SqliteConnection,
    environment_id: Uuid,
    (id, other): (Uuid, Uuid),
    after: bool,
) -> ApiResult<()> {
    let mut order = order(&mut *conn, environment_id).await?;
    if !order.contains(&other) {
        return Err(ApiError::not_found("deployment stage"));
    }
    order.retain(|stage| *stage != id);
    let at = order
        .iter()
        .position(|stage| *stage == other)
        .map(|at| if after { at + 1 } else { at })
        .unwrap_or(order.len());
    order.insert(at, id);
    renumber(conn, &order).await
}

/// Puts the service in the stage, taken back into its environment's deployments; or, `skipped`,
/// leaves it in the stage it is in and skips it.
pub async fn attach(
    conn: &mut SqliteConnection,
    (stage_id, service_id): (Uuid, Uuid),
    skipped: bool,
) -> ApiResult<()> {
    let now = Utc::now();
    let stage = if skipped {
        of_service(&mut *conn, service_id).await?
    } else {
        stage_id
    };
    sqlx::query(
        "INSERT INTO deployment_stage_services (service_id, stage_id, is_skipped, created_at)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (service_id) DO UPDATE SET stage_id = excluded.stage_id,
             is_skipped = excluded.is_skipped, updated_at = ?",
    )
    .bind(service_id.hyphenated())
    .bind(stage.hyphenated())
    .bind(skipped)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}
