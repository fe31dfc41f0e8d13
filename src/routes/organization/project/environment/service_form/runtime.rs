//! What applications and containers share in their forms: the command, resources and
//! instances, ports, volumes, health probes and how they deploy. Read from a record's request,
//! read back into one.

use leptos::prelude::*;
use platform_api::{
    group_references, AutoscalingRequest, FieldError, GroupReference, Healthchecks, HttpScheme,
    PortProtocol, PortRequest, Probe, ProbeKind, ProbeType, RuntimeRequest, ScalerRequest,
    ScalerRole, StorageRequest, KEDA,
};
use uuid::Uuid;

use super::resources::{ResourceFields, Resources};
use crate::api::{use_api, ApiError};
use crate::components::form::Numbers;
use crate::components::form_field::{
    lines_of, optional_text, CheckboxField, CheckboxGroup, EnumSelect, LinesField, TextField,
};
use crate::components::rows::{RowList, Rows};
use crate::paths;
use crate::state::resource::resource;

/// The only storage type the platform offers.
const STORAGE_TYPE: &str = "FAST_SSD";

/// The shared part of the form: its signals.
#[derive(Clone, Copy)]
pub struct RuntimeFields {
    resources: Resources,
    arguments: RwSignal<String>,
    entrypoint: RwSignal<String>,
    ports: Rows<PortRow>,
    storage: Rows<VolumeRow>,
    readiness: ProbeFields,
    liveness: ProbeFields,
    auto_deploy: RwSignal<bool>,
    auto_preview: RwSignal<bool>,
    annotations_groups: RwSignal<Vec<Uuid>>,
    labels_groups: RwSignal<Vec<Uuid>>,
    autoscaling: AutoscalingFields,
}

impl RuntimeFields {
    /// The form of a request's runtime settings.
    pub fn of(runtime: &RuntimeRequest) -> Self {
        Self {
            resources: Resources::of(runtime),
            arguments: RwSignal::new(runtime.arguments.join("\n")),
            entrypoint: RwSignal::new(runtime.entrypoint.clone().unwrap_or_default()),
            ports: Rows::new(runtime.ports.iter().map(PortRow::of)),
            storage: Rows::new(runtime.storage.iter().map(VolumeRow::of)),
            readiness: ProbeFields::of(runtime.healthchecks.readiness_probe.as_ref()),
            liveness: ProbeFields::of(runtime.healthchecks.liveness_probe.as_ref()),
            auto_deploy: RwSignal::new(runtime.auto_deploy),
            auto_preview: RwSignal::new(runtime.auto_preview),
            annotations_groups: RwSignal::new(ids(&runtime.annotations_groups)),
            labels_groups: RwSignal::new(ids(&runtime.labels_groups)),
            autoscaling: AutoscalingFields::of(runtime.autoscaling.as_ref()),
        }
    }

    /// The runtime settings as typed (numbers that do not read noted in `numbers`).
    pub fn read(&self, numbers: &mut Numbers) -> RuntimeRequest {
        let mut runtime = RuntimeRequest {
            arguments: lines_of(self.arguments),
            entrypoint: optional_text(self.entrypoint),
            ports: self.ports.read(|index, row| row.read(index, numbers)),
            storage: self.storage.read(|index, row| row.read(index, numbers)),
            healthchecks: Healthchecks {
                readiness_probe: self.readiness.read("healthchecks.readiness_probe", numbers),
                liveness_probe: self.liveness.read("healthchecks.liveness_probe", numbers),
            },
            auto_deploy: self.auto_deploy.get_untracked(),
            auto_preview: self.auto_preview.get_untracked(),
            annotations_groups: group_references(&self.annotations_groups.get_untracked()),
            labels_groups: group_references(&self.labels_groups.get_untracked()),
            autoscaling: self.autoscaling.read(numbers),
            ..RuntimeRequest::default()
        };
        self.resources.read(numbers, &mut runtime);
        runtime
    }
}

fn ids(groups: &[GroupReference]) -> Vec<Uuid> {
    groups.iter().map(|group| group.id).collect()
}

