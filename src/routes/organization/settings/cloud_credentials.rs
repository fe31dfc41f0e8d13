//! `/organization/:org/settings/cloud-credentials`: the keys and roles the platform reaches the
//! organization's cloud accounts with, each cloud's at its own route; what identifies each set
//! (never a secret) and the clusters reached with it; a form whose fields are those of the kind
//! chosen (`CredentialsVariant`); delete after a confirmation, refused while a cluster uses it.

use std::collections::HashMap;

use futures::future::join_all;
use leptos::prelude::*;
use platform_api::{
    encoded_service_account_key, CloudCredentialsRequest, CloudProvider, ClusterCredentials,
    CredentialCluster, CredentialsVariant, WireEnum, CREDENTIALS_PROVIDERS, PROVIDER_E_KEY,
};
use uuid::Uuid;

use crate::api::{use_api, Api, ApiError};
use crate::components::credential_fields::CredentialValues;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{ChoiceField, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;

/// One set of credentials as its row shows it.
#[derive(Clone)]
struct Listed {
    provider: CloudProvider,
    credentials: ClusterCredentials,
    clusters: Vec<CredentialCluster>,
}

/// Each cloud's credentials (the routes say which cloud a set is of), with the clusters using
/// each from the organization's list: five reads at once.
async fn read_credentials(api: Api, org: Uuid) -> Result<Vec<Listed>, ApiError> {
    let (lists, used) =
        futures::join!(
            join_all(CREDENTIALS_PROVIDERS.map(|provider| async move {
                (provider, api.cloud_credentials(org, provider).await)
            })),
            api.credentials_with_clusters(org),
        );
    let mut clusters: HashMap<Uuid, Vec<CredentialCluster>> = used?
        .into_iter()
        .filter_map(|entry| Some((entry.credential?.id, entry.clusters)))
        .collect();
    let mut listed = Vec::new();
    for (provider, list) in lists {
        listed.extend(list?.into_iter().map(|credentials| Listed {
            provider,
            clusters: clusters.remove(&credentials.id).unwrap_or_default(),
            credentials,
        }));
    }
    Ok(listed)
}

#[component]
pub fn CloudCredentialsPage() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let credentials = organization_records(read_credentials);
    let changed = Callback::new(move |()| credentials.refetch());
    view! {
        <SettingsHeader title="Cloud credentials"
            lead="Keys and roles the platform reaches your cloud accounts with, to install and run clusters. Secrets are sealed and never shown again."/>
        <section class="card" aria-labelledby="credentials-title">
            <h2 id="credentials-title">"All credentials"</h2>
            {loaded(credentials, 3, move |(org, list)| view! {
                <CredentialsTable org listed=list on_deleted=changed/>
            })}
        </section>
        {move || org.get().map(|org| view! { <NewDialog label="New credentials"><CreateCredentials org on_created=changed/></NewDialog> })}
    }
}

