//! Reads service statuses (spec 2.16) as the engine left them.

use chrono::{DateTime, Utc};
use platform_api::{
    EnvironmentState, EnvironmentStatuses, ServiceState, ServiceType, StateTone, Status,
    StatusDetails, Step, Steps,
};
use sqlx::SqliteConnection;
use uuid::Uuid;

use super::plan::is_computing;
use crate::db;
use crate::error::{ApiError, ApiResult};

type StatusRow = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    bool,
    Option<String>,
    Option<DateTime<Utc>>,
    Option<String>,
    i64,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
);

const SELECT: &str = "
    SELECT s.service_id, sv.kind, s.state, s.deployment_status, s.action, s.action_status,
           s.sub_action, s.is_part_last_deployment, s.deployment_request_id,
           s.last_deployment_date, s.execution_id,
           (SELECT COUNT(*) FROM deployments d
             WHERE d.service_id = s.service_id AND d.finished_at IS NULL),
           d.created_at, d.finished_at
    FROM service_statuses s
    JOIN services sv ON sv.id = s.service_id
    LEFT JOIN deployments d ON d.id = s.deployment_request_id";

pub async fn of_service(db: &mut SqliteConnection, service_id: Uuid) -> ApiResult<Status> {
    let row: StatusRow = sqlx::query_as(&format!("{SELECT} WHERE s.service_id = ?"))
        .bind(service_id.to_string())
        .fetch_optional(&mut *db)
        .await?
        .ok_or_else(|| ApiError::not_found("service"))?;
    Ok(status(db, row).await?.1)
}

pub async fn of_environment(
    db: &mut SqliteConnection,
    environment_id: Uuid,
) -> ApiResult<EnvironmentStatuses> {
    let rows: Vec<StatusRow> = sqlx::query_as(&format!(
        "{SELECT} WHERE sv.environment_id = ? ORDER BY sv.name"
    ))
    .bind(environment_id.to_string())
    .fetch_all(&mut *db)
    .await?;
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
        let (kind, status) = status(db, row).await?;
        match kind {
            ServiceType::Application => statuses.applications.push(status),
            ServiceType::Container => statuses.containers.push(status),
            ServiceType::Job => statuses.jobs.push(status),
            ServiceType::Database => statuses.databases.push(status),
            ServiceType::Helm => statuses.helms.push(status),
            ServiceType::Terraform => statuses.terraforms.push(status),
        }
    }
    statuses.environment.state = environment_state(statuses.all().map(|s| s.state));
    // The services' actions are the environment's deployment: its state is where they stand.
    statuses.environment.last_deployment_state = statuses.environment.state;
    statuses.environment.last_deployment_date =
        statuses.all().filter_map(|s| s.last_deployment_date).max();
    Ok(statuses)
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

async fn status(db: &mut SqliteConnection, row: StatusRow) -> ApiResult<(ServiceType, Status)> {
    let (
        service_id,
        kind,
        state,
        deployment_status,
        action,
        action_status,
        sub_action,
        is_part_last_deployment,
        deployment_request_id,
        last_deployment_date,
        execution_id,
        deployment_requests_count,
        requested_at,
        finished_at,
    ) = row;
    let steps = match (&deployment_request_id, requested_at) {
        (Some(deployment_id), Some(requested_at)) => {
            Some(steps(db, deployment_id, requested_at, finished_at).await?)
        }
        _ => None,
    };
    Ok((
        db::wire(&kind)?,
        Status {
            id: db::id(&service_id)?,
            state: db::wire(&state)?,
            service_deployment_status: db::wire(&deployment_status)?,
            is_part_last_deployment,
            status_details: StatusDetails {
                action: db::wire(&action)?,
                status: db::wire(&action_status)?,
                sub_action: db::wire(&sub_action)?,
            },
            deployment_request_id: deployment_request_id.as_deref().map(db::id).transpose()?,
            deployment_requests_count,
            last_deployment_date,
            steps,
            execution_id,
        },
    ))
}

async fn steps(
    db: &mut SqliteConnection,
    deployment_id: &str,
    requested_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
) -> ApiResult<Steps> {
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT step_name, status, duration_sec FROM deployment_steps
         WHERE deployment_id = ? ORDER BY position",
    )
    .bind(deployment_id)
    .fetch_all(&mut *db)
    .await?;
    let details = rows
        .into_iter()
        .map(|(name, status, duration_sec)| {
            Ok(Step {
                step_name: db::wire(&name)?,
                status: db::wire(&status)?,
                duration_sec,
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let end = finished_at.unwrap_or_else(Utc::now);
    // Each step is rounded to whole seconds: the total is never shown below the sum of its parts.
    let steps_sec: i64 = details.iter().map(|step| step.duration_sec).sum();
    Ok(Steps {
        total_duration_sec: (end - requested_at).num_seconds().max(steps_sec),
        total_computing_duration_sec: details
            .iter()
            .filter(|step| is_computing(step.step_name))
            .map(|step| step.duration_sec)
            .sum(),
        details,
    })
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
