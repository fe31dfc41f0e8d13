//! An environment's recent deployments on its page: the actions one request on it ran together
//! (deploy all, a selection) or one service's own, each with its services and what each
//! deployed; a successful one can be rolled back to, every service of it at once. Read again at
//! the page's poll while one runs.

use platform_api::WireEnum;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use platform_api::{
    iso_duration_seconds, EnvironmentDeployment, EnvironmentStatuses, RolePermission, ServiceType,
};
use uuid::Uuid;

use crate::api::service::ServiceAnswer;
use crate::api::{use_api, Api, ApiError};
use crate::components::built_when_open::{BuiltWhenOpen, KeptOpen};
use crate::components::confirm_button::ConfirmButton;
use crate::components::empty_state::EmptyState;
use crate::components::form_field::CheckboxField;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

use super::layout::use_environment_page;

/// Turns auto-deploy off on a service where it is on, before a rollback (an environment's or a
/// service's). It reads and writes the service's whole record, every kind's decoder and request:
/// no part of the deployments' pages, it is fetched when a rollback first asks, through this
/// context (`app.rs`, where the split point is: the unit tests link every page without the
/// split step).
#[derive(Clone, Copy)]
pub struct StopAutoDeploy(pub StopWhereOn);

/// The answer is the service as saved, if it was; the error says what was not done.
pub type StopWhereOn =
    fn(Api, ServiceType, Uuid) -> LocalBoxFuture<'static, Result<Option<ServiceAnswer>, String>>;

/// Deployments shown: the latest, as a person looks back.
const SHOWN: u32 = 10;
/// The services a deployment names before "N more": one of a whole environment can hold a
/// thousand, each a line, ten deployments to the page.
const SERVICES_NAMED: usize = 5;

/// `.../environment/:env/deployments`: the tab of the environment's deployments.
#[component]
pub fn EnvironmentDeploymentsTab() -> impl IntoView {
    let page = use_environment_page();
    let statuses = page.statuses;
    move || {
        let environment = page.ids.get()?.environment;
        Some(view! {
            <EnvironmentDeployments environment statuses
                on_rolled_back=Callback::new(move |()| statuses.refetch())/>
        })
    }
}