/// The shared fields, in sections.
#[component]
pub fn RuntimeFieldsView(
    org: Uuid,
    fields: RuntimeFields,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    view! {
        <fieldset class="form-section">
            <legend>"Command"</legend>
            <div class="form-grid">
                <TextField label="Entrypoint" name="entrypoint" value=fields.entrypoint errors
                    hint="Leave empty for the image's own."/>
                <LinesField label="Arguments" name="arguments" value=fields.arguments errors
                    hint="One per line, passed as they are."/>
            </div>
        </fieldset>
        <fieldset class="form-section">
            <legend>"Resources"</legend>
            <div class="form-grid">
                <ResourceFields resources=fields.resources errors/>
            </div>
        </fieldset>
        <RowList legend="Ports" what="port" rows=fields.ports new_row=PortRow::new row=port_fields errors
            hint="A public port is reached on its external port (443 for HTTPS) under its public path."/>
        <RowList legend="Volumes" what="volume" rows=fields.storage new_row=VolumeRow::new row=volume_fields
            errors hint="Fast SSD storage, kept across deployments."/>
        <ProbeFieldsView legend="Readiness probe" field="healthchecks.readiness_probe" probe=fields.readiness errors/>
        <ProbeFieldsView legend="Liveness probe" field="healthchecks.liveness_probe" probe=fields.liveness errors/>
        <AutoscalingFieldsView fields=fields.autoscaling errors/>
        <Groups org annotations=fields.annotations_groups labels=fields.labels_groups errors/>
        <fieldset class="form-section">
            <legend>"Deployments"</legend>
            <div class="form-grid">
                <CheckboxField label="Deploy on every push" name="auto_deploy" checked=fields.auto_deploy/>
                <CheckboxField label="Add to preview environments" name="auto_preview" checked=fields.auto_preview
                    hint="A preview environment made for a pull request gets this service."/>
            </div>
        </fieldset>
    }
}

#[derive(Clone, Copy)]
struct PortRow {
    /// The port's id when it was stored: the update keeps it.
    id: Option<Uuid>,
    name: RwSignal<String>,
    internal: RwSignal<String>,
    protocol: RwSignal<PortProtocol>,
    public: RwSignal<bool>,
    external: RwSignal<String>,
    public_path: RwSignal<String>,
    rewrite: RwSignal<String>,
    default: RwSignal<bool>,
}

impl PortRow {
    fn new() -> Self {
        Self {
            id: None,
            name: RwSignal::new(String::new()),
            internal: RwSignal::new(String::new()),
            protocol: RwSignal::new(PortProtocol::Http),
            public: RwSignal::new(true),
            external: RwSignal::new("443".into()),
            public_path: RwSignal::new("/".into()),
            rewrite: RwSignal::new(String::new()),
            default: RwSignal::new(false),
        }
    }

    fn of(port: &PortRequest) -> Self {
        Self {
            id: port.id,
            name: RwSignal::new(port.name.clone().unwrap_or_default()),
            internal: RwSignal::new(port.internal_port.to_string()),
            protocol: RwSignal::new(port.protocol.parse().unwrap_or(PortProtocol::Http)),
            public: RwSignal::new(port.publicly_accessible),
            external: RwSignal::new(
                port.external_port
                    .map(|p| p.to_string())
                    .unwrap_or_default(),
            ),
            public_path: RwSignal::new(port.public_path.clone().unwrap_or_default()),
            rewrite: RwSignal::new(port.public_path_rewrite.clone().unwrap_or_default()),
            default: RwSignal::new(port.is_default == Some(true)),
        }
    }

    fn read(self, index: usize, numbers: &mut Numbers) -> PortRequest {
        PortRequest {
            id: self.id,
            internal_port: numbers.read(
                format!("ports[{index}].internal_port"),
                &self.internal.get_untracked(),
            ),
            external_port: numbers.read_optional(
                format!("ports[{index}].external_port"),
                &self.external.get_untracked(),
            ),
            protocol: self.protocol.get_untracked().as_str().to_string(),
            publicly_accessible: self.public.get_untracked(),
            name: optional_text(self.name),
            is_default: Some(self.default.get_untracked()),
            public_path: optional_text(self.public_path),
            public_path_rewrite: optional_text(self.rewrite),
        }
    }
}

