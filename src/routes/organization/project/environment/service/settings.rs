//! `.../service/:service/settings`: change a service's settings, in the form of its kind (the
//! one that creates it, for jobs, helm charts and terraform services), what the form does not
//! show kept as it is; the notice that a deployment applies them; copying the service; and
//! deleting it.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::clone::CloneService;
use super::restrictions::ServiceRestrictions;
use super::{use_addressed_service, AddressedService};
use crate::api::service::ServiceAnswer;
use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::loaded::loaded;
use crate::paths;
use crate::routes::address::{EnvironmentAddress, OrganizationAddress, ProjectAddress};
use crate::routes::current_id;
use crate::routes::organization::project::environment::service_form::of_kind::{
    OpenedFor, ServiceKindForm,
};
use crate::routes::organization::project::environment::service_form::provide_form_choices;

#[component]
pub fn ServiceSettings() -> impl IntoView {
    let addressed = use_addressed_service();
    let org = current_id(|a: &OrganizationAddress| a.org);
    let saved = Callback::new(move |record| addressed.saved(record));
    if let Some(org) = org.get_untracked() {
        provide_form_choices(org);
    }
    view! {
        <section class="card" aria-labelledby="settings-title">
            <h2 id="settings-title">"Settings"</h2>
            <p class="muted">"Saved settings take effect at the service's next deployment."</p>
            {loaded(addressed.record, 6, move |answer: ServiceAnswer| {
                let org = org.get_untracked().unwrap_or_default();
                let kind = answer.kind();
                let opened_for = OpenedFor::Settings {
                    answer: Box::new(answer),
                    on_saved: saved,
                };
                view! { <ServiceKindForm org kind opened_for/> }
            })}
        </section>
        <ServiceRestrictions service=addressed/>
        <CloneService service=addressed/>
        <DeleteService service=addressed/>
    }
}

/// Deleting the service, configuration, variables and history with it; then back to its
/// environment.
#[component]
fn DeleteService(service: AddressedService) -> impl IntoView {
    let api = use_api();
    let navigate = use_navigate();
    let (org, project, environment) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ProjectAddress| a.project),
        current_id(|a: &EnvironmentAddress| a.env),
    );
    let gone = Callback::new(move |()| {
        if let (Some(org), Some(project), Some(environment)) = (
            org.get_untracked(),
            project.get_untracked(),
            environment.get_untracked(),
        ) {
            navigate(
                &paths::environment(org, project, environment),
                NavigateOptions::default(),
            );
        }
    });
    view! {
        <section class="card danger-zone" aria-labelledby="delete-title">
            <h2 id="delete-title">"Delete this service"</h2>
            <p class="muted">"Its configuration, variables and deployment history go with it. Not while an action runs."</p>
            <DeleteButton question="Delete this service?"
                consequence="It stops, and its configuration, variables and history are deleted. This cannot be undone."
                done="Service deleted."
                delete=move || async move {
                    let target = service.addressed(service.id.get_untracked()).await?;
                    api.delete_service(target.kind, target.id).await
                }
                on_deleted=gone/>
        </section>
    }
}
