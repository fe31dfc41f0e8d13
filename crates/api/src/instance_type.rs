//! The machines a cluster's nodes may be (the document's instance types), for the clouds whose
//! types the platform lists (`GET /aws/instanceType`, `/gcp/instanceType/{region}` and the
//! like). The table is the reference server's catalog: realistic types, the same in every
//! region, simulated as the clusters are. The console offers what the API lists.

use serde::{Deserialize, Serialize};

use crate::cloud::CloudProvider;
use crate::error::FieldError;
use crate::paths::{self, Template};

/// A type of machine: its name at the cloud, its cores and memory, and its network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceType {
    pub name: &'static str,
    pub cpu: u32,
    pub ram_in_gb: u32,
    pub bandwidth_in_gbps: &'static str,
    pub arm: bool,
}

const fn machine(
    name: &'static str,
    cpu: u32,
    ram_in_gb: u32,
    bandwidth: &'static str,
) -> InstanceType {
    InstanceType {
        name,
        cpu,
        ram_in_gb,
        bandwidth_in_gbps: bandwidth,
        arm: false,
    }
}

const fn arm(
    name: &'static str,
    cpu: u32,
    ram_in_gb: u32,
    bandwidth: &'static str,
) -> InstanceType {
    InstanceType {
        arm: true,
        ..machine(name, cpu, ram_in_gb, bandwidth)
    }
}

const AWS: &[InstanceType] = &[
    machine("t3a.medium", 2, 4, "5"),
    machine("t3a.large", 2, 8, "5"),
    machine("t3a.xlarge", 4, 16, "5"),
    machine("t3a.2xlarge", 8, 32, "5"),
    machine("m5.large", 2, 8, "10"),
    machine("m5.xlarge", 4, 16, "10"),
    machine("m5.2xlarge", 8, 32, "10"),
    machine("m5.4xlarge", 16, 64, "10"),
    machine("r5.xlarge", 4, 32, "10"),
    arm("c6g.xlarge", 4, 8, "10"),
    arm("m6g.2xlarge", 8, 32, "10"),
];

const PROVIDER_A: &[InstanceType] = &[
    machine("DEV1-M", 3, 4, "0.3"),
    machine("DEV1-L", 4, 8, "0.4"),
    machine("GP1-XS", 4, 16, "0.5"),
    machine("GP1-S", 8, 32, "0.8"),
    machine("GP1-M", 16, 64, "1.5"),
    machine("PRO2-M", 16, 64, "1.5"),
    machine("POP2-8C-32G", 8, 32, "1.6"),
];

const PROVIDER_E: &[InstanceType] = &[
    machine("e2-medium", 2, 4, "2"),
    machine("e2-standard-2", 2, 8, "4"),
    machine("e2-standard-4", 4, 16, "8"),
    machine("e2-standard-8", 8, 32, "16"),
    machine("e2-standard-16", 16, 64, "16"),
    machine("n2-standard-4", 4, 16, "10"),
    arm("t2a-standard-4", 4, 16, "10"),
];

const PROVIDER_F: &[InstanceType] = &[
    machine("Standard_B2s", 2, 4, "1"),
    machine("Standard_D2s_v5", 2, 8, "12.5"),
    machine("Standard_D4s_v5", 4, 16, "12.5"),
    machine("Standard_D8s_v5", 8, 32, "12.5"),
    machine("Standard_D16s_v5", 16, 64, "12.5"),
    arm("Standard_D4ps_v5", 4, 16, "12.5"),
];

impl CloudProvider {
    /// The instance types a cluster of this cloud may run, when the platform lists them.
    pub fn instance_types(self) -> Option<&'static [InstanceType]> {
        match self {
            CloudProvider::Aws => Some(AWS),
            CloudProvider::ProviderA => Some(PROVIDER_A),
            CloudProvider::ProviderE => Some(PROVIDER_E),
            CloudProvider::ProviderF => Some(PROVIDER_F),
            _ => None,
        }
    }

    /// The instance type a new cluster runs when its request names none: the cloud's 16 cores
    /// and 64 GB.
    pub fn default_instance_type(self) -> Option<&'static InstanceType> {
        self.instance_types()?
            .iter()
            .find(|machine| machine.cpu == 16 && machine.ram_in_gb == 64)
    }
}