fn port_fields(index: usize, port: PortRow, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let field = move |name: &str| format!("ports[{index}].{name}");
    let n = index + 1;
    view! {
        <TextField label=format!("Port {n}") name=field("internal_port") value=port.internal errors
            input_type="number" placeholder="8080"/>
        <EnumSelect label="Protocol" name=field("protocol") value=port.protocol errors/>
        <TextField label=format!("Port {n} name") name=field("name") value=port.name errors/>
        <CheckboxField label="Public" name=field("publicly_accessible") checked=port.public/>
        <CheckboxField label="Default port" name=field("is_default") checked=port.default/>
        <Show when=move || port.public.get()>
            <TextField label=format!("Port {n} external port") name=field("external_port") value=port.external
                errors input_type="number"/>
            <TextField label=format!("Port {n} public path") name=field("public_path") value=port.public_path
                errors placeholder="/"/>
            <TextField label=format!("Port {n} path rewrite") name=field("public_path_rewrite")
                value=port.rewrite errors placeholder="/"/>
        </Show>
    }
}

#[derive(Clone, Copy)]
struct VolumeRow {
    id: Option<Uuid>,
    mount_point: RwSignal<String>,
    size: RwSignal<String>,
}

impl VolumeRow {
    fn new() -> Self {
        Self {
            id: None,
            mount_point: RwSignal::new(String::new()),
            size: RwSignal::new("10".into()),
        }
    }

    fn of(storage: &StorageRequest) -> Self {
        Self {
            id: storage.id,
            mount_point: RwSignal::new(storage.mount_point.clone()),
            size: RwSignal::new(storage.size.to_string()),
        }
    }

    fn read(self, index: usize, numbers: &mut Numbers) -> StorageRequest {
        StorageRequest {
            id: self.id,
            storage_type: STORAGE_TYPE.into(),
            size: numbers.read(format!("storage[{index}].size"), &self.size.get_untracked()),
            mount_point: self.mount_point.get_untracked().trim().to_string(),
        }
    }
}

fn volume_fields(
    index: usize,
    volume: VolumeRow,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let n = index + 1;
    view! {
        <TextField label=format!("Volume {n} mount point") name=format!("storage[{index}].mount_point")
            value=volume.mount_point errors placeholder="/data"/>
        <TextField label=format!("Volume {n} size (GiB)") name=format!("storage[{index}].size")
            value=volume.size errors input_type="number"/>
    }
}

/// One probe as typed: whether there is one, its kind, each kind's fields, and its timings.
#[derive(Clone, Copy)]
struct ProbeFields {
    enabled: RwSignal<bool>,
    kind: RwSignal<ProbeKind>,
    port: RwSignal<String>,
    host: RwSignal<String>,
    path: RwSignal<String>,
    scheme: RwSignal<HttpScheme>,
    command: RwSignal<String>,
    service: RwSignal<String>,
    initial_delay: RwSignal<String>,
    period: RwSignal<String>,
    timeout: RwSignal<String>,
    success: RwSignal<String>,
    failure: RwSignal<String>,
}

