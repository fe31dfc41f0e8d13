//! Applications (spec 2.4) and the objects they carry: git repository (2.5), ports, storage,
//! health probes (2.6), autoscaling (2.7), annotation and label groups (2.10).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::runtime::RuntimeRequest;

wire_enum!(
    /// Kind of service a record is (spec 2.1).
    ServiceType {
        Application = "APPLICATION" => "Application",
        Container = "CONTAINER" => "Container",
        Database = "DATABASE" => "Database",
        Job = "JOB" => "Job",
        Helm = "HELM" => "Helm chart",
        Terraform = "TERRAFORM" => "Terraform",
    }
);

impl ServiceType {
    pub fn default_icon_uri(self) -> String {
        format!("app://platform-console/{}", self.path_segment())
    }

    /// Whether the platform restarts a running service of this kind in place
    /// (`/{kind}/{id}/restart-service`); the others are redeployed.
    pub fn restarts(self) -> bool {
        matches!(
            self,
            ServiceType::Application | ServiceType::Container | ServiceType::Database
        )
    }

    /// Whether the platform stops a service of this kind (`/{kind}/{id}/stop`): a terraform
    /// service is applied or destroyed, never stopped.
    pub fn stops(self) -> bool {
        self != ServiceType::Terraform
    }

    /// Whether the platform gives a service of this kind its own status route
    /// (`/{kind}/{id}/status`); a terraform service's status is in its environment's.
    pub fn has_own_status(self) -> bool {
        self != ServiceType::Terraform
    }

    /// Whether the platform gives what the running instances of this kind print
    /// (`/{kind}/{id}/log`).
    pub fn has_instance_log(self) -> bool {
        matches!(self, ServiceType::Application | ServiceType::Container)
    }

