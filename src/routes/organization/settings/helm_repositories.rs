//! `/organization/:org/settings/helm-repositories`: where helm services take their charts from.
//! Each repository with its kind, address, whether its certificate is checked and how many
//! services use it (never its secrets); a form whose credential fields follow the kind chosen;
//! delete after a confirmation (refused while services use it).

use leptos::prelude::*;
use platform_api::{HelmRepository, HelmRepositoryKind, HelmRepositoryRequest, WireEnum};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::credential_fields::{CredentialFields, CredentialValues};
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{EnumSelect, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::sources::{Source, SourceTable, SourceWords};
use crate::routes::organization::settings::SettingsHeader;

#[component]
pub fn HelmRepositories() -> impl IntoView {
    let api = use_api();
    let org = current_id(|a: &OrganizationAddress| a.org);
    let repositories =
        organization_records(|api, org| async move { api.helm_repositories(org).await });
    let changed = Callback::new(move |()| repositories.refetch());
    view! {
        <SettingsHeader title="Helm repositories"
            lead="Where helm services take their charts from."/>
        <section class="card" aria-labelledby="repositories-title">
            <h2 id="repositories-title">"All repositories"</h2>
            {loaded(repositories, 3, move |(org, list)| view! {
                <SourceTable sources=list.into_iter().map(source).collect()
                    words=SourceWords {
                        empty_title: "No helm repository yet",
                        empty_hint: "Add one with the button below; helm services then take their charts from it.",
                        question: "Delete this helm repository?",
                        consequence: "Its credentials go with it. A repository that services use is kept until they change.",
                        done: "Helm repository deleted.",
                    }
                    delete=move |id| async move { api.delete_helm_repository(org, id).await }
                    on_deleted=changed/>
            })}
        </section>
        {move || org.get().map(|org| view! { <NewDialog label="New helm repository"><CreateRepository org on_created=changed/></NewDialog> })}
    }
}

#[component]
fn CreateRepository(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new(HelmRepositoryKind::Https);
    let url = RwSignal::new(String::new());
    let skip_tls = RwSignal::new(false);
    let credentials = CredentialValues::new(
        HelmRepositoryKind::ALL
            .iter()
            .flat_map(|kind| kind.config_fields().iter().copied()),
    );
    let chosen = move || kind.get();
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
            let kind = kind.get_untracked();
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
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a helm repository">
            <h2>"New helm repository"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="charts"/>
                <EnumSelect label="Kind" name="kind" value=kind errors/>
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
            <SubmitButton form label="Add repository"/>
        </form>
    }
}

/// A repository as the table shows it: a warning when its certificate is not checked.
fn source(repository: HelmRepository) -> Source {
    Source {
        id: repository.id,
        name: repository.name,
        kind: repository.kind.label(),
        url: repository.url,
        note: repository
            .skip_tls_verification
            .then(|| "Certificate not checked".to_string()),
        warning: repository.skip_tls_verification,
        used_by: repository.associated_services_count,
    }
}
