//! What a service that runs instances asks for, the same for applications and containers:
//! resources and instances, command, ports, volumes, probes, groups, autoscaling and how it is
//! deployed. Written once, flattened into both requests (the wire keeps them flat, as the
//! platform's document writes them), with its defaults and its rules.

use serde::{Deserialize, Serialize};

use crate::autoscaling::AutoscalingRequest;
use crate::defaults;
use crate::error::FieldError;
use crate::groups::GroupReference;
use crate::ports::{PortProtocol, PortRequest};
use crate::probes::Healthchecks;
use crate::rules::{self, Violations};
use crate::storage::StorageRequest;

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RuntimeRequest {
    // milli-CPU, MiB: as the records say.
    #[serde(default = "defaults::cpu")]
    pub cpu: i64,
    #[serde(default = "defaults::memory")]
    pub memory: i64,
    #[serde(default)]
    pub gpu: i64,
    #[serde(default = "defaults::instances")]
    pub min_running_instances: i64,
    #[serde(default = "defaults::instances")]
    pub max_running_instances: i64,
    #[serde(default)]
    pub auto_preview: bool,
    #[serde(default)]
    pub auto_deploy: bool,
    #[serde(default)]
    pub arguments: Vec<String>,
    #[serde(default)]
    pub entrypoint: Option<String>,
    #[serde(default)]
    pub ports: Vec<PortRequest>,
    #[serde(default)]
    pub storage: Vec<StorageRequest>,
    #[serde(default)]
    pub healthchecks: Healthchecks,
    /// The organization's annotations groups attached to it.
    #[serde(default)]
    pub annotations_groups: Vec<GroupReference>,
    /// The organization's labels groups attached to it.
    #[serde(default)]
    pub labels_groups: Vec<GroupReference>,
    #[serde(default)]
    pub autoscaling: Option<AutoscalingRequest>,
}

/// What a request that leaves every runtime field out gets: the platform's defaults.
impl Default for RuntimeRequest {
    fn default() -> Self {
        Self {
            cpu: defaults::cpu(),
            memory: defaults::memory(),
            gpu: 0,
            min_running_instances: defaults::instances(),
            max_running_instances: defaults::instances(),
            auto_preview: false,
            auto_deploy: false,
            arguments: Vec::new(),
            entrypoint: None,
            ports: Vec::new(),
            storage: Vec::new(),
            healthchecks: Healthchecks::default(),
            annotations_groups: Vec::new(),
            labels_groups: Vec::new(),
            autoscaling: None,
        }
    }
}

/// The runtime part of an application's or a container's request, from its record: the two
/// records carry the same runtime fields, flat (see `docs/decisions.md`, "records keep their
/// own runtime fields"), so the conversion is written once here for both.
macro_rules! runtime_request_of {
    ($record:expr) => {{
        let record = $record;
        $crate::runtime::RuntimeRequest {
            cpu: record.cpu,
            memory: record.memory,
            gpu: record.gpu,
            min_running_instances: record.min_running_instances,
            max_running_instances: record.max_running_instances,
            auto_preview: record.auto_preview,
            auto_deploy: record.auto_deploy,
            arguments: record.arguments.clone(),
            entrypoint: record.entrypoint.clone(),
            ports: record.ports.iter().map(Into::into).collect(),
            storage: record.storage.iter().map(Into::into).collect(),
            healthchecks: record.healthchecks.clone(),
            annotations_groups: $crate::groups::group_references(
                record.annotations_groups.iter().map(|group| &group.id),
            ),
            labels_groups: $crate::groups::group_references(
                record.labels_groups.iter().map(|group| &group.id),
            ),
            autoscaling: record.autoscaling.as_ref().map(Into::into),
        }
    }};
}
pub(crate) use runtime_request_of;

impl RuntimeRequest {
    pub fn check(&self, violations: &mut Violations) {
        violations.check(rules::positive("cpu", self.cpu));
        violations.check(rules::positive("memory", self.memory));
        violations.check(rules::not_negative("gpu", self.gpu));
        violations.check(rules::not_negative(
            "min_running_instances",
            self.min_running_instances,
        ));
        violations.check(rules::positive(
            "max_running_instances",
            self.max_running_instances,
        ));
        violations.check(rules::at_most(
            "min_running_instances",
            self.min_running_instances,
            "the maximum instances",
            self.max_running_instances,
        ));
        for (index, port) in self.ports.iter().enumerate() {
            violations.check(rules::port(
                &format!("ports[{index}].internal_port"),
                port.internal_port,
            ));
            if let Some(external_port) = port.external_port {
                violations.check(rules::port(
                    &format!("ports[{index}].external_port"),
                    external_port,
                ));
            }
            if port.protocol.parse::<PortProtocol>().is_err() {
                violations.check(Some(FieldError::new(
                    format!("ports[{index}].protocol"),
                    "must be one of HTTP, GRPC, TCP and UDP",
                )));
            }
            if port
                .public_path
                .as_deref()
                .is_some_and(|path| !path.starts_with('/'))
            {
                violations.check(Some(FieldError::new(
                    format!("ports[{index}].public_path"),
                    "must start with /",
                )));
            }
            if port.publicly_accessible && port.external_port.is_none() {
                violations.check(Some(FieldError::new(
                    format!("ports[{index}].external_port"),
                    "is required when the port is publicly accessible",
                )));
            }
        }
        violations.check(rules::unique_ports(
            "ports",
            self.ports.iter().map(|port| port.internal_port),
        ));
        if let Some(autoscaling) = &self.autoscaling {
            autoscaling.check(violations);
        }
        for (field, probe) in [
            (
                "healthchecks.readiness_probe",
                &self.healthchecks.readiness_probe,
            ),
            (
                "healthchecks.liveness_probe",
                &self.healthchecks.liveness_probe,
            ),
        ] {
            if let Some(probe) = probe {
                probe.check(field, violations);
            }
        }
        for (index, storage) in self.storage.iter().enumerate() {
            violations.check(rules::positive(
                &format!("storage[{index}].size"),
                storage.size,
            ));
            violations.check(rules::mount_point(
                &format!("storage[{index}].mount_point"),
                &storage.mount_point,
            ));
        }
    }
}
