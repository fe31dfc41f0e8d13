//! `/organization/:org/cluster/:cluster/advanced-settings`: the cluster's advanced settings,
//! changed by admins while the cluster is not locked.

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::RolePermission;

use crate::api::advanced_settings::SettingsOwner;
use crate::api::use_api;
use crate::components::advanced_settings::AdvancedSettingsEditor;
use crate::paths;
use crate::routes::address::{ClusterAddress, OrganizationAddress};
use crate::routes::current_id;
use crate::state::resource::resource;

#[component]
pub fn ClusterAdvancedSettings() -> impl IntoView {
    let api = use_api();
    let (org, cluster) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ClusterAddress| a.cluster),
    );
    let name = resource(move || {
        let (org, cluster) = (org.get(), cluster.get());
        async move {
            match (org, cluster) {
                (Some(org), Some(cluster)) => api.cluster(org, cluster).await.ok().map(|c| c.name),
                _ => None,
            }
        }
    });
    let owner = Memo::new(move |_| {
        Some(SettingsOwner::Cluster {
            organization: org.get()?,
            cluster: cluster.get()?,
        })
    });
    view! {
        <div class="page__header">
            <h1>{move || name.get().flatten()}</h1>
            <p class="page__lead">
                "Cluster · "
                {move || org.get().zip(cluster.get()).map(|(org, cluster)| view! {
                    <A href=paths::cluster(org, cluster)>"Overview"</A>
                })}
            </p>
        </div>
        <section class="card" aria-labelledby="advanced-settings-title">
            <h2 id="advanced-settings-title">"Advanced settings"</h2>
            <p class="muted">
                "The tuning of the cluster's own services (logs, ingress, registry, databases' \
                 access), each with its default. A locked cluster keeps its settings until the \
                 lock is lifted."
            </p>
            {move || owner.get().map(|owner| view! {
                <AdvancedSettingsEditor owner needed=RolePermission::Admin on_saved=|()| {}/>
            })}
        </section>
    }
}
