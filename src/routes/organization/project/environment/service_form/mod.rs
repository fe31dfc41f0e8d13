//! The form of each kind of service, one per kind, used both to create a service (filled with
//! the kind's defaults) and to change it (filled from its record): the environment's "New
//! service" and the service's Settings show the same fields under the same rules.

pub mod application;
pub mod container;
pub mod database;
pub mod helm;
pub mod job;
pub mod job_template;
pub mod of_kind;
mod resources;
mod runtime;
pub mod terraform;

use leptos::prelude::*;
use platform_api::{
    FieldError, GitProvider, GitRepositoryRequest, GitToken, HostedRepository, RepositoryQuery,
    WireEnum, SAMPLED_CODE_HOST,
};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::form_field::{optional_text, EnumSelect, SelectField, TextField};
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::state::resource::resource;

/// A git repository as a form holds it: its address, branch, the directory that matters, its
/// code host and the git token it is read with (an id, empty for none).
#[derive(Clone, Copy)]
pub struct GitFields {
    url: RwSignal<String>,
    branch: RwSignal<String>,
    root_path: RwSignal<String>,
    provider: RwSignal<GitProvider>,
    git_token: RwSignal<String>,
}

impl GitFields {
    /// The repository's fields, or a new one's (on `main`).
    pub fn of(repository: Option<&GitRepositoryRequest>) -> Self {
        Self {
            url: RwSignal::new(repository.map(|r| r.url.clone()).unwrap_or_default()),
            branch: RwSignal::new(
                repository
                    .and_then(|r| r.branch.clone())
                    .unwrap_or_else(|| "main".into()),
            ),
            root_path: RwSignal::new(
                repository
                    .and_then(|r| r.root_path.clone())
                    .unwrap_or_default(),
            ),
            provider: RwSignal::new(
                repository
                    .and_then(|r| r.provider)
                    .unwrap_or(SAMPLED_CODE_HOST),
            ),
            git_token: RwSignal::new(
                repository
                    .and_then(|r| r.git_token_id)
                    .map(|id| id.to_string())
                    .unwrap_or_default(),
            ),
        }
    }

    /// Makes the reactive code running this read again when a field changes.
    pub fn track(&self) {
        self.url.track();
        self.branch.track();
        self.root_path.track();
        self.provider.track();
        self.git_token.track();
    }

    pub fn read(&self) -> GitRepositoryRequest {
        let mut repository =
            GitRepositoryRequest::for_url(&self.url.get_untracked(), optional_text(self.branch));
        repository.root_path = optional_text(self.root_path);
        repository.provider = Some(self.provider.get_untracked());
        repository.git_token_id = self.git_token.get_untracked().parse().ok();
        repository
    }
}

/// The fields of a git repository, named under `prefix` (`source.git.git_repository`): the git
/// token offered among the organization's tokens of the code host chosen.
#[component]
pub fn GitRepositoryFields(
    git: GitFields,
    prefix: &'static str,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(default = "Root path")] root_label: &'static str,
    #[prop(optional)] root_hint: &'static str,
) -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org).get_untracked();
    let offered = org.map(|org| Suggestions::read(org, git));
    let urls = Signal::derive(move || {
        offered
            .and_then(|offered| offered.repositories.get())
            .map(|listed| {
                listed
                    .into_iter()
                    .map(|repository| repository.url)
                    .collect()
            })
    });
    let branches = Signal::derive(move || offered.and_then(|offered| offered.branches.get()));
    let folders = Signal::derive(move || offered.and_then(|offered| offered.folders.get()));
    view! {
        <TextField label="Git repository URL" name=format!("{prefix}.url") value=git.url errors
            required=true placeholder="https://git.example.com/acme/repository.git" suggestions=urls/>
        <TextField label="Branch" name=format!("{prefix}.branch") value=git.branch errors
            suggestions=branches/>
        <TextField label=root_label name=format!("{prefix}.root_path") value=git.root_path errors
            hint=root_hint suggestions=folders/>
        <EnumSelect label="Code host" name=format!("{prefix}.provider") value=git.provider errors/>
        <GitTokenField git prefix errors/>
    }
}

/// The organization's git tokens, for the repository fields.
type GitTokenChoices = LocalResource<Result<Vec<GitToken>, ApiError>>;

/// What the forms under the caller choose among, read once: the organization's groups and git
/// tokens, and the repositories listed. A page whose form is built again (with a saved record)
/// does not read them again.
pub fn provide_form_choices(org: Uuid) {
    runtime::provide_group_choices(org);
    provide_context(read_git_tokens(org));
    provide_context(RepositoryLists::default());
}

