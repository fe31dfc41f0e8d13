//! An action admitted: its precondition, its place in the queue (a room per organization), and
//! a cancel of what is queued or running.

use std::sync::Arc;

use chrono::Utc;
use platform_api::{ActionStatus, ServiceState, ServiceType, SubAction};
use sqlx::{Sqlite, Transaction};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use super::status;

use crate::audit;
use crate::caller::Caller;
use crate::error::{ApiError, ApiResult};
use crate::store::action::{Action, Request};

use super::rows::{log, set_state};
use super::Engine;
use crate::store::scope::busy_states;

/// 409 when `action` makes no sense in the service's present state.
pub fn precondition(action: Action, current: &platform_api::Status) -> ApiResult<()> {
    let refusal = match action {
        Action::Deploy => None,
        Action::Restart if !current.runs() => {
            Some("This service runs nothing to restart; deploy it first.")
        }
        Action::Stop if !current.runs() => Some("This service runs nothing to stop."),
        Action::Uninstall if !current.installed() => Some("Nothing of this service is installed."),
        _ => None,
    };
    refusal.map_or(Ok(()), |message| Err(ApiError::conflict(message)))
}

/// Who asked for an action, and from where.
#[derive(Clone, Copy, Debug)]
pub struct AskedBy<'a> {
    pub name: &'a str,
    pub origin: platform_api::audit::Origin,
}

impl<'a> From<&'a Caller> for AskedBy<'a> {
    fn from(caller: &'a Caller) -> Self {
        Self {
            name: &caller.name,
            origin: caller.client.origin,
        }
    }
}

/// An action `Engine::queue` wrote: its deployment, and the service's status it left.
pub struct Queued {
    pub deployment_id: Uuid,
    pub status: platform_api::Status,
}

impl Engine {
    /// Queues `action` on the service and starts working on it, recorded in the audit log as
    /// asked by `caller`. 409 while another action runs on the service, or when the action makes
    /// no sense in its state.
    pub async fn request(
        self: &Arc<Self>,
        request: impl Into<Request>,
        service_id: Uuid,
        caller: &Caller,
    ) -> ApiResult<platform_api::Status> {
        let request = request.into();
        let event_type = request.action.event_type();
        let mut tx = self.begin().await?;
        let queued = self
            .queue(&mut tx, request, service_id, caller.into())
            .await?;
        let target = audit::Target::service(&mut tx, service_id).await?;
        audit::record(&mut tx, caller, audit::Change::new(event_type, target)).await?;
        tx.commit().await?;
        self.start(queued.deployment_id);
        Ok(queued.status)
    }

