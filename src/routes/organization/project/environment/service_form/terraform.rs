//! A terraform service's form: its files (a git repository), its variables (the `.tfvars` files
//! of the repository ticked in the order they apply, and key/value rows, secret or not), where
//! its state is kept (one backend), the engine and provider version, the resources of the job
//! that runs it, its timeout, the extra arguments of each command and a Dockerfile fragment.

use std::collections::BTreeMap;

use leptos::prelude::*;
use platform_api::{
    DockerfileFragment, DockerfileFragmentType, FieldError, GitRepositoryRequest, TerraformBackend,
    TerraformEngine, TerraformFilesSourceRequest, TerraformGitSourceRequest, TerraformJobResources,
    TerraformProviderVersion, TerraformRequest, TerraformVariablesSource, TfVar, TfVarsDiscovery,
    TfVarsGitRepository, TfVarsListingRequest, TfVarsMode,
};
use uuid::Uuid;

use super::{GitFields, GitRepositoryFields, SourceChoice};
use crate::api::use_api;
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{
    error_for, optional_text, CheckboxField, EnumSelect, LinesField, TextField,
};
use crate::components::rows::{RowList, Rows};
use crate::state::resource::resource;

/// A new terraform service's request: OpenTofu, its state kept in the cluster.
pub fn new_terraform() -> TerraformRequest {
    TerraformRequest {
        name: String::new(),
        description: None,
        auto_deploy: false,
        auto_deploy_config: None,
        terraform_files_source: TerraformFilesSourceRequest {
            git: TerraformGitSourceRequest {
                git_repository: GitRepositoryRequest::for_url("", Some("main".into())),
            },
        },
        terraform_variables_source: TerraformVariablesSource::default(),
        backend: kubernetes_backend(),
        engine: TerraformEngine::OpenTofu,
        provider_version: TerraformProviderVersion {
            explicit_version: String::new(),
            read_from_terraform_block: true,
        },
        job_resources: TerraformJobResources::default(),
        timeout_sec: 1800,
        icon_uri: None,
        use_cluster_credentials: false,
        action_extra_arguments: BTreeMap::new(),
        dockerfile_fragment: None,
    }
}

fn kubernetes_backend() -> TerraformBackend {
    TerraformBackend {
        kubernetes: Some(serde_json::json!({})),
        user_provided: None,
    }
}

/// One variable row: its key, its value, and whether it is a secret. A stored secret's value is
/// not shown: left empty, it is kept.
#[derive(Clone, Copy)]
struct VariableRow {
    key: RwSignal<String>,
    value: RwSignal<String>,
    secret: RwSignal<bool>,
    /// Whether the server holds a value for it already.
    stored_secret: bool,
}

impl VariableRow {
    fn new() -> Self {
        Self {
            key: RwSignal::new(String::new()),
            value: RwSignal::new(String::new()),
            secret: RwSignal::new(false),
            stored_secret: false,
        }
    }

    fn of(var: &TfVar) -> Self {
        Self {
            key: RwSignal::new(var.key.clone()),
            value: RwSignal::new(var.value.clone().unwrap_or_default()),
            secret: RwSignal::new(var.secret),
            stored_secret: var.secret && var.value.is_none(),
        }
    }

    fn read(self) -> TfVar {
        let value = self.value.get_untracked();
        let kept = self.stored_secret && self.secret.get_untracked() && value.is_empty();
        TfVar {
            key: self.key.get_untracked().trim().to_string(),
            value: (!kept).then_some(value),
            secret: self.secret.get_untracked(),
        }
    }
}

fn variable_fields(
    index: usize,
    row: VariableRow,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let base = format!("terraform_variables_source.tf_vars[{index}]");
    let placeholder = if row.stored_secret {
        "(kept: type to replace)"
    } else {
        ""
    };
    view! {
        <TextField label=format!("Variable {} key", index + 1) name=format!("{base}.key") value=row.key errors/>
        <TextField label=format!("Variable {} value", index + 1) name=format!("{base}.value") value=row.value
            errors placeholder input_type=if row.stored_secret { "password" } else { "text" }/>
        <CheckboxField label="Secret" name=format!("{base}.secret") checked=row.secret/>
    }
}

/// The extra arguments of one terraform command (`plan`: `-lock=false`).
#[derive(Clone, Copy)]
struct CommandArguments {
    command: RwSignal<String>,
    arguments: RwSignal<String>,
}

impl CommandArguments {
    fn new() -> Self {
        Self {
            command: RwSignal::new(String::new()),
            arguments: RwSignal::new(String::new()),
        }
    }
}