/// The repositories listed for this page, by code host and git token, once read.
#[derive(Clone, Copy, Default)]
struct RepositoryLists(StoredValue<Vec<Listed>>);

/// The repositories one code host's account or git token listed.
struct Listed {
    host: GitProvider,
    token: Option<Uuid>,
    repositories: Vec<HostedRepository>,
}

impl RepositoryLists {
    fn get(&self, host: GitProvider, token: Option<Uuid>) -> Option<Vec<HostedRepository>> {
        self.0.with_value(|lists| {
            let found = lists.iter().find(|l| l.host == host && l.token == token);
            found.map(|listed| listed.repositories.clone())
        })
    }

    fn keep(&self, host: GitProvider, token: Option<Uuid>, repositories: &[HostedRepository]) {
        self.0.update_value(|lists| {
            lists.push(Listed {
                host,
                token,
                repositories: repositories.to_vec(),
            })
        });
    }
}

/// What the repository fields suggest, read from the platform: the repositories the chosen git
/// token (or the code host's connected account) reads, then the picked repository's branches
/// and the folders below the root path typed. Any other address may be typed; a list the
/// platform does not answer suggests nothing.
#[derive(Clone, Copy)]
struct Suggestions {
    repositories: LocalResource<Vec<HostedRepository>>,
    branches: LocalResource<Vec<String>>,
    folders: LocalResource<Vec<String>>,
}

impl Suggestions {
    fn read(org: Uuid, git: GitFields) -> Self {
        let api = use_api();
        let lists = use_context::<RepositoryLists>();
        let query = move || RepositoryQuery {
            name: None,
            git_token_id: git.git_token.get().parse().ok(),
        };
        let repositories = resource(move || {
            let (host, query) = (git.provider.get(), query());
            async move {
                let token = query.git_token_id;
                if let Some(listed) = lists.and_then(|lists| lists.get(host, token)) {
                    return listed;
                }
                // Without a token, only a code host with an account connected lists.
                if token.is_none() {
                    let Ok(accounts) = api.git_accounts(org).await else {
                        return Vec::new();
                    };
                    if !accounts.iter().any(|account| account.name == host.as_str()) {
                        lists.inspect(|lists| lists.keep(host, token, &[]));
                        return Vec::new();
                    }
                }
                let Ok(listed) = api.hosted_repositories(org, host, query).await else {
                    return Vec::new();
                };
                lists.inspect(|lists| lists.keep(host, token, &listed));
                listed
            }
        });
        // The repository picked from the list, by its name there: branches and folders are
        // read of a picked one only, not at each letter of an address being typed.
        let picked = Memo::new(move |_| {
            let url = git.url.get();
            let listed = repositories.get()?;
            listed
                .into_iter()
                .find(|r| r.url == url.trim())
                .map(|r| r.name)
        });
        let branches = resource(move || {
            let (host, query, picked) = (git.provider.get(), query(), picked.get());
            async move {
                let Some(name) = picked else {
                    return Vec::new();
                };
                let query = RepositoryQuery {
                    name: Some(name),
                    ..query
                };
                let branches = api.repository_branches(org, host, query).await;
                branches.unwrap_or_default()
            }
        });
        // Folders of a branch the repository has, below the folder the root path typed ends in.
        let branch = Memo::new(move |_| {
            let branch = git.branch.get();
            branches.get()?.contains(&branch).then_some(branch)
        });
        let parent = Memo::new(move |_| {
            let typed = git.root_path.get();
            typed.rsplit_once('/').map(|(parent, _)| parent.to_string())
        });
        let folders = resource(move || {
            let (picked, branch, parent) = (picked.get(), branch.get(), parent.get());
            git.git_token.track();
            async move {
                let (Some(_), Some(branch)) = (picked, branch) else {
                    return Vec::new();
                };
                let parent = parent.unwrap_or_default();
                let mut repository = git.read();
                repository.branch = Some(branch);
                repository.root_path = Some(format!("{parent}/"));
                let folders = api.repository_folders(org, &repository).await;
                let folders = folders.unwrap_or_default().into_iter();
                folders.map(|folder| format!("{parent}/{folder}")).collect()
            }
        });
        Self {
            repositories,
            branches,
            folders,
        }
    }
}

fn read_git_tokens(org: Uuid) -> GitTokenChoices {
    let api = use_api();
    resource(move || async move { api.git_tokens(org).await })
}

