//! `…/environment/:env/timeline`: what happened to the environment and its services, newest
//! first (`components::timeline`).

use leptos::prelude::*;
use uuid::Uuid;

use crate::api::timeline::TimelineScope;
use crate::components::timeline::TimelineView;
use crate::paths::{self, ServiceTab};
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;

#[component]
pub fn EnvironmentTimeline() -> impl IntoView {
    let org = current_id(|a: &EnvironmentAddress| a.org);
    let env = current_id(|a: &EnvironmentAddress| a.env);
    let scope = Signal::derive(move || env.get().map(TimelineScope::Environment));
    let service_link = service_link_here();
    view! {
        <h2 class="visually-hidden">"Timeline"</h2>
        <TimelineView org scope service_link/>
    }
}

/// A tab of a service of the address's environment (an environment's or a service's page).
pub fn service_link_here() -> Callback<(Uuid, ServiceTab), Option<String>> {
    let org = current_id(|a: &EnvironmentAddress| a.org);
    let project = current_id(|a: &EnvironmentAddress| a.project);
    let env = current_id(|a: &EnvironmentAddress| a.env);
    Callback::new(move |(service, tab)| {
        Some(paths::service_tab(
            org.get_untracked()?,
            project.get_untracked()?,
            env.get_untracked()?,
            service,
            tab,
        ))
    })
}
