//! `/organization/:org/settings/...`: the organization's settings, one page each, with tabs
//! between them.

pub mod alert_receivers;
pub mod api_tokens;
pub mod cloud_credentials;
pub mod container_registries;
pub mod general;
pub mod git_tokens;
pub mod helm_repositories;
pub mod labels_annotations;
pub mod members;
pub mod on_premise_credentials;
mod roles;
mod sources;
pub mod webhooks;

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;

/// The top of a settings page: its title, what it is for, and the tabs to the others.
#[component]
pub fn SettingsHeader(title: &'static str, lead: &'static str) -> impl IntoView {
    view! {
        <div class="page__header">
            <h1>{title}</h1>
            <p class="page__lead">{lead}</p>
        </div>
        <SettingsTabs/>
    }
}

/// Links between the settings pages, the current one marked.
#[component]
fn SettingsTabs() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let location = use_location();
    move || {
        let org = org.get()?;
        let here = location.pathname.get();
        let tabs = paths::settings_pages(org);
        Some(view! {
            <nav class="tabs" aria-label="Organization settings">
                {tabs.into_iter().map(|(label, href)| {
                    let current = (href == here).then_some("page");
                    view! { <A href=href attr:class="tabs__tab" attr:aria-current=current>{label}</A> }
                }).collect_view()}
            </nav>
        })
    }
}
