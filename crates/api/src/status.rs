//! Service status (spec 2.16), the state enumerations (spec 3) and the batched environment
//! statuses of DESIGN §3.

use crate::service_type::ServiceType;
use crate::wire::WireEnum;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

wire_enum!(
    /// Service state (spec 3.1).
    sentence_case ServiceState {
        Building = "BUILDING",
        BuildError = "BUILD_ERROR",
        Canceled = "CANCELED",
        Canceling = "CANCELING",
        Deleted = "DELETED",
        DeleteError = "DELETE_ERROR",
        DeleteQueued = "DELETE_QUEUED",
        Deleting = "DELETING",
        Deployed = "DEPLOYED",
        Deploying = "DEPLOYING",
        DeploymentError = "DEPLOYMENT_ERROR",
        DeploymentQueued = "DEPLOYMENT_QUEUED",
        Executing = "EXECUTING",
        Queued = "QUEUED",
        Ready = "READY",
        Recap = "RECAP",
        Restarted = "RESTARTED",
        Restarting = "RESTARTING",
        RestartError = "RESTART_ERROR",
        RestartQueued = "RESTART_QUEUED",
        Stopped = "STOPPED",
        Stopping = "STOPPING",
        StopError = "STOP_ERROR",
        StopQueued = "STOP_QUEUED",
        WaitingDeleting = "WAITING_DELETING",
        WaitingRestarting = "WAITING_RESTARTING",
        WaitingRunning = "WAITING_RUNNING",
        WaitingStopping = "WAITING_STOPPING",
        Unavailable = "UNAVAILABLE",
    }
);

/// How a state reads at a glance: the console colours a badge by it, the engine stops at the
/// settled ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateTone {
    /// Work is queued or running.
    Progress,
    /// The last action ended well.
    Success,
    /// The last action failed.
    Failure,
    /// Nothing runs and nothing failed: ready, stopped, deleted, canceled.
    Neutral,
}

impl ServiceState {
    pub fn tone(self) -> StateTone {
        use ServiceState::*;
        match self {
            Building | Canceling | DeleteQueued | Deleting | Deploying | DeploymentQueued
            | Executing | Queued | Restarting | RestartQueued | Stopping | StopQueued
            | WaitingDeleting | WaitingRestarting | WaitingRunning | WaitingStopping => {
                StateTone::Progress
            }
            Deployed | Restarted => StateTone::Success,
            BuildError | DeleteError | DeploymentError | RestartError | StopError => {
                StateTone::Failure
            }
            Canceled | Deleted | Ready | Recap | Stopped | Unavailable | Other(_) => {
                StateTone::Neutral
            }
        }
    }

    /// True while an action runs: a view showing this state keeps polling.
    pub fn is_in_progress(self) -> bool {
        self.tone() == StateTone::Progress
    }
}

wire_enum!(
    /// Deployment status of a service (spec 3.3).
    sentence_case DeploymentStatus {
        NeverDeployed = "NEVER_DEPLOYED",
        OutOfDate = "OUT_OF_DATE",
        UpToDate = "UP_TO_DATE",
    }
);

impl DeploymentStatus {
    /// The status once the service's settings or variables change: what runs is then older than
    /// what is configured, if it ran what was.
    pub fn after_change(self) -> Self {
        match self {
            DeploymentStatus::UpToDate => DeploymentStatus::OutOfDate,
            other => other,
        }
    }
}

wire_enum!(
    /// `status_details.action` (DESIGN §3).
    StatusAction {
        Deploy = "DEPLOY" => "Deploy",
        // DELETE keeps the configuration: a person asks for it as Uninstall.
        Delete = "DELETE" => "Uninstall",
        Restart = "RESTART" => "Restart",
        Stop = "STOP" => "Stop",
        Unknown = "UNKNOWN" => "Unknown",
    }
);

wire_enum!(
    /// `status_details.status` (DESIGN §3).
    ActionStatus {
        Queued = "QUEUED",
        Ongoing = "ONGOING",
        Success = "SUCCESS",
        Error = "ERROR",
        Executing = "EXECUTING",
        Canceled = "CANCELED",
        Canceling = "CANCELING",
        Never = "NEVER",
    }
);

wire_enum!(
    /// `status_details.sub_action` (DESIGN §3).
    sentence_case SubAction {
        None = "NONE",
        TerraformPlanOnly = "TERRAFORM_PLAN_ONLY",
        TerraformPlanAndApply = "TERRAFORM_PLAN_AND_APPLY",
        TerraformDestroy = "TERRAFORM_DESTROY",
        TerraformForceUnlockState = "TERRAFORM_FORCE_UNLOCK_STATE",
        TerraformMigrateState = "TERRAFORM_MIGRATE_STATE",
    }
);

