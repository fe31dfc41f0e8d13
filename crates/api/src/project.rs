use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Project {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub description: Option<String>,
    pub organization: Reference,
    #[serde(default)]
    pub associated_environments_count: i64,
}

/// Body of `POST /organization/{id}/project`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
}

impl ProjectRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.into_result()
    }
}

/// The production API pages nothing in `GET /organization/{id}/project`: without `pageSize`
/// every project is listed (`PageQuery`), as there.
pub const PROJECT_PAGE_SIZE_MAX: i64 = 1000;

/// How many services an environment holds (`GET /project/{id}/environment/stats`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentStats {
    pub id: Uuid,
    #[serde(default)]
    pub service_total_number: i64,
    /// The document requires a `number` beside the named count: the same count of services.
    #[serde(default)]
    pub number: i64,
}

/// How many environments and services a project holds (`GET /organization/{id}/project/stats`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectStats {
    pub id: Uuid,
    #[serde(default)]
    pub service_total_number: i64,
    #[serde(default)]
    pub environment_total_number: i64,
    /// The document requires a `number` beside the named counts: the count of services.
    #[serde(default)]
    pub number: i64,
}

wire_enum!(
    /// Who deploys an environment's services: the platform itself (the document's word for it),
    /// an ArgoCD instance, or both.
    ServicesManagedBy {
        Platform = "QOVERY" => "The platform",
        ArgoCd = "ARGOCD" => "ArgoCD",
        Mixed = "MIXED" => "Mixed",
    }
);

/// The cluster of an environment at a glance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterOverview {
    pub id: Uuid,
    pub name: String,
    pub cloud_provider: String,
    /// Whether it is a trial cluster of the platform's: none is, here.
    pub is_demo: bool,
}

/// An environment's services at a glance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServicesOverview {
    pub service_count: i64,
    pub managed_by: ServicesManagedBy,
}

/// An environment at a glance: what it is, where it runs, how many services it holds and where
/// they stand (`GET /project/{id}/environment/overview`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentOverview {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Required here: its creation until it is first changed.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
    pub name: String,
    pub mode: crate::environment::EnvironmentMode,
    pub cluster: ClusterOverview,
    pub services_overview: ServicesOverview,
    pub deployment_status: Option<crate::status::EnvironmentState>,
}