    /// Queues `action` on the service in `tx`; nothing runs until `start` is called with the
    /// deployment, after `tx` commits. 409 while another action runs on the service, or when the
    /// action makes no sense in its state.
    pub async fn queue(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        request: Request,
        service_id: Uuid,
        asked_by: AskedBy<'_>,
    ) -> ApiResult<Queued> {
        let triggered_by = asked_by.name;
        let Request {
            action,
            git_commit_id,
            plan_only,
            rollback_to,
            environment_execution_id,
            stage,
        } = request;
        let current = status::of_service(tx, service_id).await?;
        precondition(action, &current)?;
        #[derive(sqlx::FromRow)]
        struct Service {
            kind: ServiceType,
            #[sqlx(try_from = "Hyphenated")]
            organization_id: Uuid,
        }
        let service: Service =
            sqlx::query_as("SELECT kind, organization_id FROM services WHERE id = ?")
                .bind(service_id.hyphenated())
                .fetch_one(&mut **tx)
                .await?;
        self.ensure_room(tx, service.organization_id).await?;
        let kind = service.kind;
        let sub_action = action.sub_action(kind, plan_only);
        let from_git = Self::repository(tx, service_id, kind).await?.is_some();
        let deployment_id = Uuid::new_v4();
        let now = Utc::now();
        // One conditional update claims the service, so two concurrent requests cannot both win.
        let claimed = sqlx::query(&format!(
            "UPDATE service_statuses
             SET state = ?, action = ?, action_status = ?, sub_action = ?,
                 deployment_request_id = ?, execution_id = ?
             WHERE service_id = ? AND state NOT IN ({})",
            busy_states()
        ))
        .bind(action.queued())
        .bind(action.status_action())
        .bind(ActionStatus::Queued)
        .bind(sub_action)
        .bind(deployment_id.hyphenated())
        .bind(deployment_id.simple())
        .bind(service_id.hyphenated())
        .execute(&mut **tx)
        .await?;
        if claimed.rows_affected() == 0 {
            return Err(ApiError::conflict(
                "An action is already running on this service; wait for it to finish or cancel it.",
            ));
        }
        sqlx::query(
            "INSERT INTO deployments (id, service_id, execution_id, action, sub_action, git_commit_id, state, created_at, updated_at, triggered_by, origin, rollback_to, environment_execution_id, stage_position, stage_name, spec)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT spec FROM services WHERE id = ?))",
        )
        .bind(deployment_id.hyphenated())
        .bind(service_id.hyphenated())
        .bind(deployment_id.simple())
        .bind(action.status_action())
        .bind(sub_action)
        .bind(git_commit_id.as_deref())
        .bind(action.queued())
        .bind(now)
        .bind(now)
        .bind(triggered_by)
        .bind(asked_by.origin)
        .bind(rollback_to.as_deref())
        .bind(environment_execution_id.as_deref())
        .bind(stage.as_ref().map(|stage| stage.position))
        .bind(stage.as_ref().map(|stage| stage.name.as_str()))
        .bind(service_id.hyphenated())
        .execute(&mut **tx)
        .await?;
        let requested = match (action, &git_commit_id) {
            _ if sub_action == SubAction::TerraformPlanOnly => {
                "Plan requested: nothing will be applied; waiting in the queue.".to_string()
            }
            _ if rollback_to.is_some() => format!(
                "Rollback requested to deployment {}{}; waiting in the queue.",
                rollback_to.as_deref().unwrap_or_default(),
                git_commit_id
                    .as_deref()
                    .map(|commit| format!(" (commit {commit})"))
                    .unwrap_or_default()
            ),
            (Action::Deploy, Some(commit)) => {
                format!("Deployment requested at commit {commit}; waiting in the queue.")
            }
            (Action::Deploy, None) if from_git => {
                "Deployment requested at the branch's latest commit; waiting in the queue."
                    .to_string()
            }
            (Action::Deploy, None) => "Deployment requested; waiting in the queue.".to_string(),
            _ => format!(
                "{} requested by {triggered_by}; waiting in the queue.",
                action.noun()
            ),
        };
        log(tx, deployment_id, service_id, &requested).await?;
        if let Some(stage) = &stage {
            let waits = format!(
                "Runs in the stage {}, once the stages before it have deployed.",
                stage.name
            );
            log(tx, deployment_id, service_id, &waits).await?;
        }
        // The answer is the service as this request left it, whatever the engine does next.
        Ok(Queued {
            deployment_id,
            status: status::of_service(tx, service_id).await?,
        })
    }