/// One instance type as the platform lists it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterInstanceType {
    /// The name in capitals and underscores: `T3A_XLARGE`.
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub cpu: u32,
    pub ram_in_gb: u32,
    pub bandwidth_in_gbps: String,
    pub bandwidth_guarantee: String,
    #[serde(default)]
    pub architecture: Option<String>,
}

impl ClusterInstanceType {
    /// "t3a.xlarge: 4 CPU, 16 GB": what a person picks a type by.
    pub fn label(&self) -> String {
        format!("{}: {} CPU, {} GB", self.name, self.cpu, self.ram_in_gb)
    }
}

impl InstanceType {
    pub fn listed(&self) -> ClusterInstanceType {
        ClusterInstanceType {
            kind: self.name.to_uppercase().replace(['.', '-'], "_"),
            name: self.name.to_string(),
            cpu: self.cpu,
            ram_in_gb: self.ram_in_gb,
            bandwidth_in_gbps: self.bandwidth_in_gbps.to_string(),
            bandwidth_guarantee: "UpTo".to_string(),
            architecture: Some(if self.arm { "ARM64" } else { "AMD64" }.to_string()),
        }
    }
}

/// Where the platform lists a cloud's instance types for a region (a zone for Provider A),
/// whose path names it, and the older list of every type.
pub fn instance_types_paths(provider: CloudProvider) -> Option<(Template, Option<Template>)> {
    Some(match provider {
        CloudProvider::Aws => (
            paths::AWS_INSTANCE_TYPES,
            Some(paths::AWS_ALL_INSTANCE_TYPES),
        ),
        CloudProvider::ProviderA => (
            paths::PROVIDER_A_INSTANCE_TYPES,
            Some(paths::PROVIDER_A_ALL_INSTANCE_TYPES),
        ),
        CloudProvider::ProviderE => (paths::PROVIDER_E_INSTANCE_TYPES, None),
        CloudProvider::ProviderF => (paths::PROVIDER_F_INSTANCE_TYPES, None),
        _ => return None,
    })
}

/// A cluster has at least one node and at most this many.
pub const NODES_MAX: u32 = 100;

/// The rules of a cluster's machines: its type one of `listed` (the cloud's, when known), and
/// `1 ≤ min ≤ max ≤ NODES_MAX` nodes.
pub fn machines_rule(
    instance_type: Option<&str>,
    (min, max): (u32, u32),
    listed: Option<&[&str]>,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let (Some(chosen), Some(listed)) = (instance_type, listed) {
        if !listed.contains(&chosen) {
            errors.push(FieldError::new(
                "instance_type",
                "must be one of the instance types listed for the cloud",
            ));
        }
    }
    if !(1..=NODES_MAX).contains(&min) {
        errors.push(FieldError::new(
            "min_running_nodes",
            format!("must be from 1 to {NODES_MAX}"),
        ));
    }
    if !(1..=NODES_MAX).contains(&max) {
        errors.push(FieldError::new(
            "max_running_nodes",
            format!("must be from 1 to {NODES_MAX}"),
        ));
    } else if max < min {
        errors.push(FieldError::new(
            "max_running_nodes",
            "must be at least min_running_nodes",
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_cloud_has_a_default_type_of_sixteen_cores() {
        for provider in CloudProvider::ALL.iter().copied() {
            if provider.instance_types().is_some() {
                let default = provider.default_instance_type();
                assert!(default.is_some(), "{provider}");
            }
        }
        assert_eq!(AWS[2].listed().kind, "T3A_XLARGE");
    }

    #[test]
    fn nodes_are_counted_from_one_and_the_type_is_listed() {
        assert!(machines_rule(Some("t3a.large"), (1, 3), Some(&["t3a.large"])).is_empty());
        let errors = machines_rule(Some("t9.huge"), (0, 101), Some(&["t3a.large"]));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["instance_type", "min_running_nodes", "max_running_nodes"]
        );
        let errors = machines_rule(None, (3, 2), None);
        assert_eq!(errors[0].field, "max_running_nodes");
    }
}
