//! Advanced settings: the tuning beyond a service's or a cluster's main form, each named by a
//! dotted key (`build.timeout_max_sec`). `SETTINGS` is the one list of them: which owners have
//! each, its type, its default and what it does. It was written from the production document's
//! schemas (`ApplicationAdvancedSettings` and its siblings), which `crates/contract` checks it
//! against; the defaults the document does not give are the platform's documented ones.
//!
//! A read answers every setting of its owner; an edit names the settings it changes, and a
//! setting set back to its default is no longer counted as changed.

use serde_json::{Map, Value};

use crate::error::FieldError;
use crate::text_rule::{TextRule, ITEMS_MAX};
use crate::ServiceType;

/// Settings as the API carries them: a key per setting, its value of the setting's type.
pub type AdvancedSettings = Map<String, Value>;

/// The setting behind a service's network settings (`/{application|container}/{id}/network`).
pub const STICKY_SESSION: &str = "network.ingress.enable_sticky_session";

/// A service's network settings (the production document's `ApplicationNetwork`): a view of
/// its `network.ingress.enable_sticky_session` advanced setting.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServiceNetwork {
    #[serde(default)]
    pub sticky_session: bool,
}

/// What has advanced settings: five kinds of service (a database has none) and a cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsOf {
    Application,
    Container,
    Job,
    Helm,
    Terraform,
    Cluster,
}

const APPLICATION: u8 = 1;
const CONTAINER: u8 = 1 << 1;
const JOB: u8 = 1 << 2;
const HELM: u8 = 1 << 3;
const TERRAFORM: u8 = 1 << 4;
const CLUSTER: u8 = 1 << 5;

impl SettingsOf {
    pub const ALL: [SettingsOf; 6] = [
        SettingsOf::Application,
        SettingsOf::Container,
        SettingsOf::Job,
        SettingsOf::Helm,
        SettingsOf::Terraform,
        SettingsOf::Cluster,
    ];

    /// The settings of a service of `kind`; `None` for a database (or a kind unknown here).
    pub fn service(kind: ServiceType) -> Option<Self> {
        match kind {
            ServiceType::Application => Some(SettingsOf::Application),
            ServiceType::Container => Some(SettingsOf::Container),
            ServiceType::Job => Some(SettingsOf::Job),
            ServiceType::Helm => Some(SettingsOf::Helm),
            ServiceType::Terraform => Some(SettingsOf::Terraform),
            ServiceType::Database | ServiceType::Other(_) => None,
        }
    }

