//! The older shape of the histories (the production document's `deploymentHistory`, before its
//! `V2`): a service's deploys and an environment's, each a record with an id, paged by the id
//! to start after. Both are read from the same records as the current histories.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::history::{
    Commit, DeployedChart, DeploymentHistoryEntry, EnvironmentDeployment, HistoryOutcome,
};
use crate::service_type::ServiceType;
use crate::status::{ActionStatus, ServiceState};

/// How many deploys a page of the older histories holds.
pub const DEPLOYS_PAGE_SIZE: i64 = 20;

/// The query of the older histories: `startId`, the deploy after which the page starts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeploysQuery {
    #[serde(rename = "startId", default)]
    pub start_id: Option<Uuid>,
}

/// One deploy of an application (the production document's `DeploymentHistory`); `status`
/// only once it ended.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServiceDeploy {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub commit: Option<Commit>,
    pub status: Option<HistoryOutcome>,
}

/// A page of an application's deploys, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServiceDeployPage {
    pub page: i64,
    pub page_size: i64,
    #[serde(default)]
    pub results: Vec<ServiceDeploy>,
}

/// One deploy of a service of another kind, or of a service within an environment's deploy
/// (the production document's `DeploymentHistoryApplication`, `…Container`, `…Database`,
/// `…JobResponse`, `…HelmResponse`: each kind's fields, absent where a kind has none); its id
/// is the deploy's.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployedService {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub status: ServiceState,
    pub commit: Option<Commit>,
    pub image_name: Option<String>,
    pub tag: Option<String>,
    pub repository: Option<DeployedChart>,
}

/// A page of a container's, a database's, a job's or a helm chart's deploys, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployedServicePage {
    pub page: i64,
    pub page_size: i64,
    #[serde(default)]
    pub results: Vec<DeployedService>,
}

/// One deploy of an environment (the production document's `DeploymentHistoryEnvironment`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeploy {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub status: ServiceState,
    pub origin: String,
    pub triggered_by: String,
    #[serde(default)]
    pub applications: Vec<DeployedService>,
    #[serde(default)]
    pub containers: Vec<DeployedService>,
    #[serde(default)]
    pub databases: Vec<DeployedService>,
    #[serde(default)]
    pub jobs: Vec<DeployedService>,
    #[serde(default)]
    pub helms: Vec<DeployedService>,
}

/// A page of an environment's deploys, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeployPage {
    pub page: i64,
    pub page_size: i64,
    #[serde(default)]
    pub results: Vec<EnvironmentDeploy>,
}

/// An execution id as the record's id: executions are uuids, written without hyphens.
fn execution_uuid(execution_id: &str) -> Uuid {
    Uuid::parse_str(execution_id).unwrap_or_default()
}

impl From<DeploymentHistoryEntry> for ServiceDeploy {
    fn from(entry: DeploymentHistoryEntry) -> Self {
        let status = match entry.status_details.status {
            ActionStatus::Success => Some(HistoryOutcome::Success),
            ActionStatus::Error | ActionStatus::Canceled => Some(HistoryOutcome::Failed),
            _ => None,
        };
        ServiceDeploy {
            id: execution_uuid(&entry.identifier.execution_id),
            created_at: entry.auditing_data.created_at,
            updated_at: entry.auditing_data.updated_at,
            name: entry.identifier.name,
            commit: entry.details.commit,
            status,
        }
    }
}

impl From<DeploymentHistoryEntry> for DeployedService {
    fn from(entry: DeploymentHistoryEntry) -> Self {
        DeployedService {
            id: execution_uuid(&entry.identifier.execution_id),
            created_at: entry.auditing_data.created_at,
            updated_at: entry.auditing_data.updated_at,
            name: entry.identifier.name,
            status: entry.status,
            commit: entry.details.commit,
            image_name: entry.details.image_name,
            tag: entry.details.tag,
            repository: entry.details.repository,
        }
    }
}

impl From<EnvironmentDeployment> for EnvironmentDeploy {
    fn from(deployment: EnvironmentDeployment) -> Self {
        let mut deploy = EnvironmentDeploy {
            id: execution_uuid(&deployment.identifier.execution_id),
            created_at: deployment.auditing_data.created_at,
            updated_at: deployment.auditing_data.updated_at,
            status: deployment.status,
            origin: deployment.auditing_data.origin,
            triggered_by: deployment.auditing_data.triggered_by,
            applications: Vec::new(),
            containers: Vec::new(),
            databases: Vec::new(),
            jobs: Vec::new(),
            helms: Vec::new(),
        };
        for stage in deployment.stages {
            for service in stage.services {
                let of_kind = match service.identifier.service_type {
                    ServiceType::Application => &mut deploy.applications,
                    ServiceType::Container => &mut deploy.containers,
                    ServiceType::Database => &mut deploy.databases,
                    ServiceType::Job => &mut deploy.jobs,
                    ServiceType::Helm => &mut deploy.helms,
                    // The older shape has no list for the kinds that came after it.
                    _ => continue,
                };
                of_kind.push(service.into());
            }
        }
        deploy
    }
}