wire_enum!(
    /// `steps.details[].step_name` (DESIGN §3).
    sentence_case StepName {
        RegistryCreateRepository = "REGISTRY_CREATE_REPOSITORY",
        GitClone = "GIT_CLONE",
        BuildQueueing = "BUILD_QUEUEING",
        Build = "BUILD",
        DeploymentQueueing = "DEPLOYMENT_QUEUEING",
        Deployment = "DEPLOYMENT",
        RouterDeployment = "ROUTER_DEPLOYMENT",
        MirrorImage = "MIRROR_IMAGE",
        Executing = "EXECUTING",
    }
);

wire_enum!(
    /// `steps.details[].status` (DESIGN §3).
    StepStatus {
        Success = "SUCCESS",
        Error = "ERROR",
        Cancel = "CANCEL",
        Skip = "SKIP",
    }
);

wire_enum!(
    /// Cluster status (spec 3.2).
    sentence_case ClusterState {
        Building = "BUILDING",
        BuildError = "BUILD_ERROR",
        Canceled = "CANCELED",
        Canceling = "CANCELING",
        Deleted = "DELETED",
        DeleteError = "DELETE_ERROR",
        DeleteQueued = "DELETE_QUEUED",
        Deleting = "DELETING",
        Deployed = "DEPLOYED",
        Deploying = "DEPLOYING",
        DeploymentError = "DEPLOYMENT_ERROR",
        DeploymentQueued = "DEPLOYMENT_QUEUED",
        DryRun = "DRY_RUN",
        Queued = "QUEUED",
        Ready = "READY",
        Stopped = "STOPPED",
        Stopping = "STOPPING",
        StopError = "STOP_ERROR",
        StopQueued = "STOP_QUEUED",
        RestartQueued = "RESTART_QUEUED",
        Restarting = "RESTARTING",
        Restarted = "RESTARTED",
        RestartError = "RESTART_ERROR",
        InvalidCredentials = "INVALID_CREDENTIALS",
    }
);

impl ClusterState {
    pub fn tone(self) -> StateTone {
        use ClusterState::*;
        match self {
            Building | Canceling | DeleteQueued | Deleting | Deploying | DeploymentQueued
            | Queued | Restarting | RestartQueued | Stopping | StopQueued => StateTone::Progress,
            Deployed | Restarted => StateTone::Success,
            BuildError | DeleteError | DeploymentError | RestartError | StopError
            | InvalidCredentials => StateTone::Failure,
            Canceled | Deleted | DryRun | Ready | Stopped | Other(_) => StateTone::Neutral,
        }
    }

    /// True while the engine works on the cluster (an upgrade, say): another one waits.
    pub fn is_in_progress(self) -> bool {
        self.tone() == StateTone::Progress
    }
}

/// Status of a service (spec 2.16). Every field is always present; `null` where allowed.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Status {
    pub id: Uuid,
    pub state: ServiceState,
    pub service_deployment_status: DeploymentStatus,
    pub is_part_last_deployment: bool,
    pub status_details: StatusDetails,
    #[serialize_always]
    pub deployment_request_id: Option<Uuid>,
    pub deployment_requests_count: i64,
    #[serde(default, with = "crate::timestamp::option")]
    pub last_deployment_date: Option<DateTime<Utc>>,
    pub steps: Option<Steps>,
    pub execution_id: Option<String>,
}

impl Status {
    /// Whether the service runs something a restart or a stop applies to: deployed, and neither
    /// stopped nor deleted since.
    pub fn runs(&self) -> bool {
        self.installed() && !matches!(self.state, ServiceState::Stopped | ServiceState::Deleted)
    }