impl ProbeFields {
    fn of(probe: Option<&Probe>) -> Self {
        // An absent probe starts from the platform's timings.
        let defaults: Probe =
            serde_json::from_str(r#"{"type": {"tcp": {"port": 0}}}"#).expect("a probe of defaults");
        let shown = probe.unwrap_or(&defaults);
        let (mut port, mut host, mut path, mut scheme, mut command, mut service) = (
            String::new(),
            String::new(),
            "/".to_string(),
            HttpScheme::Http,
            String::new(),
            String::new(),
        );
        match &shown.probe_type {
            ProbeType::Tcp { port: p, host: h } => {
                port = p.to_string();
                host = h.clone().unwrap_or_default();
            }
            ProbeType::Http {
                path: at,
                scheme: s,
                port: p,
            } => {
                port = p.to_string();
                path = at.clone();
                scheme = s.parse().unwrap_or(HttpScheme::Http);
            }
            ProbeType::Exec { command: c } => command = c.join("\n"),
            ProbeType::Grpc {
                service: s,
                port: p,
            } => {
                port = p.to_string();
                service = s.clone().unwrap_or_default();
            }
        }
        if probe.is_none() {
            port.clear();
        }
        Self {
            enabled: RwSignal::new(probe.is_some()),
            kind: RwSignal::new(shown.probe_type.kind()),
            port: RwSignal::new(port),
            host: RwSignal::new(host),
            path: RwSignal::new(path),
            scheme: RwSignal::new(scheme),
            command: RwSignal::new(command),
            service: RwSignal::new(service),
            initial_delay: RwSignal::new(shown.initial_delay_seconds.to_string()),
            period: RwSignal::new(shown.period_seconds.to_string()),
            timeout: RwSignal::new(shown.timeout_seconds.to_string()),
            success: RwSignal::new(shown.success_threshold.to_string()),
            failure: RwSignal::new(shown.failure_threshold.to_string()),
        }
    }

    fn read(&self, field: &str, numbers: &mut Numbers) -> Option<Probe> {
        if !self.enabled.get_untracked() {
            return None;
        }
        let mut port = || numbers.read(format!("{field}.type.port"), &self.port.get_untracked());
        let probe_type = match self.kind.get_untracked() {
            ProbeKind::Tcp => ProbeType::Tcp {
                port: port(),
                host: optional_text(self.host),
            },
            ProbeKind::Http => ProbeType::Http {
                path: self.path.get_untracked().trim().to_string(),
                scheme: self.scheme.get_untracked().as_str().to_string(),
                port: port(),
            },
            ProbeKind::Exec => ProbeType::Exec {
                command: lines_of(self.command),
            },
            ProbeKind::Grpc | ProbeKind::Other(_) => ProbeType::Grpc {
                service: optional_text(self.service),
                port: port(),
            },
        };
        let mut timing = |name: &str, value: RwSignal<String>| {
            numbers.read(format!("{field}.{name}"), &value.get_untracked())
        };
        Some(Probe {
            probe_type,
            initial_delay_seconds: timing("initial_delay_seconds", self.initial_delay),
            period_seconds: timing("period_seconds", self.period),
            timeout_seconds: timing("timeout_seconds", self.timeout),
            success_threshold: timing("success_threshold", self.success),
            failure_threshold: timing("failure_threshold", self.failure),
        })
    }
}

#[component]
fn ProbeFieldsView(
    legend: &'static str,
    /// The request field of the probe: `healthchecks.readiness_probe`.
    field: &'static str,
    probe: ProbeFields,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let name = move |part: &str| format!("{field}.{part}");
    view! {
        <fieldset class="rows">
            <legend>{legend}</legend>
            <CheckboxField label="Check it" name=name("enabled") checked=probe.enabled/>
            <Show when=move || probe.enabled.get()>
                <div class="form-grid">
                    <EnumSelect label="How" name=name("type") value=probe.kind errors/>
                    {move || match probe.kind.get() {
                        ProbeKind::Exec => view! {
                            <LinesField label="Command" name=name("type.command") value=probe.command errors
                                hint="One part per line: the program, then its arguments."/>
                        }.into_any(),
                        kind => view! {
                            <TextField label="Port" name=name("type.port") value=probe.port errors
                                input_type="number"/>
                            {(kind == ProbeKind::Http).then(|| view! {
                                <TextField label="Path" name=name("type.path") value=probe.path errors/>
                                <EnumSelect label="Scheme" name=name("type.scheme") value=probe.scheme errors/>
                            })}
                            {(kind == ProbeKind::Tcp).then(|| view! {
                                <TextField label="Host" name=name("type.host") value=probe.host errors
                                    hint="Empty for the service's own."/>
                            })}
                            {(kind == ProbeKind::Grpc).then(|| view! {
                                <TextField label="gRPC service" name=name("type.service") value=probe.service errors/>
                            })}
                        }.into_any(),
                    }}
                    <TextField label="First check after (s)" name=name("initial_delay_seconds")
                        value=probe.initial_delay errors input_type="number"/>
                    <TextField label="Every (s)" name=name("period_seconds") value=probe.period errors
                        input_type="number"/>
                    <TextField label="Timeout (s)" name=name("timeout_seconds") value=probe.timeout errors
                        input_type="number"/>
                    <TextField label="Successes to pass" name=name("success_threshold") value=probe.success
                        errors input_type="number"/>
                    <TextField label="Failures to fail" name=name("failure_threshold") value=probe.failure
                        errors input_type="number"/>
                </div>
            </Show>
        </fieldset>
    }
}

/// The organization's labels and annotations groups, by id and name.
type GroupChoices = LocalResource<Result<(Vec<(Uuid, String)>, Vec<(Uuid, String)>), ApiError>>;

/// The organization's groups read for the forms under the caller, once: a page whose form is
/// built again (with a saved record) does not read them again.
pub fn provide_group_choices(org: Uuid) {
    provide_context(read_group_choices(org));
}

fn read_group_choices(org: Uuid) -> GroupChoices {
    let api = use_api();
    resource(move || async move {
        let labels = api.labels_groups(org).await?;
        let annotations = api.annotations_groups(org).await?;
        Ok((
            labels.into_iter().map(|g| (g.id, g.name)).collect(),
            annotations.into_iter().map(|g| (g.id, g.name)).collect(),
        ))
    })
}

/// The groups of the organization attached to the service, ticked among those it has.
#[component]
fn Groups(
    org: Uuid,
    annotations: RwSignal<Vec<Uuid>>,
    labels: RwSignal<Vec<Uuid>>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let groups = use_context::<GroupChoices>().unwrap_or_else(|| read_group_choices(org));
    view! {
        <fieldset class="form-section">
            <legend>"Labels and annotations"</legend>
            {move || groups.get().map(|loaded| match loaded {
                Err(error) => view! { <p class="notice notice--error">{error.to_string()}</p> }.into_any(),
                Ok((labels_groups, annotations_groups)) if labels_groups.is_empty() && annotations_groups.is_empty() => view! {
                    <p class="muted">"This organization has no labels or annotations groups yet: "
                        <a href=paths::labels_annotations(org)>"add one"</a> "."</p>
                }.into_any(),
                Ok((labels_groups, annotations_groups)) => view! {
                    <CheckboxGroup legend="Labels groups" name="labels_groups" options=labels_groups
                        chosen=labels errors/>
                    <CheckboxGroup legend="Annotations groups" name="annotations_groups"
                        options=annotations_groups chosen=annotations errors/>
                }.into_any(),
            })}
        </fieldset>
    }
}

/// A KEDA autoscaling policy as typed: whether there is one, its intervals and its scalers.
#[derive(Clone, Copy)]
struct AutoscalingFields {
    enabled: RwSignal<bool>,
    polling: RwSignal<String>,
    cooldown: RwSignal<String>,
    scalers: Rows<ScalerRow>,
}

impl AutoscalingFields {
    fn of(policy: Option<&AutoscalingRequest>) -> Self {
        let interval = |value: Option<i64>, default: i64| value.unwrap_or(default).to_string();
        Self {
            enabled: RwSignal::new(policy.is_some()),
            polling: RwSignal::new(interval(
                policy.and_then(|p| p.polling_interval_seconds),
                platform_api::autoscaling_defaults::POLLING_INTERVAL_SECONDS,
            )),
            cooldown: RwSignal::new(interval(
                policy.and_then(|p| p.cooldown_period_seconds),
                platform_api::autoscaling_defaults::COOLDOWN_PERIOD_SECONDS,
            )),
            scalers: Rows::new(
                policy
                    .map(|p| p.scalers.iter().map(ScalerRow::of).collect::<Vec<_>>())
                    .unwrap_or_else(|| vec![ScalerRow::new()]),
            ),
        }
    }