    /// The first segment of the kind's routes: `/application/{id}`, `/helm/{id}/deploy`, and of
    /// its collection under an environment.
    pub fn path_segment(self) -> &'static str {
        match self {
            ServiceType::Application => "application",
            ServiceType::Container => "container",
            ServiceType::Database => "database",
            ServiceType::Job => "job",
            ServiceType::Helm => "helm",
            ServiceType::Terraform => "terraform",
            // A kind this version does not know is listed, never addressed.
            ServiceType::Other(value) => value,
        }
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Application {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub environment: Reference,
    pub name: String,
    pub description: Option<String>,
    /// The platform requires one: the kind's own icon unless another was set.
    #[serde(default)]
    pub icon_uri: String,
    pub service_type: ServiceType,
    #[serde(default = "defaults::build_mode")]
    pub build_mode: String,
    pub dockerfile_path: Option<String>,
    pub docker_target_build_stage: Option<String>,
    #[serde(default)]
    pub git_repository: GitRepository,
    /// milli-CPU
    #[serde(default = "defaults::cpu")]
    pub cpu: i64,
    /// MiB
    #[serde(default = "defaults::memory")]
    pub memory: i64,
    #[serde(default)]
    pub gpu: i64,
    #[serde(default = "defaults::cpu")]
    pub maximum_cpu: i64,
    #[serde(default = "defaults::memory")]
    pub maximum_memory: i64,
    /// Spelled so by the spec.
    #[serde(default)]
    pub maximun_gpu: i64,
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
    pub entrypoint: Option<String>,
    #[serde(default)]
    pub storage: Vec<Storage>,
    #[serde(default)]
    pub ports: Vec<Port>,
    pub healthchecks: Healthchecks,
    #[serde(default)]
    pub annotations_groups: Vec<AnnotationsGroup>,
    #[serde(default)]
    pub labels_groups: Vec<LabelsGroup>,
    pub autoscaling: Option<Autoscaling>,
}

/// Git repository of a service (spec 2.5).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitRepository {
    pub provider: Option<String>,
    pub owner: Option<String>,
    pub url: String,
    pub name: Option<String>,
    pub has_access: Option<bool>,
    pub branch: Option<String>,
    pub root_path: Option<String>,
    pub deployed_commit_id: Option<String>,
    pub deployed_commit_date: Option<DateTime<Utc>>,
    pub deployed_commit_contributor: Option<String>,
    pub deployed_commit_tag: Option<String>,
    pub git_token_id: Option<String>,
    pub git_token_name: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Storage {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub storage_type: String,
    /// GiB
    pub size: i64,
    pub mount_point: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Port {
    pub id: Uuid,
    pub internal_port: i64,
    pub external_port: Option<i64>,
    pub publicly_accessible: bool,
    pub protocol: String,
    pub name: Option<String>,
    pub is_default: bool,
    pub public_path: Option<String>,
    pub public_path_rewrite: Option<String>,
}

/// Readiness and liveness probes (spec 2.6).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Healthchecks {
    pub readiness_probe: Option<Probe>,
    pub liveness_probe: Option<Probe>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Probe {
    #[serde(rename = "type")]
    pub probe_type: ProbeType,
    /// The timings default as the production document's do.
    #[serde(default = "probe_defaults::initial_delay_seconds")]
    pub initial_delay_seconds: i64,
    #[serde(default = "probe_defaults::period_seconds")]
    pub period_seconds: i64,
    #[serde(default = "probe_defaults::timeout_seconds")]
    pub timeout_seconds: i64,
    #[serde(default = "probe_defaults::success_threshold")]
    pub success_threshold: i64,
    #[serde(default = "probe_defaults::failure_threshold")]
    pub failure_threshold: i64,
}

mod probe_defaults {
    pub fn initial_delay_seconds() -> i64 {
        30
    }
    pub fn period_seconds() -> i64 {
        10
    }
    pub fn timeout_seconds() -> i64 {
        5
    }
    pub fn success_threshold() -> i64 {
        1
    }
    pub fn failure_threshold() -> i64 {
        9
    }
}

/// The four probe variants, as `{"tcp": {...}}`, `{"http": {...}}`, `{"exec": {...}}` or `{"grpc": {...}}`.
/// Read also as the production document writes them: every variant's key, the others `null`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase", try_from = "ProbeTypeForms")]
pub enum ProbeType {
    Tcp {
        port: i64,
        host: Option<String>,
    },
    Http {
        path: String,
        scheme: String,
        port: i64,
    },
    Exec {
        command: Vec<String>,
    },
    Grpc {
        service: Option<String>,
        port: i64,
    },
}

#[derive(Deserialize)]
struct ProbeTypeForms {
    #[serde(default)]
    tcp: Option<TcpProbe>,
    #[serde(default)]
    http: Option<HttpProbe>,
    #[serde(default)]
    exec: Option<ExecProbe>,
    #[serde(default)]
    grpc: Option<GrpcProbe>,
}

#[derive(Deserialize)]
struct TcpProbe {
    #[serde(default)]
    port: i64,
    #[serde(default)]
    host: Option<String>,
}

#[derive(Deserialize)]
struct HttpProbe {
    #[serde(default = "root_path")]
    path: String,
    #[serde(default = "http_scheme")]
    scheme: String,
    #[serde(default)]
    port: i64,
}

fn root_path() -> String {
    "/".to_string()
}

fn http_scheme() -> String {
    "HTTP".to_string()
}

#[derive(Deserialize)]
struct ExecProbe {
    command: Vec<String>,
}

#[derive(Deserialize)]
struct GrpcProbe {
    #[serde(default)]
    service: Option<String>,
    #[serde(default)]
    port: i64,
}

impl TryFrom<ProbeTypeForms> for ProbeType {
    type Error = &'static str;

    /// The first variant given, in the order tcp, http, exec, grpc (the document's form names
    /// every variant, the others `null`).
    fn try_from(forms: ProbeTypeForms) -> Result<Self, Self::Error> {
        if let Some(TcpProbe { port, host }) = forms.tcp {
            return Ok(ProbeType::Tcp { port, host });
        }
        if let Some(HttpProbe { path, scheme, port }) = forms.http {
            return Ok(ProbeType::Http { path, scheme, port });
        }
        if let Some(ExecProbe { command }) = forms.exec {
            return Ok(ProbeType::Exec { command });
        }
        if let Some(GrpcProbe { service, port }) = forms.grpc {
            return Ok(ProbeType::Grpc { service, port });
        }
        Err("must give one of tcp, http, exec and grpc")
    }
}

/// Autoscaling policy (spec 2.7).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Autoscaling {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub service_id: Uuid,
    pub mode: String,
    pub polling_interval_seconds: i64,
    pub cooldown_period_seconds: i64,
    pub scalers: Vec<Scaler>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Scaler {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub scaler_type: String,
    pub enabled: bool,
    pub role: String,
    pub config_json: serde_json::Value,
    pub config_yaml: Option<String>,
    pub trigger_authentication: Option<TriggerAuthentication>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TriggerAuthentication {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub organization_id: String,
    pub name: String,
    pub config_yaml: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnnotationsGroup {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub annotations: Vec<KeyValue>,
    pub scopes: Vec<crate::groups::AnnotationScope>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

impl AnnotationsGroup {
    /// The group with this id, as a service stores it (the rest is the group's own, read with
    /// the service).
    pub fn stored(id: Uuid) -> Self {
        Self {
            id,
            created_at: DateTime::UNIX_EPOCH,
            updated_at: None,
            name: String::new(),
            annotations: Vec::new(),
            scopes: Vec::new(),
        }
    }
}

impl LabelsGroup {
    /// The group with this id, as a service stores it.
    pub fn stored(id: Uuid) -> Self {
        Self {
            id,
            created_at: DateTime::UNIX_EPOCH,
            updated_at: None,
            name: String::new(),
            labels: Vec::new(),
        }
    }
}

/// Labels group (spec 2.10).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LabelsGroup {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub labels: Vec<Label>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Label {
    pub key: String,
    pub value: String,
    pub propagate_to_cloud_provider: bool,
}

/// Body of `POST /environment/{id}/application`. Omitted fields take the defaults below.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApplicationRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub git_repository: GitRepositoryRequest,
    #[serde(default = "defaults::build_mode")]
    pub build_mode: String,
    #[serde(default)]
    pub dockerfile_path: Option<String>,
    #[serde(default)]
    pub docker_target_build_stage: Option<String>,
    /// What it runs with and how it is deployed, as a container's request says it too.
    #[serde(flatten, deserialize_with = "crate::flat::strictly")]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub runtime: RuntimeRequest,
}

/// Defaults of an application created without them, as the production platform uses.
pub mod defaults {
    pub const BUILD_MODE: &str = "DOCKER";

    pub fn build_mode() -> String {
        BUILD_MODE.to_string()
    }
    pub fn cpu() -> i64 {
        500
    }
    pub fn memory() -> i64 {
        512
    }
    pub fn instances() -> i64 {
        1
    }
    pub fn protocol() -> String {
        "HTTP".to_string()
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitRepositoryRequest {
    pub url: String,
    #[serde(default)]
    pub branch: Option<String>,
    #[serde(default)]
    pub root_path: Option<String>,
    /// The code host; `SAMPLED_CODE_HOST` when left out.
    #[serde(default)]
    pub provider: Option<String>,
    /// The production document asks for them; this server reads them from the URL.
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

/// The code host of a repository whose request names none: the platform's enum of code hosts
/// hides their names, so every URL, the reference server's local repositories included, reads
/// as the one the spec samples.
pub const SAMPLED_CODE_HOST: &str = "PROVIDER_G";

impl GitRepositoryRequest {
    /// The repository at `url` with everything the production document asks for: its code
    /// host, and its owner and name read from the URL.
    pub fn for_url(url: &str, branch: Option<String>) -> Self {
        let url = url.trim().to_string();
        let (owner, name) = repository_owner_and_name(&url);
        Self {
            url,
            branch,
            root_path: None,
            provider: Some(SAMPLED_CODE_HOST.to_string()),
            owner,
            name,
        }
    }
}

/// `https://host/owner/name.git` gives `(owner, name)`.
pub fn repository_owner_and_name(url: &str) -> (Option<String>, Option<String>) {
    let path = url.trim_end_matches('/').trim_end_matches(".git");
    let mut segments = path.rsplit(['/', ':']);
    let name = segments
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let owner = segments
        .next()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    (owner, name)
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PortRequest {
    /// The port's id when an update keeps it (the production document's edit names each port
    /// it keeps by id).
    #[serde(default)]
    pub id: Option<Uuid>,
    pub internal_port: i64,
    #[serde(default)]
    pub external_port: Option<i64>,
    #[serde(default = "defaults::protocol")]
    pub protocol: String,
    #[serde(default)]
    pub publicly_accessible: bool,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub is_default: Option<bool>,
    /// The path the port answers under on its public address ("/" when left out).
    #[serde(default)]
    pub public_path: Option<String>,
    /// What that path becomes before the request reaches the service.
    #[serde(default)]
    pub public_path_rewrite: Option<String>,
}

wire_enum!(
    /// What a port speaks (the production document's `PortProtocolEnum`).
    PortProtocol {
        Http = "HTTP" => "HTTP",
        Grpc = "GRPC" => "gRPC",
        Tcp = "TCP" => "TCP",
        Udp = "UDP" => "UDP",
    }
);

wire_enum!(
    /// The scheme of an HTTP probe.
    HttpScheme {
        Http = "HTTP" => "HTTP",
        Https = "HTTPS" => "HTTPS",
    }
);

wire_enum!(
    /// How a probe checks a service: the variant of its `type`.
    ProbeKind {
        Tcp = "TCP" => "TCP connection",
        Http = "HTTP" => "HTTP request",
        Exec = "EXEC" => "Command",
        Grpc = "GRPC" => "gRPC health check",
    }
);

impl ProbeType {
    pub fn kind(&self) -> ProbeKind {
        match self {
            ProbeType::Tcp { .. } => ProbeKind::Tcp,
            ProbeType::Http { .. } => ProbeKind::Http,
            ProbeType::Exec { .. } => ProbeKind::Exec,
            ProbeType::Grpc { .. } => ProbeKind::Grpc,
        }
    }
}

impl Probe {
    /// The rules of a probe named `field` (`healthchecks.readiness_probe`): ports that are ports,
    /// an HTTP path from the root, a command to run, timings Kubernetes accepts.
    pub fn check(&self, field: &str, violations: &mut Violations) {
        match &self.probe_type {
            ProbeType::Tcp { port, .. } | ProbeType::Grpc { port, .. } => {
                violations.check(rules::port(&format!("{field}.type.port"), *port));
            }
            ProbeType::Http { path, scheme, port } => {
                violations.check(rules::port(&format!("{field}.type.port"), *port));
                if !path.starts_with('/') {
                    violations.check(Some(FieldError::new(
                        format!("{field}.type.path"),
                        "must start with /",
                    )));
                }
                if scheme.parse::<HttpScheme>().is_err() {
                    violations.check(Some(FieldError::new(
                        format!("{field}.type.scheme"),
                        "must be HTTP or HTTPS",
                    )));
                }
            }
            ProbeType::Exec { command } => {
                if command.iter().all(|part| part.trim().is_empty()) {
                    violations.check(Some(FieldError::new(
                        format!("{field}.type.command"),
                        "is required: the command to run",
                    )));
                }
            }
        }
        violations.check(rules::not_negative(
            &format!("{field}.initial_delay_seconds"),
            self.initial_delay_seconds,
        ));
        for (name, value) in [
            ("period_seconds", self.period_seconds),
            ("timeout_seconds", self.timeout_seconds),
            ("success_threshold", self.success_threshold),
            ("failure_threshold", self.failure_threshold),
        ] {
            violations.check(rules::positive(&format!("{field}.{name}"), value));
        }
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StorageRequest {
    /// The volume's id when an update keeps it (the production document names each by id).
    #[serde(default)]
    pub id: Option<Uuid>,
    #[serde(rename = "type")]
    pub storage_type: String,
    pub size: i64,
    pub mount_point: String,
}

/// A group a service is attached to, by id (the production document's `ServiceLabelRequest`
/// and `ServiceAnnotationRequest`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupReference {
    pub id: Uuid,
}

wire_enum!(
    /// What a scaler is for: the one that scales, or a safety net beside it.
    ScalerRole {
        Primary = "PRIMARY" => "Primary",
        Safety = "SAFETY" => "Safety",
    }
);

/// The only autoscaling mode of the platform.
pub const KEDA: &str = "KEDA";

/// Autoscaling as a request sets it (the production document's `KedaAutoscalingRequest`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutoscalingRequest {
    pub mode: String,
    #[serde(default)]
    pub polling_interval_seconds: Option<i64>,
    #[serde(default)]
    pub cooldown_period_seconds: Option<i64>,
    pub scalers: Vec<ScalerRequest>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScalerRequest {
    pub scaler_type: String,
    #[serde(default)]
    pub enabled: Option<bool>,
    pub role: ScalerRole,
    #[serde(default)]
    pub config_json: Option<serde_json::Value>,
    #[serde(default)]
    pub config_yaml: Option<String>,
}

/// How often KEDA polls and how long it waits before scaling down, when a request leaves them out.
pub mod autoscaling_defaults {
    pub const POLLING_INTERVAL_SECONDS: i64 = 30;
    pub const COOLDOWN_PERIOD_SECONDS: i64 = 300;
}

impl AutoscalingRequest {
    pub fn check(&self, violations: &mut Violations) {
        if self.mode != KEDA {
            violations.check(Some(FieldError::new("autoscaling.mode", "must be KEDA")));
        }
        if let Some(polling) = self.polling_interval_seconds {
            violations.check(rules::positive(
                "autoscaling.polling_interval_seconds",
                polling,
            ));
        }
        if let Some(cooldown) = self.cooldown_period_seconds {
            violations.check(rules::not_negative(
                "autoscaling.cooldown_period_seconds",
                cooldown,
            ));
        }
        if self.scalers.is_empty() {
            violations.check(Some(FieldError::new(
                "autoscaling.scalers",
                "must have at least one scaler",
            )));
        }
        for (index, scaler) in self.scalers.iter().enumerate() {
            if scaler.scaler_type.trim().is_empty() {
                violations.check(Some(FieldError::new(
                    format!("autoscaling.scalers[{index}].scaler_type"),
                    "is required, e.g. cpu or prometheus",
                )));
            }
        }
    }
}

impl From<&Autoscaling> for AutoscalingRequest {
    fn from(autoscaling: &Autoscaling) -> Self {
        Self {
            mode: autoscaling.mode.clone(),
            polling_interval_seconds: Some(autoscaling.polling_interval_seconds),
            cooldown_period_seconds: Some(autoscaling.cooldown_period_seconds),
            scalers: autoscaling
                .scalers
                .iter()
                .map(|scaler| ScalerRequest {
                    scaler_type: scaler.scaler_type.clone(),
                    enabled: Some(scaler.enabled),
                    role: scaler.role.parse().unwrap_or(ScalerRole::Primary),
                    config_json: Some(scaler.config_json.clone()),
                    config_yaml: scaler.config_yaml.clone(),
                })
                .collect(),
        }
    }
}

/// The references of a record's groups, as a request names them.
pub fn group_references<'a>(ids: impl IntoIterator<Item = &'a Uuid>) -> Vec<GroupReference> {
    ids.into_iter().map(|&id| GroupReference { id }).collect()
}

impl From<&GitRepository> for GitRepositoryRequest {
    fn from(repository: &GitRepository) -> Self {
        Self {
            url: repository.url.clone(),
            branch: repository.branch.clone(),
            root_path: repository.root_path.clone(),
            provider: repository.provider.clone(),
            owner: repository.owner.clone(),
            name: repository.name.clone(),
        }
    }
}

impl From<&Port> for PortRequest {
    fn from(port: &Port) -> Self {
        Self {
            id: Some(port.id),
            internal_port: port.internal_port,
            external_port: port.external_port,
            protocol: port.protocol.clone(),
            publicly_accessible: port.publicly_accessible,
            name: port.name.clone(),
            public_path: port.public_path.clone(),
            public_path_rewrite: port.public_path_rewrite.clone(),
            is_default: Some(port.is_default),
        }
    }
}

impl From<&Storage> for StorageRequest {
    fn from(storage: &Storage) -> Self {
        Self {
            id: Some(storage.id),
            storage_type: storage.storage_type.clone(),
            size: storage.size,
            mount_point: storage.mount_point.clone(),
        }
    }
}

impl Application {
    /// The update that keeps the application as it is: a form changes what it shows and sends
    /// the rest unchanged.
    pub fn to_request(&self) -> ApplicationRequest {
        ApplicationRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            git_repository: (&self.git_repository).into(),
            build_mode: self.build_mode.clone(),
            dockerfile_path: self.dockerfile_path.clone(),
            docker_target_build_stage: self.docker_target_build_stage.clone(),
            runtime: RuntimeRequest {
                cpu: self.cpu,
                memory: self.memory,
                gpu: self.gpu,
                min_running_instances: self.min_running_instances,
                max_running_instances: self.max_running_instances,
                auto_preview: self.auto_preview,
                auto_deploy: self.auto_deploy,
                arguments: self.arguments.clone(),
                entrypoint: self.entrypoint.clone(),
                ports: self.ports.iter().map(Into::into).collect(),
                storage: self.storage.iter().map(Into::into).collect(),
                healthchecks: self.healthchecks.clone(),
                annotations_groups: group_references(self.annotations_groups.iter().map(|g| &g.id)),
                labels_groups: group_references(self.labels_groups.iter().map(|g| &g.id)),
                autoscaling: self.autoscaling.as_ref().map(Into::into),
            },
        }
    }
}

impl ApplicationRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.check(rules::git_url(
            "git_repository.url",
            &self.git_repository.url,
        ));
        violations.check(rules::build_mode("build_mode", &self.build_mode));
        self.runtime.check(&mut violations);
        violations.into_result()
    }
}

/// Body of `POST /application/{id}/deploy`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployRequest {
    #[serde(default)]
    pub git_commit_id: Option<String>,
    /// Terraform services only: run `plan` and stop there, applying nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plan_only: bool,
    /// Services run from an image (containers, jobs): the tag to deploy, which becomes theirs.
    #[serde(default)]
    pub image_tag: Option<String>,
    /// Helm services installed from a helm repository: the chart version to deploy, which
    /// becomes theirs (the production document's `HelmDeployRequest`).
    #[serde(default)]
    pub chart_version: Option<String>,
    /// Ours: the execution id of an earlier successful deployment of the service to deploy again
    /// exactly (its commit, image, chart version and values). The fields above, when given too,
    /// must name what it deployed: a platform without rollbacks reads them alone.
    #[serde(default)]
    pub rollback_to: Option<String>,
    /// The production document's form of `plan_only`: PLAN.
    #[serde(default)]
    pub action: Option<TerraformDeployAction>,
    /// The production document lets a terraform deployment name its id; this server names its
    /// deployments itself, so it reads the field and leaves it alone.
    #[serde(default, skip_serializing)]
    pub id: Option<Uuid>,
}

wire_enum!(
    /// What a terraform deployment runs, in the production document.
    TerraformDeployAction {
        Plan = "PLAN",
        ForceUnlock = "FORCE_UNLOCK",
        MigrateState = "MIGRATE_STATE",
    }
);

impl DeployRequest {
    /// Whether only a plan is asked for, in either form.
    pub fn plans_only(&self) -> bool {
        self.plan_only || self.action == Some(TerraformDeployAction::Plan)
    }

    /// The rules for deploying a service of `kind`, built from git or not, run from an image or
    /// not.
    pub fn validate(
        &self,
        kind: ServiceType,
        built_from_git: bool,
        runs_image: bool,
        installs_chart_version: bool,
    ) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        if let Some(version) = &self.chart_version {
            violations.check(rules::name("chart_version", version));
            if !installs_chart_version {
                violations.check(Some(FieldError::new(
                    "chart_version",
                    "applies to helm services installed from a helm repository only",
                )));
            }
        }
        if let Some(execution) = &self.rollback_to {
            violations.check(rules::name("rollback_to", execution));
            if matches!(kind, ServiceType::Database) {
                violations.check(Some(FieldError::new(
                    "rollback_to",
                    "applies to services built from git, run from an image or installed from a chart",
                )));
            }
            if self.plans_only() {
                violations.check(Some(FieldError::new(
                    "rollback_to",
                    "cannot be combined with a plan",
                )));
            }
        }
        if let Some(tag) = &self.image_tag {
            violations.check(rules::image_tag("image_tag", tag));
            if !runs_image {
                violations.check(Some(FieldError::new(
                    "image_tag",
                    "applies to services run from an image only",
                )));
            }
        }
        match self.action {
            Some(_) if kind != ServiceType::Terraform => violations.check(Some(FieldError::new(
                "action",
                "applies to terraform services only",
            ))),
            Some(TerraformDeployAction::ForceUnlock | TerraformDeployAction::MigrateState) => {
                violations.check(Some(FieldError::new(
                    "action",
                    "must be PLAN: this server runs no other terraform action",
                )))
            }
            _ => {}
        }
        if let Some(commit) = &self.git_commit_id {
            violations.check(rules::git_commit_id("git_commit_id", commit));
            if !built_from_git {
                violations.check(Some(FieldError::new(
                    "git_commit_id",
                    "applies to services built from a git repository only",
                )));
            }
        }
        if self.plan_only && kind != ServiceType::Terraform {
            violations.check(Some(FieldError::new(
                "plan_only",
                "applies to terraform services only",
            )));
        }
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_and_name_come_from_the_url() {
        assert_eq!(
            repository_owner_and_name("https://git.example.com/acme/web.git"),
            (Some("acme".into()), Some("web".into()))
        );
        assert_eq!(
            repository_owner_and_name("git@example.com:acme/api"),
            (Some("acme".into()), Some("api".into()))
        );
        let request = GitRepositoryRequest::for_url(" https://git.example.com/acme/web ", None);
        assert_eq!(request.url, "https://git.example.com/acme/web");
        assert_eq!(request.provider.as_deref(), Some(SAMPLED_CODE_HOST));
    }
}
