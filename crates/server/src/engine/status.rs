//! Reads service statuses (spec 2.16) as the engine left them. An environment's statuses take at
//! most two queries whatever its number of services: one for the statuses, and one for the
//! steps of the actions still running when there are any (a finished action's steps are read
//! with the service's own status).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use platform_api::{
    ActionStatus, DeploymentStatus, EnvironmentState, EnvironmentStatuses, ServiceState,
    ServiceType, StateTone, Status, StatusAction, StatusDetails, Step, StepName, StepStatus, Steps,
    SubAction,
};
use sqlx::SqliteConnection;
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::plan::is_computing;
use crate::db;
use crate::error::{ApiError, ApiResult};

#[derive(sqlx::FromRow)]
struct StatusRow {
    #[sqlx(try_from = "Hyphenated")]
    service_id: Uuid,
    kind: ServiceType,
    state: ServiceState,
    deployment_status: DeploymentStatus,
    action: StatusAction,
    action_status: ActionStatus,
    sub_action: SubAction,
    is_part_last_deployment: bool,
    #[sqlx(try_from = "db::MaybeId")]
    deployment_request_id: Option<Uuid>,
    last_deployment_date: Option<DateTime<Utc>>,
    execution_id: Option<String>,
    deployment_requests_count: i64,
    requested_at: Option<DateTime<Utc>>,
    finished_at: Option<DateTime<Utc>>,
}

/// The statuses of the services `WHERE` picks (`sv` is the service, `s` its status). A service's
/// unfinished requests are counted in the index of unfinished deployments
/// (`deployments_unfinished`): at 1,000 services 3 ms for the whole query, where grouping every
/// unfinished deployment once and joining the groups took 5.
const SELECT: &str = "
    SELECT s.service_id, sv.kind, s.state, s.deployment_status, s.action, s.action_status,
           s.sub_action, s.is_part_last_deployment, s.deployment_request_id,
           s.last_deployment_date, s.execution_id,
           (SELECT COUNT(*) FROM deployments u
            WHERE u.service_id = s.service_id AND u.finished_at IS NULL)
             AS deployment_requests_count,
           d.created_at AS requested_at, d.finished_at
    FROM service_statuses s
    JOIN services sv ON sv.id = s.service_id
    LEFT JOIN deployments d ON d.id = s.deployment_request_id";

#[derive(sqlx::FromRow)]
struct StepRow {
    #[sqlx(try_from = "Hyphenated")]
    deployment_id: Uuid,
    step_name: StepName,
    status: StepStatus,
    duration_sec: i64,
}

const SELECT_STEPS: &str = "
    SELECT st.deployment_id, st.step_name, st.status, st.duration_sec
    FROM deployment_steps st
    JOIN service_statuses s ON s.deployment_request_id = st.deployment_id
    JOIN services sv ON sv.id = s.service_id
    JOIN deployments d ON d.id = st.deployment_id";

/// The steps of each deployment, in order.
type StepsByDeployment = HashMap<Uuid, Vec<Step>>;

pub async fn of_service(db: &mut SqliteConnection, service_id: Uuid) -> ApiResult<Status> {
    let id = service_id.hyphenated();
    let row: StatusRow = sqlx::query_as(&format!("{SELECT} WHERE s.service_id = ?"))
        .bind(id)
        .fetch_optional(&mut *db)
        .await?
        .ok_or_else(|| ApiError::not_found("service"))?;
    let mut steps = steps_where(db, "s.service_id = ?", id).await?;
    Ok(status(row, &mut steps).1)
}