#[component]
fn EnvironmentDeployments(
    environment: Uuid,
    /// The environment's statuses, which the page polls: the list is read again at their
    /// rhythm while a deployment of it runs, and when an action begins or ends.
    statuses: LocalResource<Result<EnvironmentStatuses, ApiError>>,
    /// After a rollback: the statuses move.
    on_rolled_back: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let history =
        resource(move || async move { api.environment_history(environment, 1, SHOWN).await });
    Effect::new(move |before: Option<bool>| {
        let busy = statuses.with(|answer| matches!(answer, Some(Ok(s)) if s.any_in_progress()));
        let running = history.with_untracked(|answer| {
            matches!(answer, Some(Ok(page)) if page.results.iter().any(|d| d.status.is_in_progress()))
        });
        if before.is_some_and(|before| before != busy || running) {
            history.refetch();
        }
        busy
    });
    // The deployments whose "N more" is open, by execution: the list is built again at each
    // poll while one runs, and stays open.
    let opened = KeptOpen::default();
    let rolled_back = Callback::new(move |()| {
        history.refetch();
        on_rolled_back.run(());
    });
    view! {
        <section class="card" aria-labelledby="environment-deployments-title">
            <h2 id="environment-deployments-title">"Recent deployments"</h2>
            {loaded(history, 4, move |page| {
                if page.results.is_empty() {
                    return view! {
                        <EmptyState title="No deployment yet"
                            hint="Deploy all, or a selection of services: each request shows here with its services."/>
                    }.into_any();
                }
                // What runs now is the newest deployment that succeeded.
                let running = page
                    .results
                    .iter()
                    .find(|deployment| deployment.can_roll_back_to())
                    .map(|deployment| deployment.identifier.execution_id.clone());
                view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Status"</th>
                            <th scope="col">"Action"</th>
                            <th scope="col">"Services"</th>
                            <th scope="col">"By"</th>
                            <th scope="col">"Started"</th>
                            <th scope="col">"Duration"</th>
                            <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                        </tr></thead>
                        <tbody>
                            {page.results.into_iter().map(|deployment| {
                                let current = running.as_deref() == Some(deployment.identifier.execution_id.as_str());
                                view! { <Row environment deployment current opened rolled_back/> }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            })}
        </section>
    }
}

#[component]
fn Row(
    environment: Uuid,
    deployment: EnvironmentDeployment,
    current: bool,
    opened: KeptOpen,
    rolled_back: Callback<()>,
) -> impl IntoView {
    let mut services: Vec<DeployedService> = deployment
        .services()
        .map(|service| (service.identifier.name.clone(), service.details.what()))
        .collect();
    // Naming one more is shorter than "1 more".
    let more = (services.len() > SERVICES_NAMED + 1).then(|| services.split_off(SERVICES_NAMED));
    let rollback_of = deployment
        .services()
        .any(|service| service.details.rollback_to.is_some());
    let duration = iso_duration_seconds(&deployment.total_duration).map(format::duration);
    let roll_back = (deployment.can_roll_back_to() && !current)
        .then(|| view! { <RollBack environment deployment=deployment.clone() rolled_back/> });
    view! {
        <tr data-execution=deployment.identifier.execution_id.clone()>
            <td><StatusBadge state=deployment.status/></td>
            <td>
                {deployment.trigger_action.label()}
                {rollback_of.then(|| view! { <span class="muted">" · rollback"</span> })}
                {current.then(|| view! { " " <span class="tag">"Running now"</span> })}
            </td>
            <td>
                <ul class="plain-list">{services.into_iter().map(service_item).collect_view()}</ul>
                // The rest listed once opened, not before: a thousand lines for a page to build
                // and lay out that few read.
                {more.map(|more| {
                    let summary = format!("{} more", more.len());
                    let more = StoredValue::new(more);
                    view! {
                        <BuiltWhenOpen summary
                            key=deployment.identifier.execution_id.clone() opened>
                            <ul class="plain-list">
                                {more.with_value(|more| more.iter().cloned().map(service_item).collect_view())}
                            </ul>
                        </BuiltWhenOpen>
                    }
                })}
            </td>
            <td>{deployment.auditing_data.triggered_by.clone()}</td>
            <td><RelativeTime at=deployment.auditing_data.created_at/></td>
            <td>{duration}</td>
            <td><div class="table__actions">{roll_back}</div></td>
        </tr>
    }
}

/// A service of a deployment: its name, and what it deployed.
type DeployedService = (String, Option<String>);

fn service_item((name, what): DeployedService) -> impl IntoView {
    view! {
        <li>{name}{what.map(|what| view! { " " <span class="mono muted">{what}</span> })}</li>
    }
}

/// "Roll back" to an environment's deployment: every service of it deployed again as that
/// deployment left it, in one request that starts none unless all can.
#[component]
fn RollBack(
    environment: Uuid,
    deployment: EnvironmentDeployment,
    rolled_back: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Deploy, "roll services back");
    let count = deployment.services().count();
    let stop_auto_deploy = RwSignal::new(true);
    let StopAutoDeploy(stop_where_on) = expect_context();
    let run = Action::new_local(move |deployment: &EnvironmentDeployment| {
        let deployment = deployment.clone();
        let stop = stop_auto_deploy.get_untracked();
        async move {
            if stop {
                // Read when asked for, not for every row of the history.
                for service in deployment.services() {
                    let identifier = &service.identifier;
                    let stopped =
                        stop_where_on(api, identifier.service_type, identifier.service_id).await;
                    if let Err(error) = stopped {
                        toasts.error(format!(
                            "Auto-deploy of {} is still on; nothing was rolled back: {error}",
                            identifier.name
                        ));
                        return;
                    }
                }
            }
            match api.roll_back_environment(environment, &deployment).await {
                Ok(()) => toasts.success(format!(
                    "Rollback of {count} service{} queued.",
                    if count == 1 { "" } else { "s" }
                )),
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
            rolled_back.run(());
        }
    });
    let busy = Signal::derive(move || run.pending().get() || permitted.refusal().is_some());
    let execution = deployment.identifier.execution_id.clone();
    view! {
        <ConfirmButton label="Roll back" question="Roll back to this deployment?"
            consequence=if count == 1 {
                "Its service is deployed again exactly as it left it.".to_string()
            } else {
                format!("Its {count} services are deployed again exactly as it left them; nothing starts unless all can.")
            }
            class="button button--small button--ghost" confirm_class="button button--primary"
            target=format!("to the deployment of {}", format::clock(deployment.auditing_data.created_at))
            disabled=busy title=Signal::derive(move || permitted.refusal())
            on_confirm=move |()| { run.dispatch_local(deployment.clone()); }>
            <CheckboxField label="Turn auto-deploy off where it is on" name=format!("stop-auto-deploy-{execution}")
                checked=stop_auto_deploy
                hint="A service that deploys every push of its branch would undo this rollback at the next push."/>
        </ConfirmButton>
    }
}
