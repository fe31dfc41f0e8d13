//! `/organization/:org/settings/git-tokens`: the credentials services read private repositories
//! with. Each token with its code host, the API it is used against and, on demand, the services
//! that use it (links to them); a form to add one (the token is sent once and never shown
//! again), to edit one, and delete (refused while services use it, naming them).

use leptos::prelude::*;
use platform_api::{GitProvider, GitToken, GitTokenRequest, WireEnum};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::{services_using, DeleteButton};
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{optional_text, EnumSelect, FieldScope, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::toggle_button::ToggleButton;
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;
use crate::state::resource::resource;

#[component]
pub fn GitTokens() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let tokens = organization_records(|api, org| async move { api.git_tokens(org).await });
    let changed = Callback::new(move |()| tokens.refetch());
    view! {
        <SettingsHeader title="Git tokens"
            lead="What services read private repositories with: each token is sent once and never shown again."/>
        <section class="card" aria-labelledby="git-tokens-title">
            <h2 id="git-tokens-title">"All git tokens"</h2>
            {loaded(tokens, 3, move |(org, list)| {
                if list.is_empty() {
                    return view! {
                        <EmptyState title="No git token yet"
                            hint="Add one with the button below; a service's repository can then be read with it."/>
                    }.into_any();
                }
                view! {
                    <ul class="record-list">
                        {list.into_iter().map(|token| view! { <GitTokenItem org token on_changed=changed/> }).collect_view()}
                    </ul>
                }.into_any()
            })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New git token"><GitTokenForm org editing=None on_saved=changed/></NewDialog>
        })}
    }
}

#[component]
fn GitTokenItem(org: Uuid, token: GitToken, on_changed: Callback<()>) -> impl IntoView {
    let api = use_api();
    let (id, name) = (token.id, token.name.clone());
    let editing = RwSignal::new(false);
    let showing_services = RwSignal::new(false);
    let used_by = token.associated_services_count;
    let record = token.clone();
    let edit_name = format!("Edit {name}");
    let services_name = format!("Services using {name}");
    view! {
        <li class="record" data-git-token=token.name.clone()>
            <div class="record__head">
                <strong>{token.name.clone()}</strong>
                <span class="tag">{token.kind.label()}</span>
                <span class="muted">{services_using(used_by)}</span>
            </div>
            <dl class="facts">
                <dt>"API"</dt><dd class="mono">{token.git_api_url.clone()}</dd>
                {token.workspace.clone().map(|workspace| view! { <dt>"Workspace"</dt><dd>{workspace}</dd> })}
                {token.description.clone().map(|description| view! { <dt>"Description"</dt><dd>{description}</dd> })}
            </dl>
            <div class="record__actions">
                <ToggleButton open=showing_services label="Services" open_label="Hide services"
                    name=services_name disabled=used_by == 0/>
                <ToggleButton open=editing label="Edit" open_label="Close the form" name=edit_name/>
                <DeleteButton question="Delete this git token?" item=name
                    consequence="Services can no longer read their repository with it. A token that services use is kept until they change."
                    done="Git token deleted."
                    delete=move || async move { api.delete_git_token(org, id).await } on_deleted=on_changed/>
            </div>
            <Show when=move || showing_services.get()>
                <TokenServices org token=id/>
            </Show>
            <Show when=move || editing.get()>
                <GitTokenForm org editing=Some(record.clone()) on_saved=on_changed/>
            </Show>
        </li>
    }
}

/// The services that read their repository with the token, each a link to its page.
#[component]
fn TokenServices(org: Uuid, token: Uuid) -> impl IntoView {
    let api = use_api();
    let services = resource(move || async move { api.git_token_services(org, token).await });
    view! {
        {loaded(services, 2, move |services| view! {
            <ul class="plain-list">
                {services.into_iter().map(|service| {
                    let href = paths::service(org, service.project_id, service.environment_id, service.service_id);
                    view! {
                        <li>
                            <a href=href>{service.service_name}</a>
                            <span class="muted">{format!(" {} › {} · {}", service.project_name, service.environment_name, service.service_type.label())}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        })}
    }
}

/// Adds a git token, or, `editing` one, saves it. The platform asks for the token with every
/// change, so an edit asks for it again.
#[component]
fn GitTokenForm(org: Uuid, editing: Option<GitToken>, on_saved: Callback<()>) -> impl IntoView {
    let api = use_api();
    let existing = editing.as_ref().map(|token| token.id);
    if let Some(id) = existing {
        provide_context(FieldScope(id.to_string()));
    }
    let name = RwSignal::new(editing.as_ref().map(|t| t.name.clone()).unwrap_or_default());
    let kind = RwSignal::new(editing.as_ref().map_or(GitProvider::ProviderC, |t| t.kind));
    let token = RwSignal::new(String::new());
    let workspace = RwSignal::new(
        editing
            .as_ref()
            .and_then(|t| t.workspace.clone())
            .unwrap_or_default(),
    );
    let public_api = editing
        .as_ref()
        .is_none_or(|t| t.git_api_url == t.kind.public_api_url());
    let git_api_url = RwSignal::new(
        editing
            .as_ref()
            .filter(|_| !public_api)
            .map(|t| t.git_api_url.clone())
            .unwrap_or_default(),
    );
    let description = RwSignal::new(
        editing
            .as_ref()
            .and_then(|t| t.description.clone())
            .unwrap_or_default(),
    );
    let form = Form::new(
        move |request: GitTokenRequest| async move {
            match existing {
                Some(id) => api.update_git_token(org, id, &request).await,
                None => api.create_git_token(org, &request).await,
            }
        },
        move |saved: GitToken| {
            token.set(String::new());
            if existing.is_none() {
                name.set(String::new());
                workspace.set(String::new());
                git_api_url.set(String::new());
                description.set(String::new());
            }
            on_saved.run(());
            if existing.is_some() {
                format!("Git token {} saved.", saved.name)
            } else {
                format!("Git token {} added.", saved.name)
            }
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = GitTokenRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            kind: kind.get_untracked(),
            token: optional_text(token),
            workspace: optional_text(workspace),
            git_api_url: optional_text(git_api_url),
        };
        let checked = request.validate(&[]);
        form.submit(request, checked);
    };
    let (label, title, button) = if existing.is_some() {
        ("Edit the git token", "Edit", "Save git token")
    } else {
        ("Add a git token", "New git token", "Add git token")
    };
    let token_hint = if existing.is_some() {
        "The platform asks for the token with every change: paste it again, or a new one."
    } else {
        "From your code host's settings; sent once, never shown again."
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label=label>
            <h2>{title}</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="ci-reader"/>
                <EnumSelect label="Code host" name="type" value=kind errors/>
                <TextField label="Token" name="token" value=token errors required=true
                    input_type="password" hint=token_hint/>
                <Show when=move || kind.get().needs_workspace()>
                    <TextField label="Workspace" name="workspace" value=workspace errors required=true
                        hint="Where the host lists your repositories."/>
                </Show>
                <TextField label="API address" name="git_api_url" value=git_api_url errors
                    placeholder="https://git.example.com/api"
                    hint="Only for a self-hosted code host; empty: the host's public API."/>
                <TextField label="Description" name="description" value=description errors/>
            </div>
            <SubmitButton form label=button/>
        </form>
    }
}
