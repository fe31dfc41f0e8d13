//! What a service's overview reads once it is drawn: who committed to an application's
//! repository (`Contributors`), what a terraform service's last deployment made
//! (`TerraformResources`), where the ingress to a reachable service's ports stands
//! (`Ingress`), a database's connection details and backups. Their code is fetched after the
//! overview's first paint, behind the split point `app.rs` provides (`LoadOverviewCards`):
//! every page of a service loads the service's group, and these cards are the overview's alone.

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::{ServiceType, WireEnum};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::after_first_paint::AfterFirstPaint;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::state::polling::page_visible;
use crate::state::resource::resource;

use super::backups::DatabaseBackups;
use super::connection::DatabaseConnection;
use super::use_addressed_service;

/// Fetches the cards' module and builds a kind's cards from it (`cards_of`).
#[derive(Clone, Copy)]
pub struct LoadOverviewCards(
    pub fn(ServiceType, Uuid) -> BoxFuture<'static, Result<AnyView, SplitLoaderError>>,
);

/// The cards of the service's kind, once the overview is drawn; nothing when their code cannot
/// be fetched (they add to the page, they are not the page).
#[component]
pub fn OverviewCards(kind: ServiceType, id: Uuid) -> impl IntoView {
    let load = use_context::<LoadOverviewCards>();
    let wanted = matches!(kind, ServiceType::Terraform | ServiceType::Database) || kind.has_links();
    view! {
        <AfterFirstPaint ready=page_visible()>
            {move || load.filter(|_| wanted).map(|LoadOverviewCards(load)| {
                let cards = Suspend::new(async move { load(kind, id).await.unwrap_or_else(|_| ().into_any()) });
                view! { <Suspense>{cards}</Suspense> }
            })}
        </AfterFirstPaint>
    }
}

/// A read of the service's repository, where a repository the platform cannot read (a 400: out
/// of its reach, a branch gone) is a fact to say about the service, not a failed read to retry.
fn readable<T>(read: Result<T, ApiError>) -> Result<Result<T, String>, ApiError> {
    match read {
        Err(ApiError::Invalid { message, .. }) => Ok(Err(message)),
        other => other.map(Ok),
    }
}

/// The cards of a kind that has them.
pub fn cards_of(kind: ServiceType, id: Uuid) -> AnyView {
    match kind {
        ServiceType::Application => view! {
            <Ingress kind id/>
            <Contributors application=id/>
        }
        .into_any(),
        ServiceType::Terraform => view! { <TerraformResources terraform=id/> }.into_any(),
        ServiceType::Database => view! {
            <DatabaseConnection database=id/>
            <DatabaseBackups database=id/>
        }
        .into_any(),
        kind if kind.has_links() => view! { <Ingress kind id/> }.into_any(),
        _ => ().into_any(),
    }
}

/// Who committed to the application's repository, from its commits.
#[component]
pub fn Contributors(application: Uuid) -> impl IntoView {
    let api = use_api();
    let contributors =
        resource(move || async move { readable(api.contributors(application).await) });
    view! {
        <section class="card" aria-labelledby="contributors-title">
            <h2 id="contributors-title">"Contributors"</h2>
            {loaded(contributors, 2, |people| match people {
                Err(why) => view! { <p class="muted">{why}</p> }.into_any(),
                Ok(people) => view! {
                <ul class="plain-list">
                    {people.into_iter().map(|person| {
                        let name = person.full_name();
                        view! {
                            <li>
                                {name} " "
                                {person.updated_at.map(|at| view! {
                                    <span class="muted">"last commit " <RelativeTime at/></span>
                                })}
                            </li>
                        }
                    }).collect_view()}
                </ul>
            }.into_any(),
            })}
        </section>
    }
}

/// What the terraform service's last deployment made (and read: data sources).
#[component]
pub fn TerraformResources(terraform: Uuid) -> impl IntoView {
    let api = use_api();
    let resources =
        resource(move || async move { readable(api.terraform_resources(terraform).await) });
    view! {
        <section class="card" aria-labelledby="resources-title">
            <h2 id="resources-title">"Resources"</h2>
            {loaded(resources, 2, |resources| match resources {
                Err(why) => view! { <p class="muted">{why}</p> }.into_any(),
                Ok(resources) if resources.is_empty() => {
                view! { <p class="muted">"None yet: the resources show once the service is deployed."</p> }.into_any()
            }
                Ok(resources) => view! {
                    <ul class="plain-list">
                        {resources.into_iter().map(|made| view! {
                            <li>
                                <code>{made.address}</code> " "
                                <span class="muted">{made.mode.label()}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
        </section>
    }
}

/// Where the ingress to the service's public ports stands, read again as the service's state
/// changes; nothing for a service with no public port (it has no ingress).
#[component]
fn Ingress(kind: ServiceType, id: Uuid) -> impl IntoView {
    let api = use_api();
    let service = use_addressed_service();
    // Read again when the service's state changes, not at each poll of its status.
    let state = Memo::new(move |_| service.current().map(|status| status.state));
    let ingress = resource(move || {
        state.track();
        async move { api.ingress_status(kind, id).await.ok()?.status }
    });
    move || {
        ingress.get().flatten().map(|state| view! {
            <section class="card" aria-labelledby="ingress-title">
                <h2 id="ingress-title">"Ingress"</h2>
                <p><StatusBadge state/>" "<span class="muted">"Routes its public ports, deployed with it."</span></p>
            </section>
        })
    }
}