/// The statuses of the environment's services, by kind; steps only for the actions running, and
/// for terraform services, whose status the platform gives only here.
pub async fn of_environment(
    db: &mut SqliteConnection,
    environment_id: Uuid,
) -> ApiResult<EnvironmentStatuses> {
    let id = environment_id.hyphenated();
    let rows: Vec<StatusRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE sv.environment_id = ? ORDER BY sv.name"
    ))
    .bind(id)
    .fetch_all(&mut *db)
    .await?;
    // The steps query walks every service's current deployment (2.4 ms at 1,000): only asked
    // while one of them runs.
    let running = rows
        .iter()
        .any(|row| row.requested_at.is_some() && row.finished_at.is_none());
    let terraform = ServiceType::Terraform.as_str();
    let mut steps = if running || rows.iter().any(|row| row.kind == ServiceType::Terraform) {
        let picked =
            format!("sv.environment_id = ? AND (d.finished_at IS NULL OR sv.kind = '{terraform}')");
        steps_where(db, &picked, id).await?
    } else {
        StepsByDeployment::new()
    };
    let mut statuses = EnvironmentStatuses {
        environment: EnvironmentState {
            id: environment_id,
            state: ServiceState::Ready,
            last_deployment_state: ServiceState::Ready,
            last_deployment_date: None,
        },
        applications: Vec::new(),
        containers: Vec::new(),
        jobs: Vec::new(),
        databases: Vec::new(),
        helms: Vec::new(),
        terraforms: Vec::new(),
    };
    for row in rows {
        let (kind, status) = status(row, &mut steps);
        match kind {
            ServiceType::Application => statuses.applications.push(status),
            ServiceType::Container => statuses.containers.push(status),
            ServiceType::Job => statuses.jobs.push(status),
            ServiceType::Database => statuses.databases.push(status),
            ServiceType::Helm => statuses.helms.push(status),
            ServiceType::Terraform => statuses.terraforms.push(status),
            // Stored kinds are read strictly: none is unknown.
            ServiceType::Other(_) => {}
        }
    }
    statuses.environment.state = environment_state(statuses.all().map(|s| s.state));
    // The services' actions are the environment's deployment: its state is where they stand.
    statuses.environment.last_deployment_state = statuses.environment.state;
    statuses.environment.last_deployment_date =
        statuses.all().filter_map(|s| s.last_deployment_date).max();
    Ok(statuses)
}

/// The statuses of the containers that take their image from the registry `registry_id`, by
/// name; steps only for the actions running.
pub async fn of_registry_containers(
    db: &mut SqliteConnection,
    registry_id: Uuid,
) -> ApiResult<Vec<Status>> {
    let container = ServiceType::Container.as_str();
    let picked = format!("sv.kind = '{container}' AND json_extract(sv.spec, '$.registry.id') = ?");
    let id = registry_id.hyphenated();
    let rows: Vec<StatusRow> = sqlx::query_as(&format!("{SELECT} WHERE {picked} ORDER BY sv.name"))
        .bind(id)
        .fetch_all(&mut *db)
        .await?;
    let mut steps = if rows.iter().any(|row| row.finished_at.is_none()) {
        steps_where(db, &format!("{picked} AND d.finished_at IS NULL"), id).await?
    } else {
        StepsByDeployment::new()
    };
    Ok(rows
        .into_iter()
        .map(|row| status(row, &mut steps).1)
        .collect())
}

/// The state of each environment of the project, by name, from one query of its services'
/// states (an environment without services is READY).
pub async fn of_project(
    db: &mut SqliteConnection,
    project_id: Uuid,
) -> ApiResult<Vec<EnvironmentState>> {
    #[derive(sqlx::FromRow)]
    struct ServiceOfEnvironment {
        #[sqlx(try_from = "Hyphenated")]
        environment_id: Uuid,
        state: Option<ServiceState>,
        last_deployment_date: Option<DateTime<Utc>>,
    }
    let rows: Vec<ServiceOfEnvironment> = sqlx::query_as(
        "SELECT e.id AS environment_id, s.state, s.last_deployment_date
         FROM environments e
         LEFT JOIN services sv ON sv.environment_id = e.id
         LEFT JOIN service_statuses s ON s.service_id = sv.id
         WHERE e.project_id = ? ORDER BY e.name, e.id",
    )
    .bind(project_id.hyphenated())
    .fetch_all(&mut *db)
    .await?;
    let mut environments: Vec<(Uuid, Vec<ServiceOfEnvironment>)> = Vec::new();
    for row in rows {
        match environments.last_mut() {
            Some((id, services)) if *id == row.environment_id => services.push(row),
            _ => environments.push((row.environment_id, vec![row])),
        }
    }
    Ok(environments
        .into_iter()
        .map(|(id, services)| {
            let state = environment_state(services.iter().filter_map(|s| s.state));
            EnvironmentState {
                id,
                state,
                last_deployment_state: state,
                last_deployment_date: services.iter().filter_map(|s| s.last_deployment_date).max(),
            }
        })
        .collect())
}

