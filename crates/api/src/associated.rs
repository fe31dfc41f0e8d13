//! What uses an organization-level record: the services (and where they live) whose
//! configuration names a labels or annotations group, a container registry or a helm repository.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

wire_enum!(
    /// What an annotations group is set on.
    AssociatedItemType {
        Application = "APPLICATION" => "Application",
        Database = "DATABASE" => "Database",
        Container = "CONTAINER" => "Container",
        Lifecycle = "LIFECYCLE" => "Lifecycle job",
        Environment = "ENVIRONMENT" => "Environment",
        Cluster = "CLUSTER" => "Cluster",
        Cron = "CRON" => "Cron job",
    }
);

/// A record a labels or annotations group is set on, with where it lives
/// (`GET /organization/{id}/{labels|annotations}Groups/{id}/associatedItems`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssociatedItem {
    pub item_id: Uuid,
    pub item_name: String,
    pub item_type: AssociatedItemType,
    #[serde(default)]
    pub cluster_id: Option<Uuid>,
    #[serde(default)]
    pub cluster_name: Option<String>,
    #[serde(default)]
    pub project_id: Option<Uuid>,
    #[serde(default)]
    pub project_name: Option<String>,
    #[serde(default)]
    pub environment_id: Option<Uuid>,
    #[serde(default)]
    pub environment_name: Option<String>,
}

wire_enum!(
    /// What kind of service takes its image from a registry or its chart from a repository.
    AssociatedServiceType {
        Container = "CONTAINER" => "Container",
        Lifecycle = "LIFECYCLE" => "Lifecycle job",
        Cron = "CRON" => "Cron job",
        Helm = "HELM" => "Helm chart",
    }
);

/// A service that takes its image from a registry or its chart from a helm repository, with
/// where it lives (`GET /organization/{id}/{containerRegistry|helmRepository}/{id}/associatedServices`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AssociatedService {
    pub project_id: Uuid,
    pub project_name: String,
    pub environment_id: Uuid,
    pub environment_name: String,
    pub service_id: Uuid,
    pub service_name: String,
    pub service_type: AssociatedServiceType,
}