/// The git token a repository is read with: none (a public repository), or one of the
/// organization's tokens for the repository's code host.
#[component]
fn GitTokenField(
    git: GitFields,
    prefix: &'static str,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org).get_untracked();
    let tokens = use_context::<GitTokenChoices>().or_else(|| org.map(read_git_tokens))?;
    // A token is for one host: another host chosen, the token chosen no longer applies.
    Effect::watch(
        move || git.provider.get(),
        move |_, _, _| git.git_token.set(String::new()),
        false,
    );
    let add_at = org.map(paths::git_tokens).unwrap_or_default();
    Some(move || {
        // Without the tokens (a role that may not list them), the field is left out.
        let tokens = tokens.get()?.ok()?;
        let host = git.provider.get();
        let mut options = vec![(String::new(), "None: a public repository".to_string())];
        options.extend(
            tokens
                .iter()
                .filter(|token| token.kind == host)
                .map(|token| (token.id.to_string(), token.name.clone())),
        );
        let none_for_host = options.len() == 1;
        let add_at = add_at.clone();
        Some(view! {
            <SelectField label="Git token" name=format!("{prefix}.git_token_id") value=git.git_token
                options errors/>
            {none_for_host.then(|| view! {
                <p class="field__hint">
                    {format!("No git token for {} yet: a private repository needs one. ", host.label())}
                    <a href=add_at>"Add a git token"</a>
                </p>
            })}
        })
    })
}

/// A choice between two sources (git or an image, git or a helm repository), as radio buttons
/// bound to whether the first is chosen.
#[component]
pub fn SourceChoice(
    legend: &'static str,
    /// The radio group's name.
    name: &'static str,
    first: &'static str,
    second: &'static str,
    first_chosen: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <fieldset class="choices">
            <legend>{legend}</legend>
            <label class="checkbox">
                <input type="radio" name=name checked=move || first_chosen.get()
                    on:change=move |_| first_chosen.set(true)/>
                {first}
            </label>
            <label class="checkbox">
                <input type="radio" name=name checked=move || !first_chosen.get()
                    on:change=move |_| first_chosen.set(false)/>
                {second}
            </label>
        </fieldset>
    }
}

/// A record of the organization to choose by id (a registry, a helm repository): a select, or,
/// when the organization has none, the way to add one.
#[component]
fn OrganizationRecordField(
    label: &'static str,
    /// The request field it fills.
    name: &'static str,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
    /// The records, as `(id, what the select shows)`.
    records: LocalResource<Result<Vec<(Uuid, String)>, crate::api::ApiError>>,
    /// What to say, and where to go, when there is none.
    none: &'static str,
    add_at: String,
) -> impl IntoView {
    move || {
        Some(match records.get()? {
            Err(error) => {
                view! { <p class="notice notice--error">{error.to_string()}</p> }.into_any()
            }
            Ok(list) if list.is_empty() => view! {
                <p class="notice notice--warning">
                    {none} " " <a href=add_at.clone()>"Add one"</a> " first."
                </p>
            }
            .into_any(),
            Ok(list) => {
                if value.get_untracked().is_empty() {
                    value.set(list[0].0.to_string());
                }
                view! { <SelectField label name value options=list errors required=true/> }
                    .into_any()
            }
        })
    }
}

/// A container registry of the organization to take an image from.
#[component]
pub fn RegistryField(
    org: Uuid,
    name: &'static str,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let api = use_api();
    let records = resource(move || async move {
        Ok(api
            .container_registries(org)
            .await?
            .into_iter()
            .map(|r| (r.id, format!("{} ({})", r.name, r.url)))
            .collect())
    });
    view! {
        <OrganizationRecordField label="Registry" name value errors records
            none="Images come from a registry, and this organization has none yet."
            add_at=paths::container_registries(org)/>
    }
}

/// A helm repository of the organization to take a chart from.
#[component]
pub fn HelmRepositoryField(
    org: Uuid,
    name: &'static str,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let api = use_api();
    let records = resource(move || async move {
        Ok(api
            .helm_repositories(org)
            .await?
            .into_iter()
            .map(|r| (r.id, format!("{} ({})", r.name, r.url)))
            .collect())
    });
    view! {
        <OrganizationRecordField label="Helm repository" name value errors records
            none="Charts come from a helm repository, and this organization has none yet."
            add_at=paths::helm_repositories(org)/>
    }
}

/// The id chosen in a select of records, or the error saying one is needed.
pub fn chosen_id(field: &str, value: RwSignal<String>, what: &str) -> Result<Uuid, FieldError> {
    value
        .get_untracked()
        .parse()
        .map_err(|_| FieldError::new(field, format!("is required: choose {what}")))
}
