//! What a change applies to (a project, an environment, a service), and the rules a change or
//! a delete keeps while the engine works there.

use platform_api::{ActionStatus, DeploymentStatus, ServiceState, StatusAction, SubAction};
use sqlx::SqliteConnection;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};

/// What a delete or a configuration change applies to.
#[derive(Clone, Copy, Debug)]
pub enum Scope {
    Project(Uuid),
    Environment(Uuid),
    Service(Uuid),
}

/// The states in which a service is busy: a new action on it answers 409.
pub fn busy_states() -> String {
    ServiceState::ALL
        .iter()
        .filter(|state| state.is_in_progress())
        .map(|state| format!("'{}'", state.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// 409 while an action runs on a service in `scope`: deleting it now would pull the rug from
/// under the engine.
pub async fn ensure_idle(conn: &mut SqliteConnection, scope: Scope) -> ApiResult<()> {
    let (column, id, what) = match scope {
        Scope::Project(id) => ("e.project_id", id, "a service of this project"),
        Scope::Environment(id) => ("sv.environment_id", id, "a service of this environment"),
        Scope::Service(id) => ("sv.id", id, "this service"),
    };
    let busy: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM service_statuses s
         JOIN services sv ON sv.id = s.service_id
         JOIN environments e ON e.id = sv.environment_id
         WHERE {column} = ? AND s.state IN ({})",
        busy_states()
    ))
    .bind(id.hyphenated())
    .fetch_one(conn)
    .await?;
    if busy > 0 {
        return Err(ApiError::conflict(format!(
            "An action is running on {what}; wait for it to finish or cancel it."
        )));
    }
    Ok(())
}

/// 409 while an action runs on a service of the organization: deleting it now would pull the
/// rug from under the engine.
pub async fn ensure_organization_idle(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
) -> ApiResult<()> {
    let busy: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM service_statuses s JOIN services sv ON sv.id = s.service_id
         WHERE sv.organization_id = ? AND s.state IN ({})",
        busy_states()
    ))
    .bind(organization_id.hyphenated())
    .fetch_one(conn)
    .await?;
    if busy > 0 {
        return Err(ApiError::conflict(
            "An action is running in this organization; wait for it to finish or cancel it.",
        ));
    }
    Ok(())
}

/// Deletes the project, environment or service of `scope` with all it holds, unless an action
/// runs in it (409).
pub async fn delete_when_idle(conn: &mut SqliteConnection, scope: Scope) -> ApiResult<()> {
    ensure_idle(conn, scope).await?;
    let (table, id) = match scope {
        Scope::Project(id) => ("projects", id),
        Scope::Environment(id) => ("environments", id),
        Scope::Service(id) => ("services", id),
    };
    sqlx::query(&format!("DELETE FROM {table} WHERE id = ?"))
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes the service unless an action runs on it; whether it was deleted.
pub async fn delete_service_unless_busy(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<bool> {
    let deleted = sqlx::query(&format!(
        "DELETE FROM services WHERE id = ? AND NOT EXISTS (
             SELECT 1 FROM service_statuses WHERE service_id = ? AND state IN ({}))",
        busy_states()
    ))
    .bind(id.hyphenated())
    .bind(id.hyphenated())
    .execute(conn)
    .await?;
    Ok(deleted.rows_affected() > 0)
}

/// After a change of configuration or variables in `scope`, its deployed services no longer run
/// what is configured.
pub async fn mark_scope_out_of_date(conn: &mut SqliteConnection, scope: Scope) -> ApiResult<()> {
    let (column, id) = match scope {
        Scope::Project(id) => ("e.project_id", id),
        Scope::Environment(id) => ("sv.environment_id", id),
        Scope::Service(id) => ("sv.id", id),
    };
    sqlx::query(&format!(
        "UPDATE service_statuses SET deployment_status = ?
         WHERE deployment_status = ? AND service_id IN (
             SELECT sv.id FROM services sv JOIN environments e ON e.id = sv.environment_id
             WHERE {column} = ?)"
    ))
    .bind(DeploymentStatus::UpToDate.after_change())
    .bind(DeploymentStatus::UpToDate)
    .bind(id.hyphenated())
    .execute(conn)
    .await?;
    Ok(())
}

/// The status of a service that was never deployed.
pub async fn insert_initial_status(conn: &mut SqliteConnection, service_id: Uuid) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO service_statuses (service_id, state, deployment_status, action, action_status, sub_action)
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(service_id.hyphenated())
    .bind(ServiceState::Ready)
    .bind(DeploymentStatus::NeverDeployed)
    .bind(StatusAction::Deploy)
    .bind(ActionStatus::Never)
    .bind(SubAction::None)
    .execute(conn)
    .await?;
    Ok(())
}
