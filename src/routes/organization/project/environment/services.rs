//! `.../environment/:env/services`: the environment's services of every kind with a live status
//! (the layout's one poll), what is unwell, the form to create a service (`new_service`) and where
//! its services are reached (`links`).

use leptos::prelude::*;

use crate::components::after_first_paint::AfterFirstPaint;
use crate::components::deploy_review::{LoadedReview, Review};
use crate::components::loaded::loaded;
use crate::components::skeleton::Skeleton;
use crate::components::unwell::{Scope, Unwell};

use super::compare::{compared_with, CompareWith};
use super::layout::use_environment_page;
use super::links::EnvironmentLinks;
use super::new_service::NewService;
use super::service_table::ServiceTable;

#[component]
pub fn EnvironmentServices() -> impl IntoView {
    let page = use_environment_page();
    let (ids, services, rows) = (page.ids, page.services, page.rows);
    let services_changed = Callback::new(move |()| page.services_changed());
    let other = compared_with();
    view! {
        {move || ids.get().map(|ids| view! { <CompareWith ids other/> })}
        {move || {
            let other = other.get()?;
            let (_, here) = services.get()?.ok()?;
            Some(view! { <LoadedReview review=Review::Comparison { here, other }/> })
        }}
        {move || ids.get().map(|ids| view! {
            <Unwell org=ids.org scope=Scope::Environment {
                project: ids.project,
                environment: ids.environment,
            }/>
        })}
        <section class="card" aria-labelledby="services-title">
            <h2 id="services-title">"Services of this environment"</h2>
            // The rows wait for the statuses' first answer (whatever it says): built with their
            // statuses, a thousand rows are laid out once rather than again as each badge comes.
            {loaded(services, 4, move |(ids, services)| view! {
                <Show when=move || rows.answered()
                    fallback=|| view! { <Skeleton lines=4/> }>
                    <ServiceTable ids services=services.clone() rows on_deleted=services_changed/>
                </Show>
            })}
        </section>
        // Below the table, built once its rows are drawn (the table is what a person came for).
        <AfterFirstPaint ready=Signal::derive(move || {
            rows.answered() && services.with(Option::is_some)
        })>
            {move || ids.get().map(|ids| view! {
                <NewService org=ids.org environment=ids.environment on_created=Callback::new(move |_| {
                    services_changed.run(());
                })/>
            })}
            {move || ids.get().map(|ids| view! { <EnvironmentLinks ids services/> })}
        </AfterFirstPaint>
    }
}