    /// 503 when the organization has `queue_limit` actions waiting already: the queue is full
    /// for it (others have their own turns), and the request may be sent again later.
    pub(super) async fn ensure_room(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        organization_id: Uuid,
    ) -> ApiResult<()> {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE d.finished_at IS NULL AND d.worker_at IS NULL AND s.organization_id = ?",
        )
        .bind(organization_id.hyphenated())
        .fetch_one(&mut **tx)
        .await?;
        if waiting >= self.queue_limit as i64 {
            return Err(ApiError::busy());
        }
        Ok(())
    }

    /// Stops the action running or queued on the service: its wait ends at once (in the queue or
    /// inside a step) and no later step runs. 409 when nothing runs.
    pub async fn cancel(
        &self,
        service_id: Uuid,
        caller: &Caller,
    ) -> ApiResult<platform_api::Status> {
        let mut tx = self.begin().await?;
        let running: Option<Hyphenated> = sqlx::query_scalar(
            "SELECT deployment_request_id FROM service_statuses
             WHERE service_id = ? AND deployment_request_id IS NOT NULL",
        )
        .bind(service_id.hyphenated())
        .fetch_optional(&mut *tx)
        .await?;
        let canceled = match running {
            Some(deployment_id) => {
                self.mark_canceled(&mut tx, deployment_id.into_uuid())
                    .await?
            }
            None => None,
        };
        let Some(deployment_id) = canceled else {
            return Err(ApiError::conflict(
                "Nothing runs on this service to cancel.",
            ));
        };
        let canceling = status::of_service(&mut tx, service_id).await?;
        let target = audit::Target::service(&mut tx, service_id).await?;
        let change = audit::Change::new(platform_api::audit::EventType::TriggerCancel, target);
        audit::record(&mut tx, caller, change).await?;
        tx.commit().await?;
        self.ring_cancel(deployment_id);
        Ok(canceling)
    }

    /// Cancels the deployment request `request_id` of the caller's organization (one action, or
    /// the actions one request on an environment queued together) while it waits in the queue:
    /// what has not started never starts. 404 for a request of another organization; 409 when
    /// all of it has started or ended (a running deployment is canceled with its environment's).
    pub async fn cancel_queued(&self, request_id: Uuid, caller: &Caller) -> ApiResult<()> {
        let mut tx = self.begin().await?;
        #[derive(sqlx::FromRow)]
        struct Asked {
            #[sqlx(try_from = "Hyphenated")]
            id: Uuid,
            #[sqlx(try_from = "Hyphenated")]
            service_id: Uuid,
            waiting: bool,
        }
        let actions: Vec<Asked> = sqlx::query_as(
            "SELECT d.id, d.service_id, d.finished_at IS NULL AND d.worker_at IS NULL AS waiting
             FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE (d.id = ? OR d.environment_execution_id = ?) AND s.organization_id = ?",
        )
        .bind(request_id.hyphenated())
        .bind(request_id.simple())
        .bind(caller.organization_id.hyphenated())
        .fetch_all(&mut *tx)
        .await?;
        if actions.is_empty() {
            return Err(ApiError::not_found("deployment request"));
        }
        let mut canceled = Vec::new();
        for asked in actions {
            if !asked.waiting {
                continue;
            }
            if let Some(id) = self.mark_canceled(&mut tx, asked.id).await? {
                let target = audit::Target::service(&mut tx, asked.service_id).await?;
                let change =
                    audit::Change::new(platform_api::audit::EventType::TriggerCancel, target);
                audit::record(&mut tx, caller, change).await?;
                canceled.push(id);
            }
        }
        if canceled.is_empty() {
            return Err(ApiError::conflict(
                "This deployment request is no longer waiting in the queue; cancel its environment's deployment instead.",
            ));
        }
        tx.commit().await?;
        for deployment_id in canceled {
            self.ring_cancel(deployment_id);
        }
        Ok(())
    }

    /// Cancels every action running or queued on the environment's services. 409 when none
    /// runs.
    pub async fn cancel_environment(&self, environment_id: Uuid, caller: &Caller) -> ApiResult<()> {
        let mut tx = self.begin().await?;
        let unfinished: Vec<Hyphenated> = sqlx::query_scalar(
            "SELECT d.id FROM deployments d JOIN services s ON s.id = d.service_id
             WHERE s.environment_id = ? AND d.finished_at IS NULL AND d.cancel_requested = 0
             ORDER BY d.rowid",
        )
        .bind(environment_id.hyphenated())
        .fetch_all(&mut *tx)
        .await?;
        let mut canceled = Vec::new();
        for deployment_id in unfinished {
            if let Some(id) = self
                .mark_canceled(&mut tx, deployment_id.into_uuid())
                .await?
            {
                canceled.push(id);
            }
        }
        if canceled.is_empty() {
            return Err(ApiError::conflict(
                "No deployment of this environment runs or waits to cancel.",
            ));
        }
        let target = audit::Target::environment(&mut tx, environment_id).await?;
        let change = audit::Change::new(platform_api::audit::EventType::TriggerCancel, target);
        audit::record(&mut tx, caller, change).await?;
        tx.commit().await?;
        for deployment_id in canceled {
            self.ring_cancel(deployment_id);
        }
        Ok(())
    }

    /// Marks the action canceled in `tx` (its service CANCELING, a log line saying so) unless it
    /// has ended or is canceled already: its id when marked. `ring_cancel` once `tx` commits.
    pub(super) async fn mark_canceled(
        &self,
        tx: &mut Transaction<'_, Sqlite>,
        deployment_id: Uuid,
    ) -> ApiResult<Option<Uuid>> {
        let marked: Option<Hyphenated> = sqlx::query_scalar(
            "UPDATE deployments SET cancel_requested = 1
             WHERE id = ? AND finished_at IS NULL AND cancel_requested = 0
             RETURNING service_id",
        )
        .bind(deployment_id.hyphenated())
        .fetch_optional(&mut **tx)
        .await?;
        let Some(service_id) = marked.map(Hyphenated::into_uuid) else {
            return Ok(None);
        };
        set_state(
            tx,
            deployment_id,
            service_id,
            ServiceState::Canceling,
            ActionStatus::Canceling,
        )
        .await?;
        log(
            tx,
            deployment_id,
            service_id,
            "Cancel requested; the running step stops now.",
        )
        .await?;
        Ok(Some(deployment_id))
    }
}