fn command_fields(
    index: usize,
    row: CommandArguments,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    view! {
        <TextField label=format!("Command {}", index + 1) name=format!("action_extra_arguments[{index}].command")
            value=row.command errors placeholder="plan"/>
        <TextField label=format!("Command {} arguments", index + 1)
            name=format!("action_extra_arguments[{index}].arguments") value=row.arguments errors
            placeholder="-lock=false -parallelism=4" hint="Separated by spaces."/>
    }
}

/// The versions of the chosen engine, as the platform lists them; those this console knows
/// where it does not.
fn versions_of(engine: RwSignal<TerraformEngine>) -> Signal<Vec<String>> {
    let api = use_api();
    let available = resource(move || async move { api.terraform_versions().await.ok() });
    Signal::derive(move || -> Vec<String> {
        let chosen = engine.get();
        match available.get().flatten() {
            Some(listed) => listed
                .into_iter()
                .filter(|version| version.engine == chosen)
                .map(|version| version.version)
                .collect(),
            None => chosen.versions().iter().map(|v| v.to_string()).collect(),
        }
    })
}

#[component]
pub fn TerraformForm(
    org: Uuid,
    initial: TerraformRequest,
    form: Form<TerraformRequest>,
    submit_label: &'static str,
    purpose: &'static str,
) -> impl IntoView {
    let errors = form.errors;
    let name = RwSignal::new(initial.name.clone());
    let description = RwSignal::new(initial.description.clone().unwrap_or_default());
    let git = GitFields::of(Some(&initial.terraform_files_source.git.git_repository));
    let variables = &initial.terraform_variables_source;
    let tfvars_files = RwSignal::new(variables.tf_var_file_paths.clone());
    let rows = Rows::new(variables.tf_vars.iter().map(VariableRow::of));
    let in_cluster = RwSignal::new(initial.backend.user_provided.is_none());
    let engine = RwSignal::new(initial.engine);
    let explicit_version = RwSignal::new(initial.provider_version.explicit_version.clone());
    let from_block = RwSignal::new(initial.provider_version.read_from_terraform_block);
    let versions = versions_of(engine);
    let resources = &initial.job_resources;
    let cpu = RwSignal::new(resources.cpu_milli.to_string());
    let ram = RwSignal::new(resources.ram_mib.to_string());
    let gpu = RwSignal::new(resources.gpu.to_string());
    let storage = RwSignal::new(resources.storage_gib.to_string());
    let timeout = RwSignal::new(initial.timeout_sec.to_string());
    let commands = Rows::new(
        initial
            .action_extra_arguments
            .iter()
            .map(|(command, arguments)| CommandArguments {
                command: RwSignal::new(command.clone()),
                arguments: RwSignal::new(arguments.join(" ")),
            }),
    );
    let fragment = FragmentFields::of(initial.dockerfile_fragment.as_ref());
    let cluster_credentials = RwSignal::new(initial.use_cluster_credentials);
    let auto_deploy = RwSignal::new(initial.auto_deploys());

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let request = TerraformRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            auto_deploy: auto_deploy.get_untracked(),
            auto_deploy_config: None,
            terraform_files_source: TerraformFilesSourceRequest {
                git: TerraformGitSourceRequest {
                    git_repository: git.read(),
                },
            },
            terraform_variables_source: TerraformVariablesSource {
                tf_var_file_paths: tfvars_files.get_untracked(),
                tf_vars: rows.read(|_, row| row.read()),
            },
            backend: if in_cluster.get_untracked() {
                kubernetes_backend()
            } else {
                TerraformBackend {
                    kubernetes: None,
                    user_provided: Some(serde_json::json!({})),
                }
            },
            engine: engine.get_untracked(),
            provider_version: TerraformProviderVersion {
                explicit_version: explicit_version.get_untracked().trim().to_string(),
                read_from_terraform_block: from_block.get_untracked(),
            },
            job_resources: TerraformJobResources {
                cpu_milli: numbers.read("job_resources.cpu_milli", &cpu.get_untracked()),
                ram_mib: numbers.read("job_resources.ram_mib", &ram.get_untracked()),
                gpu: numbers.read("job_resources.gpu", &gpu.get_untracked()),
                storage_gib: numbers.read("job_resources.storage_gib", &storage.get_untracked()),
            },
            timeout_sec: numbers.read("timeout_sec", &timeout.get_untracked()),
            action_extra_arguments: commands
                .read(|_, row| {
                    let arguments = row.arguments.get_untracked();
                    (
                        row.command.get_untracked().trim().to_string(),
                        arguments.split_whitespace().map(str::to_string).collect(),
                    )
                })
                .into_iter()
                .filter(|(command, _)| !command.is_empty())
                .collect(),
            dockerfile_fragment: fragment.read(),
            use_cluster_credentials: cluster_credentials.get_untracked(),
            ..initial.clone()
        };
        let stored: Vec<String> = rows
            .read(|_, row| row)
            .into_iter()
            .filter(|row| row.stored_secret)
            .map(|row| row.key.get_untracked())
            .collect();
        let stored: Vec<&str> = stored.iter().map(String::as_str).collect();
        let checked = numbers.and_rules(request.validate(&stored));
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label=purpose>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="network"/>
                <TextField label="Description" name="description" value=description errors/>
                <GitRepositoryFields git prefix="terraform_files_source.git.git_repository" errors
                    root_hint="The directory of the terraform files."/>
            </div>
            <TfVarsFiles org git chosen=tfvars_files/>
            <RowList legend="Variables" what="variable" rows new_row=VariableRow::new row=variable_fields errors
                hint="Given after the files, so they win over them."/>
            <ModuleVariables org git rows/>
            <SourceChoice legend="State backend" name="terraform-backend" first="Kept in the cluster (kubernetes)"
                second="Declared in the terraform files (user provided)" first_chosen=in_cluster/>
            <p class="field__error">{move || error_for(errors, "backend").get()}</p>
            <div class="form-grid">
                <EnumSelect label="Engine" name="engine" value=engine errors/>
                <TextField label="Provider version" name="provider_version.explicit_version"
                    value=explicit_version errors placeholder="1.9.0"
                    hint="Empty for the engine's newest." suggestions=versions/>
                <CheckboxField label="Read the version from the terraform block"
                    name="provider_version.read_from_terraform_block" checked=from_block/>
                <TextField label="Job CPU (milli-CPU)" name="job_resources.cpu_milli" value=cpu errors input_type="number"/>
                <TextField label="Job memory (MiB)" name="job_resources.ram_mib" value=ram errors input_type="number"/>
                <TextField label="Job GPUs" name="job_resources.gpu" value=gpu errors input_type="number"/>
                <TextField label="Job storage (GiB)" name="job_resources.storage_gib" value=storage errors input_type="number"/>
                <TextField label="Timeout (seconds)" name="timeout_sec" value=timeout errors input_type="number"
                    hint="0 for none."/>
                <CheckboxField label="Use the cluster's credentials" name="use_cluster_credentials"
                    checked=cluster_credentials/>
                <CheckboxField label="Deploy on every push" name="auto_deploy" checked=auto_deploy/>
            </div>
            <RowList legend="Extra arguments per command" what="command" rows=commands
                new_row=CommandArguments::new row=command_fields errors/>
            <FragmentFieldsView fragment errors/>
            <SubmitButton form label=submit_label/>
        </form>
    }
}

