//! `/organization/:org/settings/general`: the organization's name and description, saved with
//! its plan as it is (plans are changed through billing, which this console leaves to the
//! platform); its owner, who may hand it to another member or delete it once its name is typed.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{FieldError, Organization, OrganizationEditRequest};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{optional_text, SelectField, TextField};
use crate::components::loaded::loaded;
use crate::components::typed_delete::TypedDelete;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::no_organization;
use crate::routes::organization::settings::SettingsHeader;
use crate::state::names_changed::use_names_changed;
use crate::state::resource::resource;
use crate::state::toasts::use_toasts;

#[component]
pub fn GeneralSettings() -> impl IntoView {
    let api = use_api();
    let org = current_id(|a: &OrganizationAddress| a.org);
    let organization = resource(move || {
        let org = org.get();
        async move {
            api.organization_by_id(org.ok_or_else(no_organization)?)
                .await
        }
    });
    view! {
        <SettingsHeader title="General" lead="What the organization is called and what it is for."/>
        <section class="card" aria-labelledby="general-title">
            <h2 id="general-title">"Organization"</h2>
            {loaded(organization, 3, move |current| view! { <EditOrganization current/> })}
        </section>
        <section class="card danger-zone" aria-labelledby="owner-title">
            <h2 id="owner-title">"Owner"</h2>
            {loaded(organization, 2, move |current| view! { <Ownership current/> })}
        </section>
    }
}

/// Who owns the organization; the owner hands it over, or deletes it.
#[component]
fn Ownership(current: Organization) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let org = current.id;
    let owner = RwSignal::new(current.owner);
    let members = resource(move || async move { api.member_emails(org).await });
    let chosen = RwSignal::new(String::new());
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let transfer = Action::new_local(move |member: &Uuid| {
        let member = *member;
        async move {
            match api.transfer_ownership(org, member).await {
                Ok(()) => {
                    owner.set(Some(member));
                    toasts.success("The organization has a new owner.");
                }
                Err(error) => toasts.error(error.to_string()),
            }
        }
    });
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        match chosen.get_untracked().parse::<Uuid>() {
            Ok(member) => {
                errors.set(Vec::new());
                transfer.dispatch_local(member);
            }
            Err(_) => errors.set(vec![FieldError::new("new_owner", "choose a member")]),
        }
    };
    let name = current.name.clone();
    view! {
        {loaded(members, 2, move |members| {
            let emails: Vec<(Uuid, String)> = members
                .iter()
                .map(|member| (member.id, member.email.clone()))
                .collect();
            let owner_named = move || {
                let id = owner.get();
                emails
                    .iter()
                    .find(|(member, _)| Some(*member) == id)
                    .map_or_else(|| "Nobody yet".to_string(), |(_, email)| email.clone())
            };
            let options: Vec<(String, String)> =
                std::iter::once((String::new(), "Choose a member".to_string()))
                    .chain(
                        members
                            .iter()
                            .filter(|member| Some(member.id) != owner.get_untracked())
                            .map(|member| (member.id.to_string(), member.email.clone())),
                    )
                    .collect();
            view! {
                <p>"Owned by " <strong>{owner_named}</strong>
                    ". Only the owner may hand the organization over or delete it."</p>
                <form class="form-inline" aria-label="Transfer the ownership" on:submit=submit novalidate>
                    <div class="form-inline__fields">
                        <SelectField label="New owner" name="new_owner" value=chosen errors options/>
                    </div>
                    <button type="submit" class="button" disabled=move || transfer.pending().get()>
                        "Transfer the ownership"
                    </button>
                </form>
            }
        })}
        <TypedDelete what="organization" name
            consequence="Deleting the organization deletes its projects, environments, services, clusters' records, members and tokens, for good."
            delete=move || async move { api.delete_organization(org).await }
            on_deleted=Callback::new(move |()| navigate("/", NavigateOptions::default()))/>
    }
}

#[component]
fn EditOrganization(current: Organization) -> impl IntoView {
    let api = use_api();
    let names = use_names_changed();
    let (id, plan) = (current.id, current.plan.clone());
    let name = RwSignal::new(current.name.clone());
    let description = RwSignal::new(current.description.clone().unwrap_or_default());
    let form = Form::new(
        move |request: OrganizationEditRequest| async move { api.edit_organization(id, &request).await },
        move |saved: Organization| {
            if let Some(names) = names {
                names.renamed(saved.id, saved.name.clone());
            }
            format!("Organization {} saved.", saved.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = OrganizationEditRequest {
            name: name.get_untracked().trim().to_string(),
            plan: plan.clone(),
            description: optional_text(description),
        };
        let checked = request.validate(&plan);
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Edit the organization">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true/>
                <TextField label="Description" name="description" value=description errors
                    placeholder="What the teams of this organization run"/>
            </div>
            <p class="muted">{format!("Plan: {}", current.plan)}</p>
            <SubmitButton form label="Save"/>
        </form>
    }
}
