//! A helm service's form: the chart (from a helm repository with its name and version, or from a
//! directory of a git repository), the values given on top of the chart's (a values file written
//! inline, which a git chart's own values may start, and `--set` pairs), helm's arguments, its
//! timeout and whether it deploys on every push.

use leptos::prelude::*;
use platform_api::{
    FieldError, HelmChartSource, HelmDefaultValuesRequest, HelmGitSourceRequest,
    HelmRepositorySourceRequest, HelmRequest, HelmSourceRequest, HelmValuesFile,
    HelmValuesOverride, KeyValue, NamedValuesFile, RawValuesFiles,
};
use uuid::Uuid;

use super::{chosen_id, GitFields, GitRepositoryFields, HelmRepositoryField, SourceChoice};
use crate::api::use_api;
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{
    lines_of, optional_text, CheckboxField, LinesField, TextField,
};
use crate::components::rows::{RowList, Rows};
use crate::state::resource::resource;

/// What a values file written in the console is called, as the production API names files.
const INLINE_VALUES: &str = "values.yaml";

/// A new helm service's request: a chart of a helm repository, chosen in the form.
pub fn new_helm() -> HelmRequest {
    HelmRequest {
        name: String::new(),
        description: None,
        source: HelmSourceRequest {
            git: None,
            repository: Some(HelmRepositorySourceRequest {
                repository_id: Uuid::nil(),
                chart_name: String::new(),
                chart_version: String::new(),
            }),
        },
        arguments: Vec::new(),
        allow_cluster_wide_resources: false,
        values_override: HelmValuesOverride::default(),
        timeout_sec: 600,
        auto_deploy: false,
        auto_preview: None,
    }
}

/// The values file written inline, whichever form it was stored in.
fn inline_values(file: Option<&HelmValuesFile>) -> String {
    match file {
        Some(HelmValuesFile::Yaml(yaml)) => yaml.clone(),
        Some(HelmValuesFile::Files { raw: Some(raw), .. }) => raw
            .values
            .iter()
            .map(|file| file.content.as_str())
            .collect::<Vec<_>>()
            .join("\n---\n"),
        _ => String::new(),
    }
}

/// The values override as the form holds it: the inline file written (the production API's
/// `raw` form), and values files read from git kept as they were.
fn values_file(written: &str, kept: Option<&HelmValuesFile>) -> Option<HelmValuesFile> {
    let git = match kept {
        Some(HelmValuesFile::Files { git, .. }) => git.clone(),
        _ => None,
    };
    let raw = (!written.trim().is_empty()).then(|| RawValuesFiles {
        values: vec![NamedValuesFile {
            name: INLINE_VALUES.into(),
            content: written.to_string(),
        }],
    });
    (raw.is_some() || git.is_some()).then_some(HelmValuesFile::Files { raw, git })
}

/// One `--set key=value` pair of the form.
#[derive(Clone, Copy)]
struct SetPair {
    key: RwSignal<String>,
    value: RwSignal<String>,
}

impl SetPair {
    fn new() -> Self {
        Self {
            key: RwSignal::new(String::new()),
            value: RwSignal::new(String::new()),
        }
    }

    fn of(pair: &KeyValue) -> Self {
        Self {
            key: RwSignal::new(pair.key.clone()),
            value: RwSignal::new(pair.value.clone()),
        }
    }
}

fn set_pair_fields(
    index: usize,
    pair: SetPair,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    view! {
        <TextField label=format!("Key {}", index + 1) name=format!("values_override.set[{index}].key")
            value=pair.key errors/>
        <TextField label=format!("Value {}", index + 1) name=format!("values_override.set[{index}].value")
            value=pair.value errors/>
    }
}

/// Where the chart comes from, as the form holds it: a helm repository's chart, or a directory
/// of a git repository.
#[derive(Clone, Copy)]
struct ChartSource {
    from_repository: RwSignal<bool>,
    helm_repository: RwSignal<String>,
    chart_name: RwSignal<String>,
    chart_version: RwSignal<String>,
    git: GitFields,
}