/// The Dockerfile fragment as typed: whether there is one, where it comes from, and the path or
/// the lines.
#[derive(Clone, Copy)]
struct FragmentFields {
    enabled: RwSignal<bool>,
    source: RwSignal<DockerfileFragmentType>,
    path: RwSignal<String>,
    content: RwSignal<String>,
}

impl FragmentFields {
    fn of(fragment: Option<&DockerfileFragment>) -> Self {
        Self {
            enabled: RwSignal::new(fragment.is_some()),
            source: RwSignal::new(
                fragment.map_or(DockerfileFragmentType::File, |f| f.fragment_type),
            ),
            path: RwSignal::new(fragment.and_then(|f| f.path.clone()).unwrap_or_default()),
            content: RwSignal::new(fragment.and_then(|f| f.content.clone()).unwrap_or_default()),
        }
    }

    fn read(&self) -> Option<DockerfileFragment> {
        let fragment_type = self.source.get_untracked();
        self.enabled.get_untracked().then(|| DockerfileFragment {
            fragment_type,
            path: (fragment_type == DockerfileFragmentType::File)
                .then(|| optional_text(self.path))
                .flatten(),
            content: (fragment_type == DockerfileFragmentType::Inline)
                .then(|| self.content.get_untracked())
                .filter(|content| !content.trim().is_empty()),
        })
    }
}

#[component]
fn FragmentFieldsView(
    fragment: FragmentFields,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    view! {
        <fieldset class="rows">
            <legend>"Dockerfile fragment"</legend>
            <CheckboxField label="Add lines to the runner's Dockerfile" name="dockerfile_fragment.enabled"
                checked=fragment.enabled hint="To install tools the terraform files need."/>
            <Show when=move || fragment.enabled.get()>
                <div class="form-grid">
                    <EnumSelect label="From" name="dockerfile_fragment.type" value=fragment.source errors/>
                    {move || match fragment.source.get() {
                        DockerfileFragmentType::File => view! {
                            <TextField label="Path in the repository" name="dockerfile_fragment.path"
                                value=fragment.path errors placeholder="docker/runner.fragment"/>
                        }.into_any(),
                        DockerfileFragmentType::Inline | DockerfileFragmentType::Other(_) => view! {
                            <LinesField label="Lines" name="dockerfile_fragment.content" value=fragment.content
                                errors placeholder="RUN apk add --no-cache jq"/>
                        }.into_any(),
                    }}
                </div>
            </Show>
        </fieldset>
    }
}

