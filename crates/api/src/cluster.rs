//! Clusters: the record, its status (spec 2.19), its lock, and its token (spec 2.20).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::cloud::CloudProvider;
use crate::cluster_feature::{
    cluster_features, features_rule, ClusterFeature, ClusterFeatureRequest, DEFAULT_VPC_SUBNET,
    VPC_SUBNET,
};
use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::status::ClusterState;

/// The Kubernetes versions a cluster may run, oldest first; upgrades go one step at a time.
pub const KUBERNETES_VERSIONS: &[&str] = &["1.28", "1.29", "1.30", "1.31", "1.32"];

/// The version an upgrade of `version` leads to, if there is a newer one.
pub fn next_kubernetes_version(version: &str) -> Option<&'static str> {
    let index = KUBERNETES_VERSIONS.iter().position(|v| *v == version)?;
    KUBERNETES_VERSIONS.get(index + 1).copied()
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Cluster {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub organization: Reference,
    pub name: String,
    pub description: Option<String>,
    pub cloud_provider: CloudProvider,
    pub region: String,
    /// Kubernetes version, one of `KUBERNETES_VERSIONS`.
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub production: bool,
    /// The machine its nodes are; none for a cloud whose types are not listed.
    #[serde(default)]
    pub instance_type: Option<String>,
    #[serde(default = "one_node")]
    pub min_running_nodes: u32,
    #[serde(default = "one_node")]
    pub max_running_nodes: u32,
    /// The features it was made with, each with its value (`cluster_feature`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<ClusterFeature>,
}

impl Cluster {
    /// Its network's range (its VPC subnet) on a cloud where it is chosen; `None` elsewhere.
    pub fn network(&self) -> Option<String> {
        self.features
            .iter()
            .find(|feature| feature.id == VPC_SUBNET)
            .and_then(|feature| feature.value().as_text().map(str::to_string))
            .or_else(|| {
                (self.cloud_provider == CloudProvider::Aws).then(|| DEFAULT_VPC_SUBNET.to_string())
            })
    }
}

/// The document's default node count.
fn one_node() -> u32 {
    1
}

/// Body of `POST /organization/{id}/cluster` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub cloud_provider: CloudProvider,
    /// One of the provider's regions when the platform lists them.
    pub region: String,
    /// Defaults to the oldest supported version, so that upgrades can be tried.
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub production: bool,
    /// The machine its nodes are: one of the cloud's listed types; the cloud's 16 cores and
    /// 64 GB when left out.
    #[serde(default)]
    pub instance_type: Option<String>,
    #[serde(default = "one_node")]
    pub min_running_nodes: u32,
    #[serde(default = "one_node")]
    pub max_running_nodes: u32,
    /// Features chosen among the cloud's (`GET /{cloud}/clusterFeature`); fixed once made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<ClusterFeatureRequest>,
}

/// What a cluster's rules check its request against: the cloud's regions and instance types
/// when they are listed (the server's tables; in the console, what the API listed).
#[derive(Clone, Copy, Debug, Default)]
pub struct ClusterCatalog<'a> {
    pub regions: Option<&'a [&'a str]>,
    pub instance_types: Option<&'a [&'a str]>,
    pub features: Option<&'a [ClusterFeature]>,
}

impl ClusterRequest {
    /// The rules of a new cluster, its region and instance type among those `listed`.
    pub fn validate_in(&self, listed: ClusterCatalog) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.check(crate::cloud::region_rule(
            "region",
            self.cloud_provider,
            &self.region,
            listed.regions,
        ));
        for error in crate::instance_type::machines_rule(
            self.instance_type.as_deref(),
            (self.min_running_nodes, self.max_running_nodes),
            listed.instance_types,
        ) {
            violations.check(Some(error));
        }
        if let Some(version) = &self.version {
            if !KUBERNETES_VERSIONS.contains(&version.as_str()) {
                violations.check(Some(FieldError::new(
                    "version",
                    format!("must be one of {}", KUBERNETES_VERSIONS.join(", ")),
                )));
            }
        }
        use crate::wire::WireEnum;
        violations.extend(features_rule(
            &self.features,
            listed.features,
            self.cloud_provider.label(),
        ));
        violations.into_result()
    }

    /// The rules of a new cluster, its region one of the table's (`CloudProvider::regions`).
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let regions = self.cloud_provider.region_names();
        let instance_types: Option<Vec<&str>> = self
            .cloud_provider
            .instance_types()
            .map(|listed| listed.iter().map(|machine| machine.name).collect());
        let features = cluster_features(self.cloud_provider);
        self.validate_in(ClusterCatalog {
            regions: regions.as_deref(),
            instance_types: instance_types.as_deref(),
            features: features.as_deref(),
        })
    }

    /// The instance type named, or the cloud's default when it lists types.
    pub fn instance_type_or_default(&self) -> Option<String> {
        self.instance_type.clone().or_else(|| {
            let default = self.cloud_provider.default_instance_type()?;
            Some(default.name.to_string())
        })
    }

    pub fn version_or_default(&self) -> String {
        self.version
            .clone()
            .unwrap_or_else(|| KUBERNETES_VERSIONS[0].to_string())
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterLock {
    pub reason: String,
    pub cluster_id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub locked_at: DateTime<Utc>,
    pub owner_name: String,
    pub ttl_in_days: i64,
}

/// Body of `POST /organization/{id}/cluster/{id}/lock`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterLockRequest {
    pub reason: String,
    pub ttl_in_days: i64,
}

