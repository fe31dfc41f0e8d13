//! Logs, in the production document's shapes: what the deployments of an environment's services
//! wrote (`GET /environment/{id}/logs`, each line naming its service in `details.transmitter`,
//! and the older `GET /environment/{id}/log`), and what a running service's instances print
//! (`GET /application|container/{id}/log`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// How many lines an environment's deployment log answers at most: its last ones.
pub const ENVIRONMENT_LOG_LINES: i64 = 1000;
/// How many lines a service's instance log answers at most: its last ones.
pub const INSTANCE_LOG_LINES: i64 = 1000;

/// The service (or environment) a line of an environment's deployment log is about.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogTransmitter {
    #[serde(default)]
    pub id: Option<Uuid>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentLogDetails {
    #[serde(default)]
    pub organization_id: Option<Uuid>,
    #[serde(default)]
    pub cluster_id: Option<Uuid>,
    /// The execution of the service's action the line belongs to.
    #[serde(default)]
    pub execution_id: Option<String>,
    #[serde(default)]
    pub transmitter: Option<LogTransmitter>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogMessage {
    #[serde(default)]
    pub safe_message: Option<String>,
    #[serde(default)]
    pub full_details: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LogError {
    #[serde(default)]
    pub user_log_message: Option<String>,
    #[serde(default)]
    pub hint_message: Option<String>,
}

/// A line of an environment's deployment log (the document's `EnvironmentLogs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentLogLine {
    /// `Info`, or `Error` for the line that says why an action failed.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(with = "crate::timestamp")]
    pub timestamp: DateTime<Utc>,
    pub details: DeploymentLogDetails,
    #[serde(default)]
    pub message: Option<LogMessage>,
    #[serde(default)]
    pub error: Option<LogError>,
}

impl DeploymentLogLine {
    /// The id of the service that wrote it, if a service did.
    pub fn service_id(&self) -> Option<Uuid> {
        self.details.transmitter.as_ref()?.id
    }

    /// The line as a page shows it.
    pub fn to_line(&self) -> LogLine {
        let text = self
            .message
            .as_ref()
            .and_then(|message| message.safe_message.clone())
            .or_else(|| {
                self.error
                    .as_ref()
                    .and_then(|error| error.user_log_message.clone())
            })
            .unwrap_or_default();
        LogLine {
            created_at: self.timestamp,
            execution_id: self.details.execution_id.clone().unwrap_or_default(),
            message: text,
        }
    }
}

/// Query of `GET /environment/{id}/logs`: the lines of one execution (a service's action, or a
/// request on the environment) when `version` names it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentLogsQuery {
    #[serde(default)]
    pub version: Option<String>,
}

/// A line of what the engine did to a service, as the pages show it.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub created_at: DateTime<Utc>,
    pub execution_id: String,
    pub message: String,
}

wire_enum!(
    /// What a line of the older environment log is about.
    EnvironmentLogType {
        Application = "APPLICATION",
        Database = "DATABASE",
        Environment = "ENVIRONMENT",
    }
);

wire_enum!(
    /// Where an action stood when it wrote a line of the older environment log.
    StatusKind {
        Canceled = "CANCELED",
        Canceling = "CANCELING",
        Deleted = "DELETED",
        DeleteError = "DELETE_ERROR",
        DeleteInProgress = "DELETE_IN_PROGRESS",
        Deployed = "DEPLOYED",
        DeploymentError = "DEPLOYMENT_ERROR",
        DeploymentInProgress = "DEPLOYMENT_IN_PROGRESS",
        Error = "ERROR",
        Paused = "PAUSED",
        PauseError = "PAUSE_ERROR",
        PauseInProgress = "PAUSE_IN_PROGRESS",
        Waiting = "WAITING",
    }
);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentLogScope {
    #[serde(rename = "type")]
    pub kind: EnvironmentLogType,
    pub name: String,
    pub id: Uuid,
}

/// A line of the older environment log (`GET /environment/{id}/log`, the document's
/// `EnvironmentLog`). The document requires `service` and `status` without describing them: here
/// the service's name and the same word as `state`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentLogEntry {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    pub scope: EnvironmentLogScope,
    pub state: StatusKind,
    pub message: String,
    pub execution_id: String,
    pub service: String,
    pub status: StatusKind,
}

/// A line a running service's instance printed (the document's `Log`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InstanceLogLine {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    pub message: String,
    /// The instance that printed it.
    #[serde(default)]
    pub pod_name: Option<String>,
    /// The version it runs: the commit or the image tag.
    #[serde(default)]
    pub version: Option<String>,
}
