//! `/organization/:org/settings/container-registries`: where containers and jobs take their
//! images from. Each registry with its kind, address and how many services use it (never its
//! secrets), flagged when its containers failed to deploy; a form whose credential fields follow
//! the kind chosen; delete after a confirmation (refused while services use it).

use futures::future::join_all;
use leptos::prelude::*;
use platform_api::{ContainerRegistry, ContainerRegistryRequest, RegistryKind, WireEnum};
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
pub fn ContainerRegistries() -> impl IntoView {
    let api = use_api();
    let org = current_id(|a: &OrganizationAddress| a.org);
    // Each registry in use with its containers' failures: images that fail to deploy often
    // mean credentials that no longer sign in.
    let registries = organization_records(|api, org| async move {
        let list = api.container_registries(org).await?;
        let failures = join_all(list.iter().map(|registry| async move {
            if registry.associated_services_count == 0 {
                return None;
            }
            api.registry_container_failures(org, registry.id).await.ok()
        }))
        .await;
        Ok(list
            .into_iter()
            .zip(failures)
            .map(source)
            .collect::<Vec<_>>())
    });
    view! {
        <SettingsHeader title="Container registries"
            lead="Where containers and jobs take their images from."/>
        <section class="card" aria-labelledby="registries-title">
            <h2 id="registries-title">"All registries"</h2>
            {loaded(registries, 3, move |(org, list)| view! {
                <SourceTable sources=list
                    words=SourceWords {
                        empty_title: "No registry yet",
                        empty_hint: "Add one with the button below; containers and jobs then take their images from it.",
                        question: "Delete this registry?",
                        consequence: "Its credentials go with it. A registry that services use is kept until they change.",
                        done: "Registry deleted.",
                    }
                    delete=move |id| async move { api.delete_container_registry(org, id).await }
                    on_deleted=Callback::new(move |()| registries.refetch())/>
            })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New container registry"><CreateRegistry org on_created=Callback::new(move |()| registries.refetch())/></NewDialog>
        })}
    }
}

/// The kinds a new registry may be of: every one but DOCR, which the platform keeps for
/// registries it made itself.
const OFFERED: &[RegistryKind] = &[
    RegistryKind::GenericCr,
    RegistryKind::Ecr,
    RegistryKind::PublicEcr,
    RegistryKind::ProviderACr,
    RegistryKind::ProviderBHub,
    RegistryKind::ProviderCCr,
    RegistryKind::ProviderCEnterpriseCr,
    RegistryKind::ProviderDCr,
    RegistryKind::ProviderEArtifactRegistry,
];

#[component]
fn CreateRegistry(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new(RegistryKind::GenericCr);
    let url = RwSignal::new(String::new());
    let credentials = CredentialValues::new(
        RegistryKind::ALL
            .iter()
            .flat_map(|kind| kind.config_fields().iter().copied()),
    );
    let chosen = move || kind.get();
    let form = Form::new(
        move |request: ContainerRegistryRequest| async move {
            api.create_container_registry(org, &request).await
        },
        {
            let credentials = credentials.clone();
            move |created: ContainerRegistry| {
                name.set(String::new());
                url.set(String::new());
                credentials.clear();
                on_created.run(());
                format!("Registry {} added.", created.name)
            }
        },
    );
    let errors = form.errors;
    let submit = {
        let credentials = credentials.clone();
        move |event: leptos::ev::SubmitEvent| {
            event.prevent_default();
            let kind = kind.get_untracked();
            let url = url.get_untracked();
            let request = ContainerRegistryRequest {
                name: name.get_untracked().trim().to_string(),
                kind,
                description: None,
                url: (!url.trim().is_empty()).then(|| url.trim().to_string()),
                config: credentials.request(kind.config_fields()),
            };
            let checked = request.validate(&[]);
            form.submit(request, checked);
        }
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a container registry">
            <h2>"New registry"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="builds"/>
                <EnumSelect label="Kind" name="kind" value=kind only=OFFERED errors/>
                {move || match chosen().fixed_url() {
                    Some(fixed) => view! {
                        <div class="field">
                            <span class="field__label">"Address"</span>
                            <span class="mono">{fixed}</span>
                            <p class="field__hint">"Fixed for this kind."</p>
                        </div>
                    }.into_any(),
                    None => view! {
                        <TextField label="Address" name="url" value=url errors required=true
                            placeholder="https://registry.example.com"/>
                    }.into_any(),
                }}
                <CredentialFields values=credentials
                    fields=Signal::derive(move || chosen().config_fields())
                    required=Signal::derive(move || chosen().required_config()) errors/>
            </div>
            <SubmitButton form label="Add registry"/>
        </form>
    }
}

/// A registry as the table shows it: the user it signs in as under its address, or how many of
/// its containers failed their last action.
fn source((registry, failures): (ContainerRegistry, Option<(usize, usize)>)) -> Source {
    let failing = failures.filter(|(failed, _)| *failed > 0);
    let note = match failing {
        Some((failed, of)) if failed == of => Some(match of {
            1 => "Its container failed to deploy".to_string(),
            _ => format!("Its {of} containers failed to deploy"),
        }),
        Some((failed, of)) => Some(format!("{failed} of its {of} containers failed to deploy")),
        None => registry.config.username.map(|user| format!("as {user}")),
    };
    Source {
        id: registry.id,
        name: registry.name,
        kind: registry.kind.label(),
        url: registry.url,
        note,
        warning: failing.is_some(),
        used_by: registry.associated_services_count,
    }
}