#[component]
fn CredentialsTable(org: Uuid, listed: Vec<Listed>, on_deleted: Callback<()>) -> impl IntoView {
    if listed.is_empty() {
        return view! {
            <EmptyState title="No cloud credentials yet"
                hint="Add an access key, a role or a service account with the button below."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Cloud"</th>
                <th scope="col">"Known by"</th>
                <th scope="col">"Clusters"</th>
                <th scope="col">"Added"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {listed.into_iter().map(|one| view! { <CredentialsRow org listed=one on_deleted/> }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn CredentialsRow(org: Uuid, listed: Listed, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    let Listed {
        provider,
        credentials,
        clusters,
    } = listed;
    let id = credentials.id;
    view! {
        <tr data-credentials=credentials.name.clone()>
            <td><strong>{credentials.name.clone()}</strong></td>
            <td>
                {provider.label()}
                <div class="cell-note muted">{credentials.object_type.label()}</div>
            </td>
            <td>{credentials.identifier().map(|(what, value)| view! {
                <span class="muted">{what}" "</span><span class="mono">{value.to_string()}</span>
            })}</td>
            <td>{if clusters.is_empty() {
                view! { <span class="muted">"None"</span> }.into_any()
            } else {
                clusters.into_iter().map(|cluster| view! {
                    <a href=paths::cluster(org, cluster.id)>{cluster.name}</a>" "
                }).collect_view().into_any()
            }}</td>
            <td>{credentials.created_at.map(|at| view! { <RelativeTime at/> })}</td>
            <td class="row-actions">
                <DeleteButton question="Delete these credentials?" item=credentials.name.clone()
                    consequence="The platform can no longer reach the cloud account they open."
                    done="Credentials deleted."
                    delete=move || async move { api.delete_cloud_credentials(org, provider, id).await }
                    on_deleted/>
            </td>
        </tr>
    }
}

/// The kinds of credentials a person may create for `provider`, by label.
fn variants_of(provider: CloudProvider) -> Vec<(CredentialsVariant, String)> {
    CredentialsVariant::ALL
        .into_iter()
        .filter(|variant| variant.provider() == provider)
        .map(|variant| (variant, variant.label().to_string()))
        .collect()
}

#[component]
fn CreateCredentials(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let provider = RwSignal::new(CloudProvider::Aws);
    let variant = RwSignal::new(CredentialsVariant::AwsStatic);
    let values = CredentialValues::new(
        CredentialsVariant::ALL
            .iter()
            .flat_map(|variant| variant.fields().iter().map(|field| field.name)),
    );
    let form = Form::new(
        move |request: CloudCredentialsRequest| async move {
            api.create_cloud_credentials(org, &request).await
        },
        {
            let values = values.clone();
            move |created: ClusterCredentials| {
                name.set(String::new());
                values.clear();
                on_created.run(());
                format!("Credentials {} added.", created.name)
            }
        },
    );
    let errors = form.errors;
    let submit = {
        let values = values.clone();
        move |event: leptos::ev::SubmitEvent| {
            event.prevent_default();
            let read = |field: &str| {
                let value = values.value(field)?;
                Some(if field == PROVIDER_E_KEY {
                    encoded_service_account_key(&value)
                } else {
                    value
                })
            };
            let request = variant
                .get_untracked()
                .request(name.get_untracked().trim().to_string(), read);
            let checked = request.validate();
            form.submit(request, checked);
        }
    };
    // A cloud chosen offers its own kinds, the first one picked.
    Effect::new(move |_| {
        let first = variants_of(provider.get())
            .first()
            .map(|(variant, _)| *variant);
        if let Some(first) =
            first.filter(|first| first.provider() != variant.get_untracked().provider())
        {
            variant.set(first);
        }
    });
    let clouds: Vec<(CloudProvider, String)> = CREDENTIALS_PROVIDERS
        .into_iter()
        .map(|provider| (provider, provider.label().to_string()))
        .collect();
    let fields = move || {
        let values = values.clone();
        variant
            .get()
            .fields()
            .iter()
            .filter_map(move |field| {
                let value = values.signal(field.name)?;
                let hint = if field.name == PROVIDER_E_KEY {
                    "Paste the JSON key file; it is sent base64-encoded."
                } else if field.secret {
                    "Kept secret: it is never shown again."
                } else {
                    ""
                };
                Some(view! {
                    <TextField label=field.label name=field.name value errors required=field.required
                        input_type=if field.secret { "password" } else { "text" } hint/>
                })
            })
            .collect_view()
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add cloud credentials">
            <h2>"New credentials"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="production-account"/>
                <ChoiceField label="Cloud" name="cloud" value=provider options=clouds errors/>
                {move || view! {
                    <ChoiceField label="Kind" name="type" value=variant options=variants_of(provider.get()) errors/>
                }}
                {fields}
            </div>
            <SubmitButton form label="Add credentials"/>
        </form>
    }
}
