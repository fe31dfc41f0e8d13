//! `/organization/:org/timeline`: what happened in the organization, newest first
//! (`components::timeline`). The environment's and the service's timelines are the same page of
//! the router (`AnyTimeline`), each in its own file.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use super::project::environment::service::timeline::ServiceTimeline;
use super::project::environment::timeline::EnvironmentTimeline;
use crate::api::timeline::TimelineScope;
use crate::components::timeline::TimelineView;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;

/// The timeline the address names: a service's, an environment's or the organization's.
#[component]
pub fn AnyTimeline() -> impl IntoView {
    let params = use_params_map().get_untracked();
    if params.get("service").is_some() {
        view! { <ServiceTimeline/> }.into_any()
    } else if params.get("env").is_some() {
        view! { <EnvironmentTimeline/> }.into_any()
    } else {
        view! { <OrganizationTimeline/> }.into_any()
    }
}

#[component]
fn OrganizationTimeline() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    view! {
        <h1>"Timeline"</h1>
        <p class="muted">"What happened in the organization: deployments, changes and actions, and who made them."</p>
        <TimelineView org scope=Signal::derive(|| Some(TimelineScope::Organization))
            service_link=Callback::new(|_| None)/>
    }
}
