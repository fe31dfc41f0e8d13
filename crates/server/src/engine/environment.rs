//! An action on a whole environment, whoever asks (a caller of the API, a schedule): queued on
//! each service it applies to under one execution id, a deployment a stage at a time with the
//! services skipped from it left out, the other actions on every service at once.

use platform_api::audit::EventType;
use sqlx::{Sqlite, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::admission::AskedBy;
use super::Engine;
use crate::error::{ApiError, ApiResult};
use crate::store::action::{Action, InStage, Request};

/// What a request on a whole environment runs on each of its services.
#[derive(Clone, Copy)]
pub enum OnEachService {
    Run(Action),
    /// A deploy of the version each deployed service runs.
    Redeploy,
}

impl From<Action> for OnEachService {
    fn from(action: Action) -> Self {
        OnEachService::Run(action)
    }
}

impl OnEachService {
    pub fn action(self) -> Action {
        match self {
            OnEachService::Run(action) => action,
            OnEachService::Redeploy => Action::Deploy,
        }
    }

    pub fn event_type(self) -> EventType {
        match self {
            OnEachService::Run(action) => action.event_type(),
            OnEachService::Redeploy => EventType::TriggerRedeploy,
        }
    }
}

impl Engine {
    /// Queues `what` in `tx` on each service of the environment it applies to (a stop or a
    /// restart skips the services that run nothing): the deployments to start once `tx`
    /// commits. 409 when it applies to no service. The environment must be idle.
    pub async fn queue_on_environment(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        environment_id: Uuid,
        what: OnEachService,
        asked_by: AskedBy<'_>,
    ) -> ApiResult<Vec<Uuid>> {
        let action = what.action();
        #[derive(sqlx::FromRow)]
        struct Placed {
            #[sqlx(try_from = "Hyphenated")]
            id: Uuid,
            position: i64,
            stage: String,
            is_skipped: bool,
        }
        let services: Vec<Placed> = sqlx::query_as(
            "SELECT s.id, d.position, d.name AS stage, v.is_skipped
             FROM services s JOIN service_stages v ON v.service_id = s.id
             JOIN deployment_stages d ON d.id = v.stage_id
             WHERE s.environment_id = ? ORDER BY d.position, s.name",
        )
        .bind(environment_id.hyphenated())
        .fetch_all(&mut **tx)
        .await?;
        let in_stages = action == Action::Deploy;
        let execution = Uuid::new_v4().simple().to_string();
        let mut queued = Vec::new();
        for service in services {
            if in_stages && service.is_skipped {
                continue;
            }
            let request = match what {
                OnEachService::Run(action) => Ok(Request::from(action)),
                OnEachService::Redeploy => Request::redeploy(tx, service.id).await,
            };
            let request = request.map(|request| {
                let request = request.within(&execution);
                match in_stages {
                    true => request.in_stage(InStage {
                        position: service.position,
                        name: service.stage,
                    }),
                    false => request,
                }
            });
            let outcome = match request {
                Ok(request) => self.queue(tx, request, service.id, asked_by).await,
                Err(error) => Err(error),
            };
            match outcome {
                Ok(action) => queued.push(action.deployment_id),
                // The environment was idle: a conflict means the action does not apply here.
                Err(error) if error.status() == axum::http::StatusCode::CONFLICT => {}
                Err(error) => return Err(error),
            }
        }
        if queued.is_empty() {
            return Err(ApiError::conflict(format!(
                "No service of this environment to {}.",
                action.verb()
            )));
        }
        Ok(queued)
    }
}