    /// The owner as the document names its settings: `{name}AdvancedSettings`, and its defaults'
    /// address, `/default{name}AdvancedSettings`.
    pub fn name(self) -> &'static str {
        match self {
            SettingsOf::Application => "Application",
            SettingsOf::Container => "Container",
            SettingsOf::Job => "Job",
            SettingsOf::Helm => "Helm",
            SettingsOf::Terraform => "Terraform",
            SettingsOf::Cluster => "Cluster",
        }
    }

    /// Where the platform answers the owner's defaults.
    pub fn defaults_path(self) -> String {
        format!("/default{}AdvancedSettings", self.name())
    }

    fn bit(self) -> u8 {
        match self {
            SettingsOf::Application => APPLICATION,
            SettingsOf::Container => CONTAINER,
            SettingsOf::Job => JOB,
            SettingsOf::Helm => HELM,
            SettingsOf::Terraform => TERRAFORM,
            SettingsOf::Cluster => CLUSTER,
        }
    }

    /// The owner's settings, in the document's order (grouped by what they tune).
    pub fn settings(self) -> impl Iterator<Item = &'static Setting> {
        SETTINGS.iter().filter(move |s| s.of & self.bit() != 0)
    }

    pub fn setting(self, key: &str) -> Option<&'static Setting> {
        self.settings().find(|s| s.key == key)
    }

    /// Every setting of the owner at its default.
    pub fn defaults(self) -> AdvancedSettings {
        self.settings()
            .map(|s| (s.key.to_string(), s.default()))
            .collect()
    }

    /// The owner's settings as `changed` leaves them: its defaults, with the values of `changed`
    /// over them.
    pub fn with_changes(self, changed: &AdvancedSettings) -> AdvancedSettings {
        let mut all = self.defaults();
        for (key, value) in changed {
            if all.contains_key(key) {
                all.insert(key.clone(), value.clone());
            }
        }
        all
    }

    /// Checks an edit: each key one of the owner's settings, each value of its type.
    pub fn check(self, edit: &AdvancedSettings) -> Result<(), Vec<FieldError>> {
        let errors: Vec<FieldError> = edit
            .iter()
            .filter_map(|(key, value)| match self.setting(key) {
                Some(setting) => setting.check(value),
                None => Some(FieldError::new(
                    key.as_str(),
                    "is not an advanced setting of this resource",
                )),
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// The type of a setting's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingType {
    Boolean,
    /// A whole number from `min` to `max`.
    Integer {
        min: i64,
        max: i64,
    },
    /// A text of this form.
    Text(TextRule),
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A list of at most `ITEMS_MAX` texts, each of this form.
    TextList(TextRule),
    /// At most `ITEMS_MAX` names each with a word (node labels, tags), each a line.
    Labels,
}

impl SettingType {
    /// The type as a person reads it.
    pub fn label(self) -> String {
        match self {
            SettingType::Boolean => "on or off".to_string(),
            SettingType::Integer { min, max } if max == i64::MAX => {
                format!("whole number, {min} or more")
            }
            SettingType::Integer { min, max } => format!("whole number, {min} to {max}"),
            SettingType::Text(rule) => rule.label(),
            SettingType::OneOf(values) => format!("one of {}", values.join(", ")),
            SettingType::TextList(TextRule::Line) => {
                format!("list of at most {ITEMS_MAX} values, each a line")
            }
            SettingType::TextList(rule) => {
                format!("list of at most {ITEMS_MAX} values, each {}", rule.label())
            }
            SettingType::Labels => format!("at most {ITEMS_MAX} names with values"),
        }
    }
}

/// One advanced setting.
#[derive(Debug)]
pub struct Setting {
    pub key: &'static str,
    of: u8,
    pub kind: SettingType,
    /// Whether it may be left empty (null): then the cluster's or the platform's choice holds.
    pub nullable: bool,
    /// The default, as JSON.
    default: &'static str,
    /// What it does, as the document says.
    pub about: &'static str,
}

impl Setting {
    pub fn default(&self) -> Value {
        serde_json::from_str(self.default).expect("each default of SETTINGS is JSON")
    }

    /// Whether `value` is one of this setting's: the rule it breaks, named by its key.
    pub fn check(&self, value: &Value) -> Option<FieldError> {
        let fits = match (self.kind, value) {
            (_, Value::Null) => self.nullable,
            (SettingType::Boolean, Value::Bool(_)) => true,
            (SettingType::Integer { min, max }, Value::Number(number)) => {
                number.as_i64().is_some_and(|n| (min..=max).contains(&n))
            }
            (SettingType::Text(rule), Value::String(text)) => rule.holds(text),
            (SettingType::OneOf(values), Value::String(word)) => values.contains(&word.as_str()),
            (SettingType::TextList(rule), Value::Array(items)) => {
                items.len() <= ITEMS_MAX
                    && items
                        .iter()
                        .all(|item| item.as_str().is_some_and(|text| rule.holds(text)))
            }
            (SettingType::Labels, Value::Object(labels)) => {
                labels.len() <= ITEMS_MAX
                    && labels.iter().all(|(name, value)| {
                        TextRule::Line.holds(name)
                            && value
                                .as_str()
                                .is_some_and(|text| TextRule::Line.holds(text))
                    })
            }
            _ => false,
        };
        let empty = if self.nullable { ", or empty" } else { "" };
        (!fits).then(|| FieldError::new(self.key, format!("must be {}{empty}", self.kind.label())))
    }
}

/// What a Gateway API route retries on (Envoy's retry triggers, HTTP and gRPC).
const RETRY_TRIGGERS: &[&str] = &[
    "5xx",
    "gateway-error",
    "reset",
    "connect-failure",
    "envoy-ratelimited",
    "retriable-4xx",
    "refused-stream",
    "retriable-status-codes",
    "retriable-headers",
    "http3-post-connect-failure",
    "cancelled",
    "deadline-exceeded",
    "internal",
    "resource-exhausted",
    "unavailable",
];

/// Every advanced setting of the document, in its order.
pub static SETTINGS: &[Setting] = &[
    Setting {
        key: "deployment.custom_domain_check_enabled",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Boolean,
        nullable: false,
        default: "true",
        about: "Check that the custom domains point to the service when deploying it.",
    },
    Setting {
        key: "deployment.termination_grace_period_seconds",
        of: APPLICATION | CONTAINER | JOB | TERRAFORM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "define how long in seconds a service is supposed to be stopped gracefully",
    },
    Setting {
        key: "deployment.affinity.node.required",
        of: APPLICATION | CONTAINER | JOB | TERRAFORM,
        kind: SettingType::Labels,
        nullable: false,
        default: "{}",
        about: "Set pod placement on specific Kubernetes nodes labels",
    },
    Setting {
        key: "deployment.antiaffinity.pod",
        of: APPLICATION | CONTAINER,
        kind: SettingType::OneOf(&["Preferred", "Requirred"]),
        nullable: false,
        default: "\"Preferred\"",
        about: "Preferred spreads the service's instances over nodes when it can; Requirred (sic) always does.",
    },
    Setting {
        key: "deployment.topology_spread.zone",
        of: APPLICATION | CONTAINER,
        kind: SettingType::OneOf(&["Disabled", "ScheduleAnyway", "DoNotSchedule"]),
        nullable: false,
        default: "\"Disabled\"",
        about: "How instances are spread over availability zones: not at all, when possible, or always.",
    },
    Setting {
        key: "deployment.lifecycle.post_start_exec_command",
        of: APPLICATION,
        kind: SettingType::TextList(TextRule::Lines),
        nullable: false,
        default: "[]",
        about: "Allows you to run a command after the application is started.",
    },
    Setting {
        key: "deployment.lifecycle.pre_stop_exec_command",
        of: APPLICATION,
        kind: SettingType::TextList(TextRule::Lines),
        nullable: false,
        default: "[]",
        about: "Allows you to run a command before the application is stopped.",
    },
    Setting {
        key: "deployment.update_strategy.type",
        of: APPLICATION | CONTAINER,
        kind: SettingType::OneOf(&["RollingUpdate", "Recreate"]),
        nullable: false,
        default: "\"RollingUpdate\"",
        about: "RollingUpdate replaces instances a few at a time; Recreate stops them all before starting the new ones.",
    },
    Setting {
        key: "deployment.update_strategy.rolling_update.max_unavailable_percent",
        of: APPLICATION | CONTAINER,
        kind: SettingType::Integer { min: 0, max: 100 },
        nullable: false,
        default: "25",
        about: "Define the percentage of a maximum number of pods that can be unavailable during the update process",
    },
    Setting {
        key: "deployment.update_strategy.rolling_update.max_surge_percent",
        of: APPLICATION | CONTAINER,
        kind: SettingType::Integer { min: 0, max: 100 },
        nullable: false,
        default: "25",
        about: "Define the percentage of the maximum number of pods that can be created over the desired number of pods",
    },
    Setting {
        key: "build.timeout_max_sec",
        of: APPLICATION | JOB | TERRAFORM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1800",
        about: "define the max timeout for the build",
    },
    Setting {
        key: "build.cpu_max_in_milli",
        of: APPLICATION | JOB | TERRAFORM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "4000",
        about: "define the max cpu resources (in milli)",
    },
    Setting {
        key: "build.ram_max_in_gib",
        of: APPLICATION | JOB | TERRAFORM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "8",
        about: "define the max ram resources (in gib)",
    },
    Setting {
        key: "build.disable_buildkit_cache",
        of: APPLICATION | JOB,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "disable buildkit registry cache during build",
    },
    Setting {
        key: "build.skip_git_submodules",
        of: APPLICATION | JOB | TERRAFORM,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "skip git submodules update when cloning the repository",
    },
    Setting {
        key: "network.ingress.proxy_body_size_mb",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "100",
        about: "Largest request body the ingress accepts, in MB.",
    },
    Setting {
        key: "network.ingress.force_ssl_redirect",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Boolean,
        nullable: false,
        default: "true",
        about: "When using SSL offloading outside of cluster, you can enforce a redirect to HTTPS even when there is no TLS certificate available",
    },
    Setting {
        key: "network.ingress.enable_cors",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Answer cross-origin requests with the CORS headers below.",
    },
    Setting {
        key: "network.ingress.cors_allow_origin",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Line),
        nullable: false,
        default: "\"*\"",
        about: "Origins allowed to call the service across origins (Access-Control-Allow-Origin).",
    },
    Setting {
        key: "network.ingress.cors_allow_methods",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Line),
        nullable: false,
        default: "\"GET, PUT, POST, DELETE, PATCH, OPTIONS\"",
        about: "Methods allowed across origins (Access-Control-Allow-Methods).",
    },
    Setting {
        key: "network.ingress.cors_allow_headers",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Line),
        nullable: false,
        default: "\"DNT,Keep-Alive,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range,Authorization\"",
        about: "Headers allowed across origins (Access-Control-Allow-Headers).",
    },
    Setting {
        key: "network.ingress.proxy_buffer_size_kb",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "4",
        about: "header buffer size used while reading response header from upstream",
    },
    Setting {
        key: "network.ingress.keepalive_time_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "3600",
        about: "Limits the maximum time (in seconds) during which requests can be processed through one keepalive connection",
    },
    Setting {
        key: "network.ingress.keepalive_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) during which an idle keepalive connection to an upstream server will stay open.",
    },
    Setting {
        key: "network.ingress.send_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) for transmitting a response to the client",
    },
    Setting {
        key: "network.ingress.proxy_connect_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) for establishing a connection to a proxied server",
    },
    Setting {
        key: "network.ingress.proxy_send_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) for transmitting a request to the proxied server",
    },
    Setting {
        key: "network.ingress.proxy_read_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) for reading a response from the proxied server",
    },
    Setting {
        key: "network.ingress.proxy_buffering",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Word(&["on", "off"])),
        nullable: false,
        default: "\"on\"",
        about: "Allows to enable or disable nginx `proxy-buffering`.",
    },
    Setting {
        key: "network.ingress.whitelist_source_range",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Cidrs),
        nullable: false,
        default: "\"0.0.0.0/0\"",
        about: "list of source ranges to allow access to ingress proxy.",
    },
    Setting {
        key: "network.ingress.denylist_source_range",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Cidrs),
        nullable: false,
        default: "\"\"",
        about: "list of source ranges to deny access to ingress proxy.",
    },
    Setting {
        key: "network.ingress.basic_auth_env_var",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::VariableName),
        nullable: false,
        default: "\"\"",
        about: "Set the name of an environment variable to use as a basic authentication (`login:crypted_password`) from `htpasswd` command.",
    },
    Setting {
        key: STICKY_SESSION,
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Enable the load balancer to bind a user's session to a specific target.",
    },
    Setting {
        key: "network.ingress.grpc_send_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) for transmitting a request to the grpc server",
    },
    Setting {
        key: "network.ingress.grpc_read_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "60",
        about: "Sets a timeout (in seconds) for reading a response from the grpc server.",
    },
    Setting {
        key: "network.ingress.extra_headers",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Headers),
        nullable: false,
        default: "\"{}\"",
        about: "Allows to define response headers",
    },
    Setting {
        key: "network.gateway_api.http_request_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets a timeout (in seconds) for requests proxied through the Gateway API route.",
    },
    Setting {
        key: "network.gateway_api.http_connection_idle_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the idle timeout (in seconds) for HTTP connections proxied through the Gateway API route.",
    },
    Setting {
        key: "network.gateway_api.retry.num_retries",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the number of retry attempts for requests proxied through the Gateway API route.",
    },
    Setting {
        key: "network.gateway_api.retry.retry_on",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Words(RETRY_TRIGGERS)),
        nullable: true,
        default: "null",
        about: "Comma-separated retry triggers (for example connect-failure,reset,refused-stream,retriable-status-codes) for requests proxied through the Gateway API route.",
    },
    Setting {
        key: "network.gateway_api.retry.http_status_codes",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Text(TextRule::StatusCodes),
        nullable: true,
        default: "null",
        about: "Comma-separated HTTP status codes (100..599) retried when retry_on includes retriable-status-codes.",
    },
    Setting {
        key: "network.gateway_api.retry.per_try_timeout_seconds",
        of: APPLICATION | CONTAINER | HELM,
        kind: SettingType::Integer { min: 1, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the timeout (in seconds) applied to each retry attempt for requests proxied through the Gateway API route.",
    },
    Setting {
        key: "hpa.cpu.average_utilization_percent",
        of: APPLICATION | CONTAINER,
        kind: SettingType::Integer { min: 0, max: 100 },
        nullable: false,
        default: "60",
        about: "Percentage value of cpu usage at which point pods should scale up.",
    },
    Setting {
        key: "hpa.memory.average_utilization_percent",
        of: APPLICATION | CONTAINER,
        kind: SettingType::Integer { min: 0, max: 100 },
        nullable: true,
        default: "null",
        about: "Percentage value of memory usage at which point pods should scale up.",
    },
    Setting {
        key: "security.service_account_name",
        of: APPLICATION | CONTAINER | JOB | TERRAFORM,
        kind: SettingType::Text(TextRule::KubernetesName),
        nullable: false,
        default: "\"\"",
        about: "Allows you to set an existing Kubernetes service account name",
    },
    Setting {
        key: "security.automount_service_account_token",
        of: APPLICATION | CONTAINER | JOB,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Automount Kubernetes service account token to have access to Kubernetes API from pods",
    },
    Setting {
        key: "security.read_only_root_filesystem",
        of: APPLICATION | CONTAINER | JOB | TERRAFORM,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Mounts the container's root filesystem as read-only",
    },
    Setting {
        key: "network.ingress.proxy_request_buffering",
        of: CONTAINER | HELM,
        kind: SettingType::Text(TextRule::Word(&["on", "off"])),
        nullable: false,
        default: "\"on\"",
        about: "Allows to enable or disable nginx `proxy-request-buffering`",
    },
    Setting {
        key: "job.delete_ttl_seconds_after_finished",
        of: JOB,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Seconds a finished run is kept before it is deleted; empty keeps it.",
    },
    Setting {
        key: "cronjob.concurrency_policy",
        of: JOB,
        kind: SettingType::Text(TextRule::Word(&["Allow", "Forbid", "Replace"])),
        nullable: false,
        default: "\"Forbid\"",
        about: "What a scheduled run does when the previous one still runs: Allow, Forbid or Replace.",
    },
    Setting {
        key: "cronjob.failed_jobs_history_limit",
        of: JOB,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1",
        about: "How many failed runs are kept.",
    },
    Setting {
        key: "cronjob.success_jobs_history_limit",
        of: JOB,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1",
        about: "How many successful runs are kept.",
    },
    Setting {
        key: "build.ephemeral_storage_in_gib",
        of: TERRAFORM,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "20",
        about: "Disk space of the build, in GiB.",
    },
    Setting {
        key: "aws.cloudwatch.eks_logs_retention_days",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "90",
        about: "Set the number of retention days for EKS Cloudwatch logs",
    },
    Setting {
        key: "aws.vpc.enable_s3_flow_logs",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Enable flow logs for on the VPC and store them in an S3 bucket",
    },
    Setting {
        key: "aws.vpc.flow_logs_retention_days",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "365",
        about: "Set the number of retention days for flow logs.",
    },
    Setting {
        key: "aws.vpc.enable_nat_gateway_secondary_eip",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Enable a secondary Elastic IP per NAT Gateway, increasing the number of outbound public IPs.",
    },
    Setting {
        key: "loki.log_retention_in_week",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "12",
        about: "For how long in week loki is going to keep logs of your applications",
    },
    Setting {
        key: "loki.deployment_mode",
        of: CLUSTER,
        kind: SettingType::OneOf(&["single_binary", "simple_scalable"]),
        nullable: false,
        default: "\"single_binary\"",
        about: "Loki deployment topology.",
    },
    Setting {
        key: "loki.single_binary.cpu_request_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "500",
        about: "CPU request (in milli-CPU) for the Loki pod when running in single_binary mode.",
    },
    Setting {
        key: "loki.single_binary.cpu_limit_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1000",
        about: "CPU limit (in milli-CPU) for the Loki pod when running in single_binary mode.",
    },
    Setting {
        key: "loki.single_binary.memory_request_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1024",
        about: "Memory request (in MiB) for the Loki pod when running in single_binary mode.",
    },
    Setting {
        key: "loki.single_binary.memory_limit_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "2048",
        about: "Memory limit (in MiB) for the Loki pod when running in single_binary mode.",
    },
    Setting {
        key: "loki.write.cpu_request_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "250",
        about: "CPU request (in milli-CPU) for the Loki write component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.write.cpu_limit_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1000",
        about: "CPU limit (in milli-CPU) for the Loki write component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.write.memory_request_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "512",
        about: "Memory request (in MiB) for the Loki write component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.write.memory_limit_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1024",
        about: "Memory limit (in MiB) for the Loki write component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.read.cpu_request_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "250",
        about: "CPU request (in milli-CPU) for the Loki read component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.read.cpu_limit_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1000",
        about: "CPU limit (in milli-CPU) for the Loki read component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.read.memory_request_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "512",
        about: "Memory request (in MiB) for the Loki read component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.read.memory_limit_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1024",
        about: "Memory limit (in MiB) for the Loki read component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.backend.cpu_request_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "250",
        about: "CPU request (in milli-CPU) for the Loki backend component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.backend.cpu_limit_m",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1000",
        about: "CPU limit (in milli-CPU) for the Loki backend component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.backend.memory_request_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "512",
        about: "Memory request (in MiB) for the Loki backend component when running in simple_scalable mode.",
    },
    Setting {
        key: "loki.backend.memory_limit_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "1024",
        about: "Memory limit (in MiB) for the Loki backend component when running in simple_scalable mode.",
    },
    Setting {
        key: "registry.image_retention_time",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "31536000",
        about: "Configure the number of seconds before cleaning images in the registry",
    },
    Setting {
        key: "cloud_provider.container_registry.tags",
        of: CLUSTER,
        kind: SettingType::Labels,
        nullable: false,
        default: "{}",
        about: "Add additional tags on the cluster dedicated registry",
    },
    Setting {
        key: "aws.eks.enable_alb_controller",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "true",
        about: "Enable the AWS ALB controller to manage the load balancer for the cluster.",
    },
    Setting {
        key: "aws.eks.enable_efs_addon",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Enable the AWS EFS CSI driver EKS add-on to provision EFS-backed persistent volumes on the cluster.",
    },
    Setting {
        key: "aws.eks.efs.throughput_mode",
        of: CLUSTER,
        kind: SettingType::OneOf(&["bursting", "elastic", "provisioned"]),
        nullable: false,
        default: "\"elastic\"",
        about: "EFS throughput mode.",
    },
    Setting {
        key: "aws.eks.efs.performance_mode",
        of: CLUSTER,
        kind: SettingType::OneOf(&["generalPurpose", "maxIO"]),
        nullable: false,
        default: "\"generalPurpose\"",
        about: "EFS performance mode.",
    },
    Setting {
        key: "aws.eks.efs.transition_to_ia",
        of: CLUSTER,
        kind: SettingType::OneOf(&["AFTER_1_DAY", "AFTER_7_DAYS", "AFTER_14_DAYS", "AFTER_30_DAYS", "AFTER_60_DAYS", "AFTER_90_DAYS", ""]),
        nullable: false,
        default: "\"AFTER_30_DAYS\"",
        about: "Lifecycle policy to transition files to Infrequent Access (IA) storage after the specified period.",
    },
    Setting {
        key: "load_balancer.size",
        of: CLUSTER,
        kind: SettingType::Text(TextRule::Line),
        nullable: false,
        default: "\"lb-s\"",
        about: "Select the size of the main load_balancer (only effective for Scaleway)",
    },
    Setting {
        key: "database.postgresql.deny_any_access",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Deny public access to any PostgreSQL database",
    },
    Setting {
        key: "database.postgresql.allowed_cidrs",
        of: CLUSTER,
        kind: SettingType::TextList(TextRule::Cidr),
        nullable: false,
        default: "[\"0.0.0.0/0\"]",
        about: "List of CIDRs allowed to access the PostgreSQL database",
    },
    Setting {
        key: "database.mysql.deny_any_access",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Deny public access to any MySql database",
    },
    Setting {
        key: "database.mysql.allowed_cidrs",
        of: CLUSTER,
        kind: SettingType::TextList(TextRule::Cidr),
        nullable: false,
        default: "[\"0.0.0.0/0\"]",
        about: "List of CIDRs allowed to access the MySql database",
    },
    Setting {
        key: "database.mongodb.deny_any_access",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Deny public access to any MongoDB/DocumentDB database",
    },
    Setting {
        key: "database.mongodb.allowed_cidrs",
        of: CLUSTER,
        kind: SettingType::TextList(TextRule::Cidr),
        nullable: false,
        default: "[\"0.0.0.0/0\"]",
        about: "List of CIDRs allowed to access the MongoDB/DocumentDB database",
    },
    Setting {
        key: "database.redis.deny_any_access",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "Deny public access to any Redis database",
    },
    Setting {
        key: "database.redis.allowed_cidrs",
        of: CLUSTER,
        kind: SettingType::TextList(TextRule::Cidr),
        nullable: false,
        default: "[\"0.0.0.0/0\"]",
        about: "List of CIDRs allowed to access the Redis database",
    },
    Setting {
        key: "aws.iam.admin_group",
        of: CLUSTER,
        kind: SettingType::Text(TextRule::Line),
        nullable: false,
        default: "\"Admins\"",
        about: "AWS IAM group name with cluster access",
    },
    Setting {
        key: "aws.eks.ec2.metadata_imds",
        of: CLUSTER,
        kind: SettingType::OneOf(&["optional", "required"]),
        nullable: false,
        default: "\"optional\"",
        about: "Specify the IMDS version you want to use: * `required`: IMDS V2 only * `optional`: IMDS V1 + V2",
    },
    Setting {
        key: "aws.eks.ec2.ami",
        of: CLUSTER,
        kind: SettingType::Text(TextRule::Ami),
        nullable: false,
        default: "\"AmazonLinux2023\"",
        about: "The image of the worker nodes: AmazonLinux2, AmazonLinux2023, Bottlerocket, or a custom AMI id or name.",
    },
    Setting {
        key: "pleco.resources_ttl",
        of: CLUSTER,
        kind: SettingType::Integer { min: -1, max: i64::MAX },
        nullable: false,
        default: "-1",
        about: "Seconds before the cluster's cloud resources are cleaned up; -1 never.",
    },
    Setting {
        key: "registry.mirroring_mode",
        of: CLUSTER,
        kind: SettingType::OneOf(&["Cluster", "Service"]),
        nullable: false,
        default: "\"Service\"",
        about: "How mirrored images are organized: one repository per cluster, or per service.",
    },
    Setting {
        key: "nginx.vcpu.request_in_milli_cpu",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "100",
        about: "vcpu request in millicores",
    },
    Setting {
        key: "nginx.vcpu.limit_in_milli_cpu",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "500",
        about: "vcpu limit in millicores",
    },
    Setting {
        key: "nginx.memory.request_in_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "768",
        about: "memory request in MiB",
    },
    Setting {
        key: "nginx.memory.limit_in_mib",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "768",
        about: "memory limit in MiB",
    },
    Setting {
        key: "envoy.gateway_api.http_request_timeout_seconds",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the default request timeout (in seconds) applied to Gateway API routes when the service does not override it.",
    },
    Setting {
        key: "envoy.gateway_api.http_connection_idle_timeout_seconds",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the default idle connection timeout (in seconds) applied to Gateway API routes when the service does not override it.",
    },
    Setting {
        key: "envoy.gateway_api.retry.num_retries",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the default number of retry attempts applied to Gateway API routes when the service does not override it.",
    },
    Setting {
        key: "envoy.gateway_api.retry.retry_on",
        of: CLUSTER,
        kind: SettingType::Text(TextRule::Words(RETRY_TRIGGERS)),
        nullable: true,
        default: "null",
        about: "Default comma-separated retry triggers applied to Gateway API routes when the service does not override them.",
    },
    Setting {
        key: "envoy.gateway_api.retry.http_status_codes",
        of: CLUSTER,
        kind: SettingType::Text(TextRule::StatusCodes),
        nullable: true,
        default: "null",
        about: "Default comma-separated HTTP status codes (100..599) retried when retry_on includes retriable-status-codes.",
    },
    Setting {
        key: "envoy.gateway_api.retry.per_try_timeout_seconds",
        of: CLUSTER,
        kind: SettingType::Integer { min: 1, max: i64::MAX },
        nullable: true,
        default: "null",
        about: "Sets the default timeout (in seconds) applied to each retry attempt when the service does not override it.",
    },
    Setting {
        key: "nginx.hpa.cpu_utilization_percentage_threshold",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "50",
        about: "hpa cpu threshold in percentage",
    },
    Setting {
        key: "nginx.hpa.min_number_instances",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "2",
        about: "hpa minimum number of instances",
    },
    Setting {
        key: "nginx.hpa.max_number_instances",
        of: CLUSTER,
        kind: SettingType::Integer { min: 0, max: i64::MAX },
        nullable: false,
        default: "25",
        about: "hpa maximum number of instances",
    },
    Setting {
        key: "storageclass.fast_ssd",
        of: CLUSTER,
        kind: SettingType::Text(TextRule::KubernetesName),
        nullable: false,
        default: "\"\"",
        about: "storage class name to use to provision pvc",
    },
    Setting {
        key: "qovery.static_ip_mode",
        of: CLUSTER,
        kind: SettingType::Boolean,
        nullable: false,
        default: "false",
        about: "To limit public access from the internet to your Kubernetes cluster endpoint.",
    },
    Setting {
        key: "k8s.api.allowed_public_access_cidrs",
        of: CLUSTER,
        kind: SettingType::TextList(TextRule::Cidr),
        nullable: false,
        default: "[\"0.0.0.0/0\"]",
        about: "Set custom sources to public access endpoint.",
    },
];

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_default_is_of_its_settings_type() {
        for setting in SETTINGS {
            assert_eq!(setting.check(&setting.default()), None, "{}", setting.key);
        }
    }

    #[test]
    fn an_edit_of_the_wrong_type_or_key_names_the_setting_and_the_rule() {
        let edit = json!({
            "build.timeout_max_sec": -5,
            "deployment.update_strategy.type": "Sideways",
            "network.ingress.enable_cors": true,
            "loki.log_retention_in_week": 4,
        });
        let errors = SettingsOf::Application
            .check(edit.as_object().unwrap())
            .unwrap_err();
        let said: Vec<(&str, &str)> = errors
            .iter()
            .map(|e| (e.field.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                ("build.timeout_max_sec", "must be whole number, 0 or more"),
                (
                    "deployment.update_strategy.type",
                    "must be one of RollingUpdate, Recreate"
                ),
                (
                    "loki.log_retention_in_week",
                    "is not an advanced setting of this resource"
                ),
            ]
        );
    }

    #[test]
    fn only_nullable_settings_take_null() {
        let null = Value::Null;
        let hpa = SettingsOf::Container
            .setting("hpa.memory.average_utilization_percent")
            .unwrap();
        assert_eq!(hpa.check(&null), None);
        let timeout = SettingsOf::Job.setting("build.timeout_max_sec").unwrap();
        assert!(timeout.check(&null).is_some());
    }

    #[test]
    fn changes_are_laid_over_the_defaults() {
        let changed = json!({ "build.timeout_max_sec": 600 });
        let all = SettingsOf::Terraform.with_changes(changed.as_object().unwrap());
        assert_eq!(all.len(), SettingsOf::Terraform.settings().count());
        assert_eq!(all["build.timeout_max_sec"], json!(600));
        assert_eq!(all["build.ephemeral_storage_in_gib"], json!(20));
    }
}
