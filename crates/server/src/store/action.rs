//! The actions the engine runs, and the states each moves a service through (DESIGN §3).

use platform_api::{
    DeploymentStatus, ServiceState, ServiceType, StatusAction, StepName, SubAction,
};

/// What a caller asks the engine to run on a service.
#[derive(Clone, Debug)]
pub struct Request {
    pub action: Action,
    /// The commit to deploy; the branch's latest when `None`.
    pub git_commit_id: Option<String>,
    /// Terraform services: plan only.
    pub plan_only: bool,
    /// The execution id of the earlier deployment this one deploys again.
    pub rollback_to: Option<String>,
    /// The execution id of the request on the environment this action is one of.
    pub environment_execution_id: Option<String>,
    /// The stage of that request it runs in: it starts once the earlier stages have finished.
    pub stage: Option<InStage>,
}

/// A stage of a request on an environment: its place (from 1) and its name.
#[derive(Clone, Debug)]
pub struct InStage {
    pub position: i64,
    pub name: String,
}

impl From<Action> for Request {
    fn from(action: Action) -> Self {
        Request {
            action,
            git_commit_id: None,
            plan_only: false,
            rollback_to: None,
            environment_execution_id: None,
            stage: None,
        }
    }
}

impl Request {
    /// A redeploy of the service: a deploy of the version it runs now (the commit it was last
    /// deployed at; the same image tag or chart, which its configuration holds). 409 when it
    /// was never deployed.
    pub async fn redeploy(
        conn: &mut sqlx::SqliteConnection,
        service_id: uuid::Uuid,
    ) -> crate::error::ApiResult<Self> {
        #[derive(sqlx::FromRow)]
        struct Deployed {
            kind: ServiceType,
            deployment_status: DeploymentStatus,
            spec: String,
        }
        let Deployed {
            kind,
            deployment_status,
            spec,
        } = sqlx::query_as(
            "SELECT s.kind, st.deployment_status, s.spec FROM services s
             JOIN service_statuses st ON st.service_id = s.id WHERE s.id = ?",
        )
        .bind(service_id.hyphenated())
        .fetch_one(conn)
        .await?;
        if deployment_status == DeploymentStatus::NeverDeployed {
            return Err(crate::error::ApiError::conflict(
                "This service was never deployed: deploy it first.",
            ));
        }
        let spec: serde_json::Value =
            serde_json::from_str(&spec).map_err(crate::error::ApiError::internal)?;
        let git_commit_id = kind
            .git_repository_path()
            .map(|path| {
                format!(
                    "{}/deployed_commit_id",
                    path.trim_start_matches('$').replace('.', "/")
                )
            })
            .and_then(|pointer| spec.pointer(&pointer)?.as_str().map(str::to_string));
        Ok(Request {
            git_commit_id,
            ..Request::from(Action::Deploy)
        })
    }

    /// This action, as one of those a request on an environment runs.
    pub fn within(mut self, environment_execution_id: &str) -> Self {
        self.environment_execution_id = Some(environment_execution_id.to_string());
        self
    }

    /// This action, run in `stage` of the request on its environment.
    pub fn in_stage(mut self, stage: InStage) -> Self {
        self.stage = Some(stage);
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Deploy,
    Restart,
    Stop,
    /// Compute and data deleted, configuration kept.
    Uninstall,
}

impl Action {
    /// The audit log's name for a request of this action.
    pub fn event_type(self) -> platform_api::audit::EventType {
        use platform_api::audit::EventType;
        match self {
            Action::Deploy => EventType::TriggerDeploy,
            Action::Restart => EventType::TriggerRestart,
            Action::Stop => EventType::TriggerStop,
            Action::Uninstall => EventType::TriggerUninstall,
        }
    }

    pub fn status_action(self) -> StatusAction {
        match self {
            Action::Deploy => StatusAction::Deploy,
            Action::Restart => StatusAction::Restart,
            Action::Stop => StatusAction::Stop,
            Action::Uninstall => StatusAction::Delete,
        }
    }

    pub fn from_status_action(action: StatusAction) -> Option<Action> {
        match action {
            StatusAction::Deploy => Some(Action::Deploy),
            StatusAction::Restart => Some(Action::Restart),
            StatusAction::Stop => Some(Action::Stop),
            StatusAction::Delete => Some(Action::Uninstall),
            StatusAction::Unknown | StatusAction::Other(_) => None,
        }
    }

    pub fn queued(self) -> ServiceState {
        match self {
            Action::Deploy => ServiceState::DeploymentQueued,
            Action::Restart => ServiceState::RestartQueued,
            Action::Stop => ServiceState::StopQueued,
            Action::Uninstall => ServiceState::DeleteQueued,
        }
    }

    pub fn done(self) -> ServiceState {
        match self {
            Action::Deploy => ServiceState::Deployed,
            Action::Restart => ServiceState::Restarted,
            Action::Stop => ServiceState::Stopped,
            Action::Uninstall => ServiceState::Deleted,
        }
    }

    /// The state a failure at `step` leaves the service in.
    pub fn failed(self, step: StepName) -> ServiceState {
        match self {
            Action::Deploy
                if matches!(
                    step,
                    StepName::RegistryCreateRepository
                        | StepName::GitClone
                        | StepName::BuildQueueing
                        | StepName::Build
                        | StepName::MirrorImage
                ) =>
            {
                ServiceState::BuildError
            }
            Action::Deploy => ServiceState::DeploymentError,
            Action::Restart => ServiceState::RestartError,
            Action::Stop => ServiceState::StopError,
            Action::Uninstall => ServiceState::DeleteError,
        }
    }

    /// The variant of the action a service of `kind` runs: terraform plans, applies, destroys.
    pub fn sub_action(self, kind: ServiceType, plan_only: bool) -> SubAction {
        match (self, kind) {
            (Action::Deploy, ServiceType::Terraform) if plan_only => SubAction::TerraformPlanOnly,
            (Action::Deploy, ServiceType::Terraform) => SubAction::TerraformPlanAndApply,
            (Action::Uninstall, ServiceType::Terraform) => SubAction::TerraformDestroy,
            _ => SubAction::None,
        }
    }

    /// What a person asks for: "deploy", "restart", ...
    pub fn verb(self) -> &'static str {
        match self {
            Action::Deploy => "deploy",
            Action::Restart => "restart",
            Action::Stop => "stop",
            Action::Uninstall => "uninstall",
        }
    }

    /// How a person reads it in a log line.
    pub fn noun(self) -> &'static str {
        match self {
            Action::Deploy => "Deployment",
            Action::Restart => "Restart",
            Action::Stop => "Stop",
            Action::Uninstall => "Uninstall",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_action_has_its_states() {
        for action in [
            Action::Deploy,
            Action::Restart,
            Action::Stop,
            Action::Uninstall,
        ] {
            assert!(action.queued().is_in_progress());
            assert!(!action.done().is_in_progress());
            assert_eq!(
                Action::from_status_action(action.status_action()),
                Some(action)
            );
        }
        assert_eq!(
            Action::Deploy.failed(StepName::Build),
            ServiceState::BuildError
        );
        assert_eq!(
            Action::Deploy.failed(StepName::Deployment),
            ServiceState::DeploymentError
        );
        assert_eq!(
            Action::Restart.failed(StepName::Deployment),
            ServiceState::RestartError
        );
    }
}