impl ChartSource {
    fn of(initial: &HelmSourceRequest) -> Self {
        let repository = initial.repository.as_ref();
        Self {
            from_repository: RwSignal::new(initial.git.is_none()),
            helm_repository: RwSignal::new(
                repository
                    .map(|r| r.repository_id)
                    .filter(|id| !id.is_nil())
                    .map(|id| id.to_string())
                    .unwrap_or_default(),
            ),
            chart_name: RwSignal::new(repository.map(|r| r.chart_name.clone()).unwrap_or_default()),
            chart_version: RwSignal::new(
                repository
                    .map(|r| r.chart_version.clone())
                    .unwrap_or_default(),
            ),
            git: GitFields::of(initial.git.as_ref().map(|g| &g.git_repository)),
        }
    }

    /// The source, or the helm repository left unchosen.
    fn read(self) -> Result<HelmSourceRequest, FieldError> {
        if !self.from_repository.get_untracked() {
            return Ok(HelmSourceRequest {
                git: Some(HelmGitSourceRequest {
                    git_repository: self.git.read(),
                    chart_path: None,
                }),
                repository: None,
            });
        }
        Ok(HelmSourceRequest {
            git: None,
            repository: Some(HelmRepositorySourceRequest {
                repository_id: chosen_id(
                    "source.repository.repository_id",
                    self.helm_repository,
                    "a helm repository",
                )?,
                chart_name: self.chart_name.get_untracked().trim().to_string(),
                chart_version: self.chart_version.get_untracked().trim().to_string(),
            }),
        })
    }

    /// The chosen repository's charts, and the versions of the chart typed, offered as the person
    /// types; none where the API does not list them.
    fn suggestions(self, org: Uuid) -> (Signal<Vec<String>>, Signal<Vec<String>>) {
        let api = use_api();
        let helm_repository = self.helm_repository;
        let charts = resource(move || {
            let repository: Option<Uuid> = helm_repository.get().parse().ok();
            async move {
                match repository {
                    Some(repository) => api.helm_charts(org, repository).await.unwrap_or_default(),
                    None => Vec::new(),
                }
            }
        });
        let names = Signal::derive(move || -> Vec<String> {
            charts
                .get()
                .map(|charts| charts.into_iter().map(|chart| chart.chart_name).collect())
                .unwrap_or_default()
        });
        let chart_name = self.chart_name;
        let versions = Signal::derive(move || -> Vec<String> {
            let wanted = chart_name.get();
            charts
                .get()
                .and_then(|charts| charts.into_iter().find(|c| c.chart_name == wanted.trim()))
                .map(|chart| chart.versions)
                .unwrap_or_default()
        });
        (names, versions)
    }
}