/// The variables the module declares (its `variable` blocks), added on request as rows: each
/// with its default, a sensitive one as a secret; a key already listed is left as it is.
#[component]
fn ModuleVariables(org: Uuid, git: GitFields, rows: Rows<VariableRow>) -> impl IntoView {
    let api = use_api();
    let read = Action::new_local(move |(): &()| {
        let repository = git.read();
        async move {
            let declared = api.terraform_variables(org, repository).await?;
            let listed = rows.read(|_, row| row.key.get_untracked());
            let added: Vec<VariableRow> = declared
                .into_iter()
                .filter(|variable| !listed.contains(&variable.key))
                .map(|variable| VariableRow {
                    key: RwSignal::new(variable.key),
                    value: RwSignal::new(variable.default.unwrap_or_default()),
                    secret: RwSignal::new(variable.sensitive),
                    stored_secret: false,
                })
                .collect();
            let count = added.len();
            rows.extend(added);
            Ok::<_, crate::api::ApiError>(count)
        }
    });
    view! {
        <button type="button" class="button" disabled=move || read.pending().get()
            on:click=move |_| { read.dispatch_local(()); }>
            "Add the module's variables"
        </button>
        <p class="field__hint" role="status">{move || read.value().get().map(|outcome| match outcome {
            Ok(0) => "Every variable the module declares is listed.".to_string(),
            Ok(count) => format!("{count} of the module's variables added."),
            Err(error) => error.to_string(),
        })}</p>
    }
}

/// The `.tfvars` files of the repository, found on request and offered to tick; the ticked ones
/// apply in the order they were ticked, shown by their number.
#[component]
fn TfVarsFiles(org: Uuid, git: GitFields, chosen: RwSignal<Vec<String>>) -> impl IntoView {
    let api = use_api();
    let found = RwSignal::new(None::<Result<Vec<String>, String>>);
    let find = Action::new_local(move |(): &()| {
        let repository = git.read();
        let request = TfVarsListingRequest {
            git_repository: TfVarsGitRepository {
                url: repository.url,
                provider: None,
                branch: repository.branch,
                root_path: repository.root_path,
                git_token_id: None,
            },
            mode: TfVarsMode {
                discovery: TfVarsDiscovery::AutoDiscover,
                paths: None,
            },
        };
        async move {
            let result = api.tfvars_files(org, &request).await;
            found.set(Some(
                result
                    .map(|files| files.into_iter().map(|file| file.source).collect())
                    .map_err(|error| error.to_string()),
            ));
        }
    });
    let toggle = move |path: String, on: bool| {
        chosen.update(|list| {
            list.retain(|chosen| *chosen != path);
            if on {
                list.push(path);
            }
        })
    };
    // The files ticked but not found (or not looked for yet) are offered too, so none is lost.
    let offered = move || {
        let mut paths = match found.get() {
            Some(Ok(paths)) => paths,
            _ => Vec::new(),
        };
        for path in chosen.get() {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        paths
    };
    view! {
        <fieldset class="rows">
            <legend>"Variable files (.tfvars)"</legend>
            <p class="field__hint">"Ticked files apply in the order they were ticked; later ones win."</p>
            <button type="button" class="button" disabled=move || find.pending().get()
                on:click=move |_| { find.dispatch_local(()); }>
                "Find the repository's .tfvars files"
            </button>
            {move || match found.get() {
                Some(Err(error)) => Some(view! { <p class="notice notice--error" role="alert">{error}</p> }.into_any()),
                Some(Ok(paths)) if paths.is_empty() => Some(view! { <p class="muted">"The repository has no .tfvars file."</p> }.into_any()),
                _ => None,
            }}
            <ul class="plain-list">
                {move || offered().into_iter().map(|path| {
                    let shown = path.clone();
                    let ticked = path.clone();
                    let order = path.clone();
                    view! {
                        <li>
                            <label class="checkbox">
                                <input type="checkbox" name="terraform_variables_source.tf_var_file_paths"
                                    value=path.clone()
                                    checked=move || chosen.with(|list| list.contains(&ticked))
                                    on:change=move |event| toggle(path.clone(), event_target_checked(&event))/>
                                <code>{shown}</code>
                                {move || chosen.with(|list| list.iter().position(|p| *p == order))
                                    .map(|place| view! { <span class="muted">{format!(" applies {}", place + 1)}</span> })}
                            </label>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </fieldset>
    }
}