    fn read(&self, numbers: &mut Numbers) -> Option<AutoscalingRequest> {
        self.enabled.get_untracked().then(|| AutoscalingRequest {
            mode: KEDA.into(),
            polling_interval_seconds: Some(numbers.read(
                "autoscaling.polling_interval_seconds",
                &self.polling.get_untracked(),
            )),
            cooldown_period_seconds: Some(numbers.read(
                "autoscaling.cooldown_period_seconds",
                &self.cooldown.get_untracked(),
            )),
            scalers: self.scalers.read(|_, row| row.read()),
        })
    }
}

#[derive(Clone, Copy)]
struct ScalerRow {
    scaler_type: RwSignal<String>,
    role: RwSignal<ScalerRole>,
    enabled: RwSignal<bool>,
    config_yaml: RwSignal<String>,
    /// The scaler's JSON configuration, which the form does not show: kept as it is.
    config_json: StoredValue<Option<serde_json::Value>>,
}

impl ScalerRow {
    fn new() -> Self {
        Self {
            scaler_type: RwSignal::new("cpu".into()),
            role: RwSignal::new(ScalerRole::Primary),
            enabled: RwSignal::new(true),
            config_yaml: RwSignal::new(String::new()),
            config_json: StoredValue::new(None),
        }
    }

