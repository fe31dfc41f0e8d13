//! Readiness and liveness probes (spec 2.6) and their rules.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::rules::{self, Violations};

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
