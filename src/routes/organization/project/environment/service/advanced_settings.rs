//! `.../service/:service/advanced-settings`: the service's advanced settings, applied at its
//! next deployment.

use leptos::prelude::*;
use platform_api::RolePermission;

use super::use_addressed_service;
use crate::api::advanced_settings::SettingsOwner;
use crate::components::advanced_settings::AdvancedSettingsEditor;

#[component]
pub fn ServiceAdvancedSettings() -> impl IntoView {
    let service = use_addressed_service();
    // The editor stays while the record is read again; it starts over for another service.
    let target = Memo::new(move |_| service.target());
    view! {
        <section class="card" aria-labelledby="advanced-settings-title">
            <h2 id="advanced-settings-title">"Advanced settings"</h2>
            <p class="muted">
                "The tuning beyond the service's settings, each with its default. A change \
                 applies at the service's next deployment."
            </p>
            {move || target.get().map(|target| view! {
                <AdvancedSettingsEditor
                    owner=SettingsOwner::Service(target.kind, target.id)
                    needed=RolePermission::Write
                    on_saved=move |()| service.changed()/>
            })}
        </section>
    }
}
