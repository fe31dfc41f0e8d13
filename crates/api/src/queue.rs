//! A service's actions waiting for the engine (the production document's
//! `QueuedDeploymentRequestForService`), with where each stands in the queue and what it waits
//! for.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::service_type::ServiceType;
use crate::status::StatusDetails;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedIdentifier {
    pub deployment_request_id: Uuid,
    pub service_id: Uuid,
    pub service_type: ServiceType,
    pub name: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedAuditingData {
    pub triggered_by: String,
    #[serde(default)]
    pub origin: Option<String>,
}

/// What a queued action waits for (ours): the engine's workers, all busy, and the actions
/// asked for before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueueWait {
    /// The engine's workers, and how many run an action now.
    pub workers: i64,
    pub busy_workers: i64,
    /// Actions of this organization waiting ahead of this one, and how many of them are of this
    /// environment.
    pub ahead: i64,
    pub ahead_in_environment: i64,
    /// Actions of other organizations that get a worker before this one (the workers go to each
    /// organization in turn): counted, never shown.
    #[serde(default)]
    pub ahead_elsewhere: i64,
}

/// One action of the service waiting for a worker.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedDeploymentRequest {
    pub identifier: QueuedIdentifier,
    pub auditing_data: QueuedAuditingData,
    pub status_details: StatusDetails,
    #[serde(default)]
    pub icon_uri: String,
    /// Ours: when it was asked for.
    #[serde(default, with = "crate::timestamp::option")]
    pub queued_at: Option<DateTime<Utc>>,
    /// Ours: its place in the engine's queue, 1 for the next to get a worker.
    pub position: Option<i64>,
    /// Ours: what it waits for.
    pub waiting_for: Option<QueueWait>,
}

wire_enum!(
    /// What a deployment request asks of its services (the document's
    /// `DeploymentHistoryTriggerAction`).
    TriggerAction {
        Deploy = "DEPLOY",
        Delete = "DELETE",
        Restart = "RESTART",
        Stop = "STOP",
        DeployDryRun = "DEPLOY_DRY_RUN",
        TerraformForceUnlock = "TERRAFORM_FORCE_UNLOCK",
        TerraformMigrateState = "TERRAFORM_MIGRATE_STATE",
        DeleteResourcesOnly = "DELETE_RESOURCES_ONLY",
        Unknown = "UNKNOWN",
        Uninstall = "UNINSTALL",
    }
);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedRequestIdentifier {
    pub deployment_request_id: Uuid,
    pub environment_id: Uuid,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedServiceIdentifier {
    pub service_id: Uuid,
    pub service_type: ServiceType,
    pub name: String,
}

/// A service of a queued request on an environment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedStageService {
    pub identifier: QueuedServiceIdentifier,
    pub status: crate::history::StageStatus,
    #[serde(default)]
    pub icon_uri: String,
}

/// A stage of a queued request: its services, deployed together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedStage {
    pub name: String,
    pub status: crate::history::StageStatus,
    pub services: Vec<QueuedStageService>,
}

/// A request on an environment waiting in the queue (the document's
/// `QueuedDeploymentRequestWithStages`), in `GET /environment/{id}/deploymentQueue`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QueuedEnvironmentRequest {
    pub identifier: QueuedRequestIdentifier,
    pub auditing_data: QueuedAuditingData,
    pub trigger_action: TriggerAction,
    pub stages: Vec<QueuedStage>,
}

impl QueueWait {
    /// What the action waits for, in a sentence.
    pub fn sentence(&self) -> String {
        let workers = format!(
            "{} of {} worker{} busy",
            self.busy_workers,
            self.workers,
            if self.workers == 1 { "" } else { "s" }
        );
        let elsewhere = match self.ahead_elsewhere {
            0 => String::new(),
            1 => ", and 1 of another organization".to_string(),
            others => format!(", and {others} of other organizations"),
        };
        match (self.ahead, self.ahead_in_environment, self.ahead_elsewhere) {
            (0, _, 0) => format!("Next to run: waiting for a worker ({workers})."),
            (0, _, _) => format!("Next of this organization{elsewhere} first ({workers})."),
            (ahead, 0, _) => format!(
                "{ahead} action{} ahead, none of this environment{elsewhere} ({workers}).",
                if ahead == 1 { "" } else { "s" }
            ),
            (ahead, here, _) => format!(
                "{ahead} action{} ahead, {here} of this environment{elsewhere} ({workers}).",
                if ahead == 1 { "" } else { "s" }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_reads_as_a_sentence() {
        let wait = |ahead, here| QueueWait {
            workers: 2,
            busy_workers: 2,
            ahead,
            ahead_in_environment: here,
            ahead_elsewhere: 0,
        };
        assert_eq!(
            wait(0, 0).sentence(),
            "Next to run: waiting for a worker (2 of 2 workers busy)."
        );
        assert_eq!(
            wait(3, 1).sentence(),
            "3 actions ahead, 1 of this environment (2 of 2 workers busy)."
        );
        let shared = QueueWait {
            ahead_elsewhere: 4,
            ..wait(3, 1)
        };
        assert_eq!(
            shared.sentence(),
            "3 actions ahead, 1 of this environment, and 4 of other organizations (2 of 2 workers busy)."
        );
        assert_eq!(
            QueueWait {
                ahead_elsewhere: 1,
                ..wait(0, 0)
            }
            .sentence(),
            "Next of this organization, and 1 of another organization first (2 of 2 workers busy)."
        );
    }
}