    /// Whether anything of the service is installed, for an uninstall to delete.
    pub fn installed(&self) -> bool {
        self.service_deployment_status != DeploymentStatus::NeverDeployed
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusDetails {
    pub action: StatusAction,
    pub status: ActionStatus,
    pub sub_action: SubAction,
}

impl StatusDetails {
    /// The action in words, with its variant when it has one: "Deploy · Terraform plan only".
    pub fn label(&self) -> String {
        match self.sub_action {
            SubAction::None => self.action.label().to_string(),
            variant => format!("{} · {}", self.action.label(), variant.label()),
        }
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Steps {
    pub total_duration_sec: i64,
    pub total_computing_duration_sec: i64,
    pub details: Vec<Step>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Step {
    pub step_name: StepName,
    pub status: StepStatus,
    pub duration_sec: i64,
}

/// State of the environment as a whole, in the batched statuses answer.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentState {
    pub id: Uuid,
    pub state: ServiceState,
    /// The state the environment's last deployment reached (or is in).
    pub last_deployment_state: ServiceState,
    #[serde(default, with = "crate::timestamp::option")]
    pub last_deployment_date: Option<DateTime<Utc>>,
}

/// `GET /environment/{id}/statuses`: one call for every service of an environment.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentStatuses {
    pub environment: EnvironmentState,
    pub applications: Vec<Status>,
    pub containers: Vec<Status>,
    pub jobs: Vec<Status>,
    pub databases: Vec<Status>,
    pub helms: Vec<Status>,
    pub terraforms: Vec<Status>,
}

impl EnvironmentStatuses {
    /// Every service status, whatever its kind.
    pub fn all(&self) -> impl Iterator<Item = &Status> {
        self.applications
            .iter()
            .chain(&self.containers)
            .chain(&self.jobs)
            .chain(&self.databases)
            .chain(&self.helms)
            .chain(&self.terraforms)
    }

    /// The kind of the service with this id, when it is one of the environment's.
    pub fn kind_of(&self, service_id: Uuid) -> Option<ServiceType> {
        [
            (ServiceType::Application, &self.applications),
            (ServiceType::Container, &self.containers),
            (ServiceType::Job, &self.jobs),
            (ServiceType::Database, &self.databases),
            (ServiceType::Helm, &self.helms),
            (ServiceType::Terraform, &self.terraforms),
        ]
        .into_iter()
        .find(|(_, statuses)| statuses.iter().any(|status| status.id == service_id))
        .map(|(kind, _)| kind)
    }

    pub fn any_in_progress(&self) -> bool {
        self.all().any(|status| status.state.is_in_progress())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_has_a_tone_and_a_label() {
        assert_eq!(ServiceState::ALL.len(), 29);
        for state in ServiceState::ALL {
            assert!(!state.label().is_empty());
            assert_eq!(state.as_str().parse::<ServiceState>(), Ok(*state));
        }
        assert_eq!(ServiceState::DeploymentQueued.label(), "Deployment queued");
        assert_eq!(StepName::Build.label(), "Build");
        assert_eq!(StatusAction::Delete.label(), "Uninstall");
        let terraform = StatusDetails {
            action: StatusAction::Deploy,
            status: ActionStatus::Queued,
            sub_action: SubAction::TerraformPlanOnly,
        };
        assert_eq!(terraform.label(), "Deploy · Terraform plan only");
    }

    #[test]
    fn in_progress_states_are_the_queued_and_running_ones() {
        assert!(ServiceState::DeploymentQueued.is_in_progress());
        assert!(ServiceState::Building.is_in_progress());
        assert!(!ServiceState::Deployed.is_in_progress());
        assert!(!ServiceState::BuildError.is_in_progress());
        assert_eq!(ServiceState::DeploymentError.tone(), StateTone::Failure);
    }

    #[test]
    fn status_serializes_every_field_with_nulls() {
        let status = Status {
            id: Uuid::nil(),
            state: ServiceState::Ready,
            service_deployment_status: DeploymentStatus::NeverDeployed,
            is_part_last_deployment: false,
            status_details: StatusDetails {
                action: StatusAction::Deploy,
                status: ActionStatus::Never,
                sub_action: SubAction::None,
            },
            deployment_request_id: None,
            deployment_requests_count: 0,
            last_deployment_date: None,
            steps: None,
            execution_id: None,
        };
        let json = serde_json::to_value(&status).unwrap();
        for field in [
            "deployment_request_id",
            "last_deployment_date",
            "steps",
            "execution_id",
        ] {
            assert_eq!(json[field], serde_json::Value::Null, "{field}");
        }
        assert_eq!(json["state"], "READY");
        assert_eq!(json["status_details"]["sub_action"], "NONE");
    }

    #[test]
    fn a_value_this_version_does_not_know_reads_in_its_enums_words() {
        // Built directly: reading one needs `accept_unknown_values`, which is process-wide.
        let state = ServiceState::Other("A_NEWER_STATE");
        assert_eq!(state.label(), "A newer state");
        assert_eq!(state.as_str(), "A_NEWER_STATE");
        assert_eq!(
            crate::EnvironmentMode::Other("SANDBOX").label(),
            "SANDBOX",
            "an enum with declared labels shows an unknown value as sent"
        );
    }

    #[test]
    fn unknown_wire_value_is_an_error() {
        let error = "RUNNING".parse::<ServiceState>().unwrap_err();
        assert_eq!(error.to_string(), "\"RUNNING\" is not a ServiceState value");
    }
}