/// A lock lasts at most this many days.
pub const CLUSTER_LOCK_MAX_DAYS: i64 = 30;

impl ClusterLockRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if self.reason.trim().is_empty() {
            violations.check(Some(FieldError::new("reason", "is required")));
        }
        violations.check(rules::description("reason", Some(&self.reason)));
        if !(1..=CLUSTER_LOCK_MAX_DAYS).contains(&self.ttl_in_days) {
            violations.check(Some(FieldError::new(
                "ttl_in_days",
                format!("must be from 1 to {CLUSTER_LOCK_MAX_DAYS}"),
            )));
        }
        violations.into_result()
    }
}

/// Cluster status (spec 2.19).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterStatus {
    pub cluster_id: Uuid,
    pub status: ClusterState,
    pub is_deployed: bool,
    pub next_k8s_available_version: Option<String>,
    pub last_execution_id: Option<String>,
    pub cluster_lock: Option<ClusterLock>,
    #[serde(default, with = "crate::timestamp::option")]
    pub last_deployment_date: Option<DateTime<Utc>>,
    /// Why the cluster's infrastructure was last deployed.
    pub reason: InfraReason,
}

wire_enum!(
    /// Why a cluster's infrastructure was deployed: an operator's request, or maintenance.
    InfraReason {
        Unspecified = "UNSPECIFIED",
        Maintenance = "MAINTENANCE",
    }
);

/// Cluster token (spec 2.20), in the shape of a Kubernetes exec credential.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterToken {
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
    pub spec: serde_json::Value,
    pub status: ClusterTokenStatus,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterTokenStatus {
    pub token: String,
    #[serde(rename = "expirationTimestamp")]
    #[serde(with = "crate::timestamp")]
    pub expiration_timestamp: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn upgrades_go_one_version_at_a_time() {
        assert_eq!(next_kubernetes_version("1.28"), Some("1.29"));
        assert_eq!(next_kubernetes_version("1.32"), None);
        assert_eq!(next_kubernetes_version("2.0"), None);
    }

    #[test]
    fn cluster_and_lock_rules() {
        let request = ClusterRequest {
            name: "prod".into(),
            description: None,
            cloud_provider: CloudProvider::ProviderA,
            region: "eu-west-3".into(),
            version: Some("1.99".into()),
            production: true,
            instance_type: Some("t3a.medium".into()),
            min_running_nodes: 1,
            max_running_nodes: 1,
            features: Vec::new(),
        };
        let fields = refused_fields(request.validate());
        assert_eq!(fields, ["region", "instance_type", "version"]);
        let lock = ClusterLockRequest {
            reason: "".into(),
            ttl_in_days: 0,
        };
        let fields = refused_fields(lock.validate());
        assert_eq!(fields, ["reason", "ttl_in_days"]);
    }
}

wire_enum!(
    /// What the engine runs on a cluster besides an upgrade: an install or update, or a stop.
    ClusterAction {
        Deploy = "DEPLOY" => "Deploy",
        Stop = "STOP" => "Stop",
    }
);

wire_enum!(
    /// The step of a cluster's action a log line belongs to (the document's list).
    ClusterLogStep {
        LoadConfiguration = "LoadConfiguration" => "Load configuration",
        Create = "Create",
        Created = "Created",
        CreateError = "CreateError" => "Create error",
        Pause = "Pause",
        Paused = "Paused",
        PauseError = "PauseError" => "Pause error",
        Delete = "Delete",
        Deleted = "Deleted",
        DeleteError = "DeleteError" => "Delete error",
        RetrieveClusterConfig = "RetrieveClusterConfig" => "Retrieve cluster configuration",
        RetrieveClusterResources = "RetrieveClusterResources" => "Retrieve cluster resources",
        ValidateSystemRequirements = "ValidateSystemRequirements" => "Validate system requirements",
        UnderMigration = "UnderMigration" => "Under migration",
        Unknown = "Unknown",
    }
);

/// A line of the log of a cluster's last action (`GET /organization/{id}/cluster/{id}/logs`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterLogLine {
    /// The level: `info`, `warning`, `error`.
    #[serde(rename = "type")]
    pub level: Option<String>,
    #[serde(default, with = "crate::timestamp::option")]
    pub timestamp: Option<DateTime<Utc>>,
    pub step: Option<ClusterLogStep>,
    pub message: Option<ClusterLogMessage>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterLogMessage {
    pub safe_message: Option<String>,
}

/// `GET /organization/{id}/cluster/{id}/isReady`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterReadiness {
    pub is_ready: bool,
}

/// An environment running on a cluster, with its services (`GET /cluster/{id}/environments`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterEnvironment {
    pub environment_id: Uuid,
    pub environment_name: String,
    pub project_id: Uuid,
    pub project_name: String,
    pub services: Vec<ClusterEnvironmentService>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterEnvironmentService {
    pub id: Uuid,
    pub name: String,
    #[serde(rename = "type")]
    pub service_type: crate::ServiceType,
}
