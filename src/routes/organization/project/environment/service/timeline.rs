//! `…/service/:service/timeline`: what happened to the service, newest first
//! (`components::timeline`).

use leptos::prelude::*;

use super::use_addressed_service;
use crate::api::timeline::TimelineScope;
use crate::components::timeline::TimelineView;
use crate::routes::address::ServiceAddress;
use crate::routes::current_id;
use crate::routes::organization::project::environment::timeline::service_link_here;
use crate::state::resource::resource;

#[component]
pub fn ServiceTimeline() -> impl IntoView {
    let addressed = use_addressed_service();
    let org = current_id(|a: &ServiceAddress| a.org);
    let env = current_id(|a: &ServiceAddress| a.env);
    let target = resource(move || {
        let id = addressed.address();
        async move { addressed.addressed(id).await }
    });
    let scope = Signal::derive(move || {
        let target = target.get()?.ok()?;
        Some(TimelineScope::Service {
            kind: target.kind,
            id: target.id,
            environment: env.get()?,
        })
    });
    let service_link = service_link_here();
    view! {
        <h2 class="visually-hidden">"Timeline"</h2>
        <TimelineView org scope service_link/>
    }
}