    fn of(scaler: &ScalerRequest) -> Self {
        Self {
            scaler_type: RwSignal::new(scaler.scaler_type.clone()),
            role: RwSignal::new(scaler.role),
            enabled: RwSignal::new(scaler.enabled.unwrap_or(true)),
            config_yaml: RwSignal::new(scaler.config_yaml.clone().unwrap_or_default()),
            config_json: StoredValue::new(scaler.config_json.clone()),
        }
    }

    fn read(self) -> ScalerRequest {
        ScalerRequest {
            scaler_type: self.scaler_type.get_untracked().trim().to_string(),
            enabled: Some(self.enabled.get_untracked()),
            role: self.role.get_untracked(),
            config_json: self.config_json.get_value(),
            config_yaml: optional_text(self.config_yaml),
        }
    }
}

fn scaler_fields(
    index: usize,
    scaler: ScalerRow,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let field = move |name: &str| format!("autoscaling.scalers[{index}].{name}");
    let n = index + 1;
    view! {
        <TextField label=format!("Scaler {n} type") name=field("scaler_type") value=scaler.scaler_type
            errors placeholder="cpu" hint="A KEDA scaler: cpu, memory, prometheus, rabbitmq…"/>
        <EnumSelect label="Role" name=field("role") value=scaler.role errors/>
        <CheckboxField label="Enabled" name=field("enabled") checked=scaler.enabled/>
        <LinesField label="Configuration (YAML)" name=field("config_yaml") value=scaler.config_yaml errors
            placeholder="value: \"60\""/>
    }
}

#[component]
fn AutoscalingFieldsView(
    fields: AutoscalingFields,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    view! {
        <fieldset class="rows">
            <legend>"Autoscaling"</legend>
            <CheckboxField label="Scale with KEDA" name="autoscaling.mode" checked=fields.enabled
                hint="Between the minimum and maximum instances, by the scalers' measures."/>
            <Show when=move || fields.enabled.get()>
                <div class="form-grid">
                    <TextField label="Polling interval (s)" name="autoscaling.polling_interval_seconds"
                        value=fields.polling errors input_type="number"/>
                    <TextField label="Cooldown (s)" name="autoscaling.cooldown_period_seconds"
                        value=fields.cooldown errors input_type="number"
                        hint="How long it waits before scaling down."/>
                </div>
                <RowList legend="Scalers" what="scaler" rows=fields.scalers new_row=ScalerRow::new
                    row=scaler_fields errors/>
                <p class="field__error">{move || crate::components::form_field::error_for(errors, "autoscaling.scalers").get()}</p>
            </Show>
        </fieldset>
    }
}
