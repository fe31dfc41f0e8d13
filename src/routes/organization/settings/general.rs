//! `/organization/:org/settings/general`: the organization's name and description, saved with
//! its plan as it is (plans are changed through billing, which this console leaves to the
//! platform).

use leptos::prelude::*;
use platform_api::{Organization, OrganizationEditRequest};

use crate::api::use_api;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{optional_text, TextField};
use crate::components::loaded::loaded;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::no_organization;
use crate::routes::organization::settings::SettingsHeader;
use crate::state::names_changed::use_names_changed;
use crate::state::resource::resource;

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
