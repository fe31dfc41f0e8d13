//! `/organization/new`: a new organization, owned by the person who makes it
//! (`POST /organization`; an API token belongs to its one organization and is refused). It is
//! on the plan of the organization shown before (plans are billing's, which this console
//! leaves to the platform).

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{Organization, OrganizationRequest};

use crate::api::use_api;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{optional_text, TextField};
use crate::paths;
use crate::state::resource::resource;
use crate::state::shown_organization::use_shown_organization;

/// The plan of a person's first organization, when none is shown to take it from.
const FIRST_PLAN: &str = "FREE";

#[component]
pub fn NewOrganization() -> impl IntoView {
    let api = use_api();
    let shown = use_shown_organization().get_untracked();
    let plan = resource(move || async move {
        match shown {
            Some(org) => api.organization_by_id(org).await.ok().map(|o| o.plan),
            None => None,
        }
    });
    let name = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let navigate = use_navigate();
    let form = Form::new(
        move |request: OrganizationRequest| async move { api.create_organization(&request).await },
        move |created: Organization| {
            navigate(&paths::organization(created.id), NavigateOptions::default());
            format!("Organization {} made: you own it.", created.name)
        },
    );
    let errors = form.errors;
    let plan_now = move || {
        plan.get()
            .flatten()
            .unwrap_or_else(|| FIRST_PLAN.to_string())
    };
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let plan = plan_now();
        let request = OrganizationRequest {
            name: name.get_untracked().trim().to_string(),
            plan: plan.clone(),
            description: optional_text(description),
        };
        let checked = request.validate(&plan);
        form.submit(request, checked);
    };
    view! {
        <h1>"New organization"</h1>
        <p class="muted">"You will own it, and be its first admin; invite the others from its members."</p>
        <section class="card">
            <form on:submit=submit novalidate aria-label="New organization">
                <div class="form-grid">
                    <TextField label="Name" name="name" value=name errors required=true/>
                    <TextField label="Description" name="description" value=description errors
                        placeholder="What the teams of this organization run"/>
                </div>
                <p class="muted">{move || format!("Plan: {}", plan_now())}</p>
                <SubmitButton form label="Make the organization"/>
            </form>
        </section>
    }
}
