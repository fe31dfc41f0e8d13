//! `/organization/:org/settings/on-premise-credentials`: the key pairs the platform uses to reach
//! on-premise infrastructure, each with its access key id (never its secret key); a form to add
//! one; delete after a confirmation.

use leptos::prelude::*;
use platform_api::{ClusterCredentials, OnPremiseCredentialsRequest, WireEnum};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::TextField;
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;

#[component]
pub fn OnPremiseCredentialsPage() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let credentials =
        organization_records(|api, org| async move { api.on_premise_credentials(org).await });
    let changed = Callback::new(move |()| credentials.refetch());
    view! {
        <SettingsHeader title="On-premise credentials"
            lead="Key pairs the platform uses to reach infrastructure you run yourself."/>
        <section class="card" aria-labelledby="credentials-title">
            <h2 id="credentials-title">"All credentials"</h2>
            {loaded(credentials, 3, move |(org, list)| view! {
                <CredentialsTable org credentials=list on_deleted=changed/>
            })}
        </section>
        {move || org.get().map(|org| view! { <NewDialog label="New credentials"><CreateCredentials org on_created=changed/></NewDialog> })}
    }
}

#[component]
fn CredentialsTable(
    org: Uuid,
    credentials: Vec<ClusterCredentials>,
    on_deleted: Callback<()>,
) -> impl IntoView {
    if credentials.is_empty() {
        return view! {
            <EmptyState title="No credentials yet" hint="Add a key pair with the button below."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Type"</th>
                <th scope="col">"Known by"</th>
                <th scope="col">"Added"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {credentials.into_iter().map(|one| view! { <CredentialsRow org credentials=one on_deleted/> }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn CredentialsRow(
    org: Uuid,
    credentials: ClusterCredentials,
    on_deleted: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let id = credentials.id;
    view! {
        <tr data-credentials=credentials.name.clone()>
            <td><strong>{credentials.name.clone()}</strong></td>
            <td><span class="tag">{credentials.object_type.label()}</span></td>
            <td>{credentials.identifier().map(|(what, value)| view! {
                <span class="muted">{what}" "</span><span class="mono">{value.to_string()}</span>
            })}</td>
            <td>{credentials.created_at.map(|at| view! { <RelativeTime at/> })}</td>
            <td class="row-actions">
                <DeleteButton question="Delete these credentials?" item=credentials.name.clone()
                    consequence="The platform can no longer reach what they open."
                    done="Credentials deleted."
                    delete=move || async move { api.delete_on_premise_credentials(org, id).await } on_deleted/>
            </td>
        </tr>
    }
}

#[component]
fn CreateCredentials(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let access_key_id = RwSignal::new(String::new());
    let secret_access_key = RwSignal::new(String::new());
    let form = Form::new(
        move |request: OnPremiseCredentialsRequest| async move {
            api.create_on_premise_credentials(org, &request).await
        },
        move |created: ClusterCredentials| {
            for field in [name, access_key_id, secret_access_key] {
                field.set(String::new());
            }
            on_created.run(());
            format!("Credentials {} added.", created.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let text = |field: RwSignal<String>| {
            let text = field.get_untracked().trim().to_string();
            (!text.is_empty()).then_some(text)
        };
        let request = OnPremiseCredentialsRequest {
            name: name.get_untracked().trim().to_string(),
            access_key_id: text(access_key_id),
            secret_access_key: text(secret_access_key),
            object_type: None,
        };
        let checked = request.validate(true);
        form.submit(request, checked);
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add on-premise credentials">
            <h2>"New credentials"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="datacenter-1"/>
                <TextField label="Access key id" name="access_key_id" value=access_key_id errors
                    hint="Optional; given with its secret key."/>
                <TextField label="Secret access key" name="secret_access_key" value=secret_access_key errors
                    input_type="password" hint="Kept secret: it is never shown again."/>
            </div>
            <SubmitButton form label="Add credentials"/>
        </form>
    }
}