#[component]
pub fn HelmForm(
    org: Uuid,
    /// The environment the service is (or will be) in, whose API reads a chart's values.
    environment: Uuid,
    initial: HelmRequest,
    form: Form<HelmRequest>,
    submit_label: &'static str,
    purpose: &'static str,
) -> impl IntoView {
    let errors = form.errors;
    let name = RwSignal::new(initial.name.clone());
    let description = RwSignal::new(initial.description.clone().unwrap_or_default());
    let source = ChartSource::of(&initial.source);
    let (chart_names, chart_versions) = source.suggestions(org);
    let kept_file = initial.values_override.file.clone();
    let values = RwSignal::new(inline_values(kept_file.as_ref()));
    let set = Rows::new(initial.values_override.set.iter().map(SetPair::of));
    let arguments = RwSignal::new(initial.arguments.join("\n"));
    let timeout = RwSignal::new(initial.timeout_sec.to_string());
    let cluster_wide = RwSignal::new(initial.allow_cluster_wide_resources);
    let auto_deploy = RwSignal::new(initial.auto_deploy);
    let git_files_kept = matches!(&kept_file, Some(HelmValuesFile::Files { git: Some(_), .. }));

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let source = match source.read() {
            Ok(source) => source,
            Err(problem) => return errors.set(vec![problem]),
        };
        let mut numbers = Numbers::default();
        let request = HelmRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            source,
            arguments: lines_of(arguments),
            allow_cluster_wide_resources: cluster_wide.get_untracked(),
            values_override: HelmValuesOverride {
                set: set.read(|_, pair| KeyValue {
                    key: pair.key.get_untracked().trim().to_string(),
                    value: pair.value.get_untracked(),
                }),
                file: values_file(&values.get_untracked(), kept_file.as_ref()),
            },
            timeout_sec: numbers.read("timeout_sec", &timeout.get_untracked()),
            auto_deploy: auto_deploy.get_untracked(),
            ..initial.clone()
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label=purpose>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="ingress"/>
                <TextField label="Description" name="description" value=description errors/>
            </div>
            <SourceChoice legend="Chart" name="helm-source" first="From a helm repository"
                second="From a git repository" first_chosen=source.from_repository/>
            <div class="form-grid">
                {move || if source.from_repository.get() {
                    view! {
                        <HelmRepositoryField org name="source.repository.repository_id" value=source.helm_repository errors/>
                        <TextField label="Chart name" name="source.repository.chart_name" value=source.chart_name
                            errors required=true placeholder="ingress-nginx" suggestions=chart_names/>
                        <TextField label="Chart version" name="source.repository.chart_version"
                            value=source.chart_version errors required=true placeholder="4.10.0"
                            suggestions=chart_versions/>
                    }.into_any()
                } else {
                    view! {
                        <GitRepositoryFields git=source.git prefix="source.git.git_repository" errors
                            root_label="Chart directory" root_hint="Where Chart.yaml is in the repository."/>
                    }.into_any()
                }}
            </div>
            <div class="form-grid">
                <LinesField label="Values (YAML)" name="values_override.file" value=values errors
                    hint="Given on top of the chart's own values."/>
            </div>
            {move || (!source.from_repository.get()).then(|| view! {
                <ChartValues environment git=source.git values/>
            })}
            {git_files_kept.then(|| view! {
                <p class="muted">"Values files read from git are kept as they are."</p>
            })}
            <RowList legend="Values set one by one (--set)" what="value" rows=set
                new_row=SetPair::new row=set_pair_fields errors/>
            <div class="form-grid">
                <LinesField label="Helm arguments" name="arguments" value=arguments errors
                    hint="One per line, e.g. --atomic."/>
                <TextField label="Timeout (seconds)" name="timeout_sec" value=timeout errors input_type="number"/>
                <CheckboxField label="Allow cluster-wide resources" name="allow_cluster_wide_resources"
                    checked=cluster_wide hint="Lets the chart create resources outside its namespace."/>
                <CheckboxField label="Deploy on every push" name="auto_deploy" checked=auto_deploy/>
            </div>
            <SubmitButton form label=submit_label/>
        </form>
    }
}

/// "Start from the chart's values": the chart's own `values.yaml` read from its git repository
/// into the values field, to change what differs.
#[component]
fn ChartValues(environment: Uuid, git: GitFields, values: RwSignal<String>) -> impl IntoView {
    let api = use_api();
    let read = Action::new_local(move |(): &()| {
        let chart = HelmDefaultValuesRequest {
            source: HelmChartSource {
                git_repository: Some(git.read()),
                helm_repository: None,
            },
        };
        async move {
            let read = api.helm_default_values(environment, &chart).await;
            if let Ok(text) = &read {
                values.set(text.clone());
            }
            read.map(drop).map_err(|error| error.to_string())
        }
    });
    view! {
        <div class="chart-values">
            <button type="button" class="button button--secondary" on:click=move |_| { read.dispatch(()); }
                disabled=move || read.pending().get()>
                "Start from the chart's values"
            </button>
            {move || read.value().get().and_then(Result::err).map(|refusal| view! {
                <p class="field__error" role="alert">{refusal}</p>
            })}
        </div>
    }
}