/// The environment reads as its busiest service: running work first, then a failure, then
/// deployed; an environment with nothing deployed is READY.
fn environment_state(states: impl Iterator<Item = ServiceState>) -> ServiceState {
    let states: Vec<_> = states.collect();
    let with_tone = |tone| states.iter().copied().find(|s| s.tone() == tone);
    with_tone(StateTone::Progress)
        .map(|_| ServiceState::Deploying)
        .or_else(|| with_tone(StateTone::Failure).map(|_| ServiceState::DeploymentError))
        .or_else(|| with_tone(StateTone::Success).map(|_| ServiceState::Deployed))
        .unwrap_or(ServiceState::Ready)
}

fn status(row: StatusRow, steps: &mut StepsByDeployment) -> (ServiceType, Status) {
    let steps = match (row.deployment_request_id, row.requested_at) {
        (Some(deployment_id), Some(requested_at)) => steps
            .remove(&deployment_id)
            .map(|details| totals(details, requested_at, row.finished_at)),
        _ => None,
    };
    (
        row.kind,
        Status {
            id: row.service_id,
            state: row.state,
            service_deployment_status: row.deployment_status,
            is_part_last_deployment: row.is_part_last_deployment,
            status_details: StatusDetails {
                action: row.action,
                status: row.action_status,
                sub_action: row.sub_action,
            },
            deployment_request_id: row.deployment_request_id,
            deployment_requests_count: row.deployment_requests_count,
            last_deployment_date: row.last_deployment_date,
            steps,
            execution_id: row.execution_id,
        },
    )
}

/// The steps of the current deployments of the services `filter` picks (bound to `value`).
async fn steps_where(
    db: &mut SqliteConnection,
    filter: &str,
    value: Hyphenated,
) -> ApiResult<StepsByDeployment> {
    let rows: Vec<StepRow> = sqlx::query_as(&format!(
        "{SELECT_STEPS} WHERE {filter} ORDER BY st.deployment_id, st.position"
    ))
    .bind(value)
    .fetch_all(&mut *db)
    .await?;
    let mut steps = StepsByDeployment::new();
    for row in rows {
        steps.entry(row.deployment_id).or_default().push(Step {
            step_name: row.step_name,
            status: row.status,
            duration_sec: row.duration_sec,
        });
    }
    Ok(steps)
}

fn totals(
    details: Vec<Step>,
    requested_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
) -> Steps {
    let end = finished_at.unwrap_or_else(Utc::now);
    // Each step is rounded to whole seconds: the total is never shown below the sum of its parts.
    let steps_sec: i64 = details.iter().map(|step| step.duration_sec).sum();
    Steps {
        total_duration_sec: (end - requested_at).num_seconds().max(steps_sec),
        total_computing_duration_sec: details
            .iter()
            .filter(|step| is_computing(step.step_name))
            .map(|step| step.duration_sec)
            .sum(),
        details,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_reads_as_its_busiest_service() {
        use ServiceState::*;
        assert_eq!(environment_state([].into_iter()), Ready);
        assert_eq!(environment_state([Deployed, Ready].into_iter()), Deployed);
        assert_eq!(
            environment_state([Deployed, BuildError].into_iter()),
            DeploymentError
        );
        assert_eq!(
            environment_state([BuildError, Building].into_iter()),
            Deploying
        );
    }
}
