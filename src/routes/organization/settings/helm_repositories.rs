//! `/organization/:org/settings/helm-repositories`: where helm services take their charts from.
//! Each repository with its kind, address, whether its certificate is checked and how many
//! services use it (never its secrets); a form whose credential fields follow the kind chosen;
//! delete after a confirmation (refused while services use it).

use leptos::prelude::*;
use platform_api::{HelmRepository, HelmRepositoryKind, HelmRepositoryRequest};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::credential_fields::{CredentialFields, CredentialValues};
use crate::components::delete_button::{services_using, DeleteButton};
use crate::components::empty_state::EmptyState;
use crate::components::form::Form;
use crate::components::form_field::{SelectField, TextField};
use crate::components::loaded::loaded;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;
use crate::routes::param_id;

#[component]
pub fn HelmRepositories() -> impl IntoView {
    let org = param_id("org");
    let repositories =
        organization_records(|api, org| async move { api.helm_repositories(org).await });
    let changed = Callback::new(move |()| repositories.refetch());
    view! {
        <SettingsHeader title="Helm repositories"
            lead="Where helm services take their charts from."/>
        <section class="card" aria-labelledby="repositories-title">
            <h2 id="repositories-title">"All repositories"</h2>
            {loaded(repositories, 3, move |(org, list)| view! {
                <RepositoryTable org repositories=list on_deleted=changed/>
            })}
        </section>
        {move || org.get().map(|org| view! { <CreateRepository org on_created=changed/> })}
    }
}

#[component]
fn RepositoryTable(
    org: Uuid,
    repositories: Vec<HelmRepository>,
    on_deleted: Callback<()>,
) -> impl IntoView {
    if repositories.is_empty() {
        return view! {
            <EmptyState title="No helm repository yet"
                hint="Add one with the form below; helm services then take their charts from it."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Kind"</th>
                <th scope="col">"Address"</th>
                <th scope="col">"Used by"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {repositories.into_iter().map(|repository| view! { <RepositoryRow org repository on_deleted/> }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn RepositoryRow(org: Uuid, repository: HelmRepository, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    let id = repository.id;
    let used_by = services_using(repository.associated_services_count);
    view! {
        <tr data-repository=repository.name.clone()>
            <td><strong>{repository.name.clone()}</strong></td>
            <td><span class="tag">{repository.kind.as_str()}</span></td>
            <td>
                <span class="mono">{repository.url.clone()}</span>
                {repository.skip_tls_verification.then(|| view! {
                    <div class="cell-note warning-text">"Certificate not checked"</div>
                })}
            </td>
            <td>{used_by}</td>
            <td class="row-actions">
                <DeleteButton question="Delete this helm repository?"
                    consequence="Its credentials go with it. A repository that services use is kept until they change."
                    done="Helm repository deleted."
                    delete=move || async move { api.delete_helm_repository(org, id).await } on_deleted/>
            </td>
        </tr>
    }
}

#[component]
fn CreateRepository(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new(HelmRepositoryKind::Https.as_str().to_string());
    let url = RwSignal::new(String::new());
    let skip_tls = RwSignal::new(false);
    let credentials = CredentialValues::new(
        HelmRepositoryKind::ALL
            .iter()
            .flat_map(|kind| kind.config_fields().iter().copied()),
    );
    let chosen = move || kind.get().parse().unwrap_or(HelmRepositoryKind::Https);
    let form = Form::new(
        move |request: HelmRepositoryRequest| async move {
            api.create_helm_repository(org, &request).await
        },
        {
            let credentials = credentials.clone();
            move |created: HelmRepository| {
                name.set(String::new());
                url.set(String::new());
                credentials.clear();
                on_created.run(());
                format!("Helm repository {} added.", created.name)
            }
        },
    );
    let errors = form.errors;
    let submit = {
        let credentials = credentials.clone();
        move |event: leptos::ev::SubmitEvent| {
            event.prevent_default();
            let kind: HelmRepositoryKind = kind
                .get_untracked()
                .parse()
                .unwrap_or(HelmRepositoryKind::Https);
            let request = HelmRepositoryRequest {
                name: name.get_untracked().trim().to_string(),
                kind,
                description: None,
                url: url.get_untracked().trim().to_string(),
                skip_tls_verification: skip_tls.get_untracked(),
                config: credentials.request(kind.config_fields()),
            };
            let checked = request.validate(&[]);
            form.submit(request, checked);
        }
    };
    let kinds: Vec<(&str, String)> = HelmRepositoryKind::ALL
        .iter()
        .map(|kind| (kind.as_str(), kind.as_str().to_string()))
        .collect();
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a helm repository">
            <h2>"New helm repository"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="charts"/>
                <SelectField label="Kind" name="kind" value=kind options=kinds errors/>
                <TextField label="Address" name="url" value=url errors required=true
                    placeholder="https://charts.example.com"/>
                <CredentialFields values=credentials
                    fields=Signal::derive(move || chosen().config_fields())
                    required=Signal::derive(move || chosen().required_config()) errors/>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="skip_tls_verification" bind:checked=skip_tls/>
                " Do not check its certificate (a self-signed one, say)"
            </label>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Add repository"
            </button>
        </form>
    }
}
