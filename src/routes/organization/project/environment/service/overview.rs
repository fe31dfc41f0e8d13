//! `.../service/:service/overview`: a service of any kind with its settings (and its kind's
//! cards, `overview_cards`); its status with the steps of the last action, polled by the layout
//! until the action reaches a terminal state; that action's log.

use leptos::prelude::*;
use platform_api::WireEnum;
use platform_api::{DeploymentStatus, Status};

use crate::api::use_api;
use crate::components::deployment_log::DeploymentLog;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::components::steps_timeline::StepsTimeline;
use crate::state::resource::resource;

use super::auto_deploy::ServiceAutoDeploy;
use super::domains::ServiceDomains;
use super::facts::facts_of;
use super::links::ServiceLinks;
use super::overview_cards::OverviewCards;
use super::{no_service, use_addressed_service, AddressedService};

#[component]
pub fn ServiceOverview() -> impl IntoView {
    let api = use_api();
    let addressed = use_addressed_service();
    let AddressedService {
        environment,
        id: service,
        record,
        status,
        ..
    } = addressed;
    // Follows the status: refetched with it, so the log grows while the deployment runs.
    let log = resource(move || {
        let (environment, id) = (environment.get(), service.get());
        let execution = status
            .get()
            .and_then(Result::ok)
            .and_then(|status| status.execution_id);
        async move {
            let (environment, id) = (
                environment.ok_or_else(no_service)?,
                id.ok_or_else(no_service)?,
            );
            match execution {
                Some(execution) => api.service_log(environment, id, Some(&execution)).await,
                None => Ok(Vec::new()),
            }
        }
    });
    // The kind's cards are built once per service, not again at each read of its record (a form
    // half filled in a database's cards is kept, the contributors are not read again).
    let cards = Memo::new(move |_| addressed.kind().zip(service.get()));
    view! {
        <div class="columns">
            <section class="card" aria-labelledby="status-title">
                <h2 id="status-title">"Status"</h2>
                {loaded(status, 5, |status| view! { <StatusPanel status/> })}
            </section>
            <section class="card" aria-labelledby="settings-title">
                <h2 id="settings-title">"Settings"</h2>
                {loaded(record, 6, |answer| facts_of(&answer))}
            </section>
        </div>
        {move || cards.get().map(|(kind, id)| view! { <OverviewCards kind id/> })}
        <ServiceAutoDeploy service=addressed/>
        <ServiceLinks service=addressed/>
        <ServiceDomains service=addressed/>
        <section class="card" aria-labelledby="log-title">
            <h2 id="log-title">"Log of the last action"</h2>
            {loaded(log, 4, |lines| view! { <DeploymentLog lines/> })}
        </section>
    }
}

#[component]
fn StatusPanel(status: Status) -> impl IntoView {
    let state = status.state;
    let never_deployed = status.service_deployment_status == DeploymentStatus::NeverDeployed;
    view! {
        <dl class="facts">
            <dt>"State"</dt>
            <dd><StatusBadge state never_deployed live=true/></dd>
            <dt>"Deployment"</dt>
            <dd>{status.service_deployment_status.label()}</dd>
            <dt>"Last deployed"</dt>
            <dd>{match status.last_deployment_date {
                Some(at) => view! { <RelativeTime at/> }.into_any(),
                None => view! { <span class="muted">"Never"</span> }.into_any(),
            }}</dd>
        </dl>
        <h3>"Steps of the last action"</h3>
        <StepsTimeline status=status/>
    }
}
