//! Deployment stages: an environment's services deployed in order, a stage at a time (databases
//! before the applications that use them), each service in one stage, and a service skipped from
//! the deployments of its whole environment.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::error::FieldError;

/// Body of `POST /environment/{id}/deploymentStage` and of `PUT /deploymentStage/{id}`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentStageRequest {
    /// Unique in the environment, whatever its case.
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
}

impl DeploymentStageRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        match crate::rules::name("name", &self.name) {
            Some(error) => Err(vec![error]),
            None => Ok(()),
        }
    }
}

/// A service of a stage.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentStageService {
    /// The service's place in its stage: the service's id.
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub service_id: Uuid,
    /// The document types it as free text ("APPLICATION, JOB, DATABASE, ..."): read as such.
    #[serde(default)]
    pub service_type: String,
    /// Left out of the deployments of its whole environment (deployed on its own only).
    #[serde(default)]
    pub is_skipped: bool,
}

/// A stage, with its services.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentStage {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub environment: Reference,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    /// Its place in the environment's order, from 1.
    #[serde(default)]
    pub deployment_order: i64,
    #[serde(default)]
    pub services: Vec<DeploymentStageService>,
}

/// Body of `PUT /deploymentStage/{id}/service/{serviceId}`: the service moved to the stage (and
/// taken back into its environment's deployments), or, `is_skipped`, left where it is and skipped.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttachServiceToStage {
    #[serde(default)]
    pub is_skipped: Option<bool>,
}

/// A stage as `statusesWithStages` names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StageOfStatuses {
    pub id: Uuid,
    pub name: String,
    #[serde(default)]
    pub description: String,
}

/// The statuses of a stage's services, by kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentStageWithServicesStatuses {
    #[serde(default)]
    pub applications: Vec<crate::status::Status>,
    #[serde(default)]
    pub containers: Vec<crate::status::Status>,
    #[serde(default)]
    pub jobs: Vec<crate::status::Status>,
    #[serde(default)]
    pub databases: Vec<crate::status::Status>,
    #[serde(default)]
    pub helms: Vec<crate::status::Status>,
    #[serde(default)]
    pub terraforms: Vec<crate::status::Status>,
    pub stage: StageOfStatuses,
}

/// `GET /environment/{id}/statusesWithStages`: the environment's statuses, stage by stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentStatusesWithStages {
    pub environment: crate::status::EnvironmentState,
    #[serde(default)]
    pub stages: Vec<DeploymentStageWithServicesStatuses>,
}

impl EnvironmentStatusesWithStages {
    /// `statuses` split by `stages` (each status in the stage that lists its service).
    pub fn of(statuses: crate::status::EnvironmentStatuses, stages: &[DeploymentStage]) -> Self {
        let of_stage = |stage: &DeploymentStage, kind: &[crate::status::Status]| {
            kind.iter()
                .filter(|status| stage.services.iter().any(|s| s.service_id == status.id))
                .cloned()
                .collect()
        };
        EnvironmentStatusesWithStages {
            stages: stages
                .iter()
                .map(|stage| DeploymentStageWithServicesStatuses {
                    applications: of_stage(stage, &statuses.applications),
                    containers: of_stage(stage, &statuses.containers),
                    jobs: of_stage(stage, &statuses.jobs),
                    databases: of_stage(stage, &statuses.databases),
                    helms: of_stage(stage, &statuses.helms),
                    terraforms: of_stage(stage, &statuses.terraforms),
                    stage: StageOfStatuses {
                        id: stage.id,
                        name: stage.name.clone(),
                        description: stage.description.clone().unwrap_or_default(),
                    },
                })
                .collect(),
            environment: statuses.environment,
        }
    }
}
