//! What a service's overview shows of its settings beyond what its frame reads
//! (`ServiceAnswer`): each kind's few fields, decoded from the answer the frame keeps. The six
//! kinds' whole records are the settings' and the review's code; the overview decodes these
//! alone (its page 533 → 495 KB brotli).
//!
//! Each field is required or defaulted as the kind's record (platform_api) has it, with the
//! same default; what the answer has more is skipped unread.

use platform_api::{defaults, DatabaseAccessibility, DatabaseMode, JobSchedule, TerraformEngine};
use serde::de::IgnoredAny;
use serde::Deserialize;

/// The facts of one service, in the shape of its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum ServiceFacts {
    Application(ApplicationFacts),
    Container(ContainerFacts),
    Database(DatabaseFacts),
    // Boxed: a schedule is several times the size of the other kinds' facts.
    Job(Box<JobFacts>),
    Helm(HelmFacts),
    Terraform(TerraformFacts),
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ApplicationFacts {
    #[serde(default = "defaults::build_mode")]
    pub build_mode: String,
    #[serde(default)]
    pub dockerfile_path: Option<String>,
    #[serde(default = "defaults::cpu")]
    pub cpu: i64,
    #[serde(default = "defaults::memory")]
    pub memory: i64,
    #[serde(default = "defaults::instances")]
    pub min_running_instances: i64,
    #[serde(default = "defaults::instances")]
    pub max_running_instances: i64,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ContainerFacts {
    pub image_name: String,
    pub cpu: i64,
    pub memory: i64,
    pub min_running_instances: i64,
    pub max_running_instances: i64,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DatabaseFacts {
    pub version: String,
    pub mode: DatabaseMode,
    #[serde(default = "DatabaseAccessibility::by_default")]
    pub accessibility: DatabaseAccessibility,
    #[serde(default = "defaults::database_cpu")]
    pub cpu: i64,
    #[serde(default = "defaults::database_memory")]
    pub memory: i64,
    #[serde(default = "defaults::database_storage")]
    pub storage: i64,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct JobFacts {
    pub schedule: JobSchedule,
    pub source: JobSourceFacts,
    pub cpu: i64,
    pub memory: i64,
}

/// A job's image, or its Dockerfile (its repository is the frame's).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct JobSourceFacts {
    #[serde(default)]
    pub image: Option<ImageFacts>,
    #[serde(default)]
    pub docker: Option<DockerfileFacts>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ImageFacts {
    pub image_name: String,
    pub tag: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DockerfileFacts {
    #[serde(default)]
    pub dockerfile_path: Option<String>,
    #[serde(default)]
    pub dockerfile_raw: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct HelmFacts {
    pub source: HelmSourceFacts,
    #[serde(default = "defaults::helm_timeout")]
    pub timeout_sec: i64,
}

/// A chart from a helm repository (one from git is the frame's repository).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct HelmSourceFacts {
    #[serde(default)]
    pub repository: Option<ChartFacts>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ChartFacts {
    pub chart_name: String,
    pub chart_version: String,
    pub repository: ChartRepositoryFacts,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ChartRepositoryFacts {
    #[serde(default)]
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TerraformFacts {
    pub backend: BackendFacts,
    pub engine: TerraformEngine,
    pub job_resources: JobResourcesFacts,
    pub timeout_sec: i64,
}

/// Where the state is kept: the cluster's Kubernetes, or a backend of the user's.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct BackendFacts {
    #[serde(default)]
    kubernetes: Option<IgnoredAny>,
}

impl BackendFacts {
    pub fn in_kubernetes(&self) -> bool {
        self.kubernetes.is_some()
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct JobResourcesFacts {
    pub cpu_milli: i64,
    pub ram_mib: i64,
}

#[cfg(test)]
mod tests {
    use platform_api::{Application, Database, HelmService};
    use serde::de::DeserializeOwned;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    /// A record with only `fields` besides those every kind's record requires.
    fn read<T: DeserializeOwned>(kind: &str, fields: &str) -> T {
        let body = format!(
            r#"{{"id":"0b8f2b5e-8c1e-4d3f-9a55-6f0a2c1d9e77","created_at":"2026-12-06T10:00:00Z",
            "environment":{{"id":"6f0a2c1d-8c1e-4d3f-9a55-0b8f2b5e9e77"}},"name":"front",
            "service_type":"{kind}",{fields}}}"#
        );
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
    }

    #[wasm_bindgen_test]
    fn what_a_record_leaves_out_reads_as_its_record_defaults_it() {
        let fields = r#""type":"POSTGRESQL","version":"16","mode":"CONTAINER""#;
        let record: Database = read("DATABASE", fields);
        let facts: DatabaseFacts = read("DATABASE", fields);
        assert_eq!(
            (facts.cpu, facts.memory, facts.storage, facts.accessibility),
            (
                record.cpu,
                record.memory,
                record.storage,
                record.accessibility
            )
        );

        let fields = r#""healthchecks":{}"#;
        let record: Application = read("APPLICATION", fields);
        let facts: ApplicationFacts = read("APPLICATION", fields);
        assert_eq!(
            (facts.build_mode, facts.cpu, facts.memory),
            (record.build_mode, record.cpu, record.memory)
        );
        assert_eq!(
            (facts.min_running_instances, facts.max_running_instances),
            (record.min_running_instances, record.max_running_instances)
        );

        let fields = r#""source":{"repository":{"repository":{"id":"6f0a2c1d-8c1e-4d3f-9a55-0b8f2b5e9e77"},
            "chart_name":"web","chart_version":"1.2.3"}},"arguments":[],
            "allow_cluster_wide_resources":false,"values_override":{"set":[]},"auto_deploy":false"#;
        let record: HelmService = read("HELM", fields);
        let facts: HelmFacts = read("HELM", fields);
        assert_eq!(facts.timeout_sec, record.timeout_sec);
        let chart = facts.source.repository.expect("a chart from a repository");
        assert_eq!(
            (chart.chart_name.as_str(), chart.repository.name.as_str()),
            ("web", "")
        );
    }

    #[wasm_bindgen_test]
    fn a_terraform_state_kept_in_kubernetes_is_told_from_one_of_the_users() {
        let facts = |backend: &str| -> TerraformFacts {
            read(
                "TERRAFORM",
                &format!(
                    r#""backend":{backend},"engine":"TERRAFORM","timeout_sec":600,
                    "job_resources":{{"cpu_milli":500,"ram_mib":256,"gpu":0,"storage_gib":1}}"#
                ),
            )
        };
        assert!(facts(r#"{"kubernetes":{}}"#).backend.in_kubernetes());
        assert!(!facts(r#"{"kubernetes":null,"user_provided":{}}"#)
            .backend
            .in_kubernetes());
    }
}
