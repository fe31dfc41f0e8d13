//! `.../environment/:env/settings`: how the environment deploys (its stages and schedule), its
//! preview environments, and its general settings: clone, export as Terraform, rename, delete.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{Environment, EnvironmentRequest};

use crate::api::use_api;
use crate::components::loaded::loaded;
use crate::components::rename_and_delete::RenameAndDelete;
use crate::paths;
use crate::state::names_changed::use_names_changed;

use super::clone::CloneEnvironment;
use super::export::ExportEnvironment;
use super::layout::use_environment_page;
use super::previews::EnvironmentPreviews;
use super::schedule::{rule_of, EnvironmentSchedule};
use super::stages::EnvironmentStages;

#[component]
pub fn EnvironmentSettings() -> impl IntoView {
    let api = use_api();
    let page = use_environment_page();
    let (ids, record, services, previews) = (page.ids, page.record, page.services, page.previews);
    let navigate = use_navigate();
    let deleted = Callback::new(move |()| {
        if let Some(ids) = ids.get_untracked() {
            navigate(
                &paths::project(ids.org, ids.project),
                NavigateOptions::default(),
            );
        }
    });
    let names = use_names_changed();
    let renamed = Callback::new(move |saved: Environment| {
        if let Some(names) = names {
            names.renamed(saved.id, saved.name.clone());
        }
        record.set(Some(Ok(saved)));
    });
    view! {
        {move || ids.get().map(|ids| view! { <EnvironmentStages ids services/> })}
        {move || ids.get().map(|ids| {
            let rule = rule_of(ids.environment);
            view! {
                <EnvironmentSchedule environment=ids.environment rule/>
                <EnvironmentPreviews ids rule previews/>
            }
        })}
        {loaded(record, 2, move |current: Environment| {
            let (id, mode, cluster) = (current.id, current.mode, current.cluster_id);
            let org = current.organization.id;
            view! {
                <section class="card" aria-labelledby="general-title">
                    <h2 id="general-title">"General"</h2>
                    <CloneEnvironment org source=current.clone()/>
                    <ExportEnvironment id name=current.name.clone()/>
                    <RenameAndDelete what="environment" name=current.name.clone()
                        consequence="Its services stop and are deleted with it, their variables and history too."
                        rename=move |name: String| {
                            let request = EnvironmentRequest { name, mode, cluster_id: Some(cluster) };
                            async move { api.update_environment(id, &request).await }
                        }
                        delete=move || async move { api.delete_environment(id).await }
                        on_renamed=renamed on_deleted=deleted/>
                </section>
            }
        })}
    }
}
