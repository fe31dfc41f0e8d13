//! The organization's services and environments, each in one list (`GET
//! /organization/{id}/services`, `…/environments`): the fleet page reads them with the
//! environments' statuses.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::environment::EnvironmentMode;
use crate::job::JobType;
use crate::service_type::ServiceType;

/// A service of the organization with its project, environment and cluster (the document's
/// `ServiceLightResponse`): as the organization's list gives it, and as a rule names what it
/// watches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServiceLight {
    pub id: Uuid,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub icon_uri: String,
    pub service_type: ServiceType,
    pub project_id: Uuid,
    pub project_name: String,
    pub environment_id: Uuid,
    pub environment_name: String,
    pub cluster_id: Uuid,
    /// A job's kind; none for the other services.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_type: Option<JobType>,
}

/// The filters of `GET /organization/{id}/services`, each optional.
#[serde_with::skip_serializing_none]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServicesQuery {
    pub project_id: Option<Uuid>,
    pub environment_id: Option<Uuid>,
    pub cluster_id: Option<Uuid>,
}

/// An environment as the organization's list words it (the document's
/// `OrganizationEnvironmentResponse`): the reference server answers its whole `Environment`,
/// of which the console reads these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrganizationEnvironment {
    pub id: Uuid,
    pub name: String,
    pub mode: EnvironmentMode,
    pub project: Reference,
}
