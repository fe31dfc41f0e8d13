//! The forms that create a service in an environment, one per kind, behind a choice of kind: an
//! application built from git, a container run from a registry's image, a job, a helm chart, a
//! terraform service or a database. They open in a dialog, and a kind's code is fetched when it
//! is first shown there (`service_form::of_kind`): the forms are most of the environment page's
//! code, and the page's services and statuses need none of it.

use leptos::prelude::*;
use platform_api::ServiceType;
use uuid::Uuid;

use crate::components::new_dialog::{EnclosingDialog, NewDialog};

use super::service_form::of_kind::{OpenedFor, ServiceKindForm};

#[component]
pub fn NewService(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    view! {
        <NewDialog label="New service"><ServiceForms org environment on_created/></NewDialog>
    }
}

/// The choice of kind and the kind's form, once the dialog has been opened.
#[component]
fn ServiceForms(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let dialog: EnclosingDialog = expect_context();
    let kind = RwSignal::new(ServiceType::Application);
    // A creation draws the form again, empty, for the next service.
    let created = RwSignal::new(0_u32);
    let on_created = Callback::new(move |()| {
        created.update(|count| *count += 1);
        on_created.run(());
    });
    let choice = move |value: ServiceType, label: &'static str| {
        view! {
            <label class="checkbox">
                <input type="radio" name="service-kind" value=value.path_segment()
                    checked=move || kind.get() == value on:change=move |_| kind.set(value)/>
                {label}
            </label>
        }
    };
    view! {
        <section class="new-service" aria-labelledby="new-service-title">
            <h2 id="new-service-title">"New service"</h2>
            <fieldset class="choices">
                <legend>"Kind"</legend>
                {choice(ServiceType::Application, "Application (built from git)")}
                {choice(ServiceType::Container, "Container (from an image)")}
                {choice(ServiceType::Job, "Job (runs to its end)")}
                {choice(ServiceType::Helm, "Helm chart")}
                {choice(ServiceType::Terraform, "Terraform")}
                {choice(ServiceType::Database, "Database")}
            </fieldset>
            {move || dialog.was_opened().then(|| {
                created.track();
                let opened_for = OpenedFor::New { environment, on_created };
                view! { <ServiceKindForm org kind=kind.get() opened_for/> }
            })}
        </section>
    }
}
