//! `.../service/:service/overview`: a service of any kind with its settings; Deploy (and, for
//! terraform, Plan only), Restart, Stop, Uninstall and Cancel as they apply; its status with the
//! steps of the last action, polled until the action reaches a terminal state; that action's log.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{ServiceState, ServiceType, Status, StatusAction};

use crate::api::service::ServiceAction;
use crate::api::{use_api, ApiError, DEPLOY_FORBIDDEN};
use crate::components::confirm_button::ConfirmButton;
use crate::components::deployment_log::DeploymentLog;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::components::steps_timeline::StepsTimeline;
use crate::state::polling::poll;
use crate::state::toasts::use_toasts;

use super::commit_picker::CommitPicker;
use super::connection::DatabaseConnection;
use super::facts::Facts;
use super::{no_service, use_addressed_service, AddressedService, ServiceTabs, ServiceTitle};

/// How often a deployment in progress is polled.
const POLL_DEPLOYING: Duration = Duration::from_secs(1);
/// How many lines of the last action's log are shown.
const LOG_LINES: u32 = 50;

#[component]
pub fn ServiceOverview() -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let addressed = use_addressed_service();
    let AddressedService {
        id: service,
        kind,
        record,
    } = addressed;
    let status = LocalResource::new(move || {
        let id = service.get();
        async move {
            api.service_status(kind.await?, id.ok_or_else(no_service)?)
                .await
        }
    });
    // Follows the status: refetched with it, so the log grows while the deployment runs.
    let log = LocalResource::new(move || {
        let id = service.get();
        let execution = status
            .get()
            .and_then(Result::ok)
            .and_then(|status| status.execution_id);
        async move {
            let (kind, id) = (kind.await?, id.ok_or_else(no_service)?);
            match execution {
                Some(execution) => api.service_log(kind, id, Some(&execution), LOG_LINES).await,
                None => Ok(Vec::new()),
            }
        }
    });
    // Poll while the deployment runs; stop at a terminal state.
    poll(
        move || match status.get() {
            Some(Ok(status)) if status.state.is_in_progress() => Some(POLL_DEPLOYING),
            _ => None,
        },
        move || status.refetch(),
    );

    let forbidden = RwSignal::new(false);
    let act = Action::new_local(move |action: &ServiceAction| {
        let (action, id) = (action.clone(), service.get_untracked());
        async move {
            let (Some(id), Some(Ok(kind))) = (id, kind.get_untracked()) else {
                return;
            };
            match api.act_on_service(kind, id, &action).await {
                Ok(_) => toasts.success(action.accepted()),
                Err(error) => {
                    forbidden.set(matches!(error, ApiError::Forbidden(_)));
                    toasts.error(error.to_string());
                }
            }
            status.refetch();
        }
    });
    let current = move || status.get().and_then(Result::ok);
    let in_progress = move || current().is_some_and(|status| status.state.is_in_progress());
    // The settings show the deployed commit, which a deployment changes when it ends.
    Effect::new(move |was_in_progress: Option<bool>| {
        let now = in_progress();
        if was_in_progress == Some(true) && !now {
            record.refetch();
        }
        now
    });
    let deploying = move || {
        current().is_some_and(|status| {
            status.state.is_in_progress() && status.status_details.action == StatusAction::Deploy
        })
    };
    let runs = move || current().is_some_and(|status| status.runs());
    let installed = move || current().is_some_and(|status| status.installed());
    let cancelable = move || {
        current().is_some_and(|status| {
            status.state.is_in_progress() && status.state != ServiceState::Canceling
        })
    };
    let busy = move || act.pending().get() || forbidden.get();
    let disabled = move || busy() || in_progress();
    let refusal = move || forbidden.get().then_some(DEPLOY_FORBIDDEN);
    let is_terraform = move || matches!(kind.get(), Some(Ok(ServiceType::Terraform)));

    view! {
        <div class="page__header page__header--actions">
            <ServiceTitle service=addressed/>
            <div class="actions">
                <Show when=cancelable>
                    <button type="button" class="button button--secondary" disabled=busy
                        title=refusal on:click=move |_| { act.dispatch_local(ServiceAction::Cancel); }>
                        "Cancel"
                    </button>
                </Show>
                <Show when=move || runs() && !in_progress()>
                    <button type="button" class="button button--ghost" disabled=busy title=refusal
                        on:click=move |_| { act.dispatch_local(ServiceAction::Restart); }>
                        "Restart"
                    </button>
                    <button type="button" class="button button--ghost" disabled=busy title=refusal
                        on:click=move |_| { act.dispatch_local(ServiceAction::Stop); }>
                        "Stop"
                    </button>
                </Show>
                <Show when=move || installed() && !in_progress()>
                    <ConfirmButton label="Uninstall" question="Uninstall this service?"
                        consequence="Its compute and data are deleted; its configuration is kept."
                        disabled=Signal::derive(busy) title=Signal::derive(refusal)
                        on_confirm=move |()| { act.dispatch_local(ServiceAction::Uninstall); }/>
                </Show>
                <Show when=is_terraform>
                    <button type="button" class="button button--secondary"
                        disabled=disabled title=refusal
                        on:click=move |_| {
                            act.dispatch_local(ServiceAction::Deploy {
                                plan_only: true,
                                git_commit_id: None,
                            });
                        }>
                        "Plan only"
                    </button>
                </Show>
                {move || {
                    let repository = record.get()?.ok()?.git_repository()?.clone();
                    let (Some(id), Some(Ok(kind))) = (service.get(), kind.get()) else {
                        return None;
                    };
                    Some(view! {
                        <CommitPicker kind id deployed=repository.deployed_commit_id
                            disabled=Signal::derive(disabled) title=Signal::derive(refusal)
                            on_pick=move |commit| {
                                act.dispatch_local(ServiceAction::Deploy {
                                    plan_only: false,
                                    git_commit_id: Some(commit),
                                });
                            }/>
                    })
                }}
                <button type="button" class="button button--primary"
                    disabled=disabled title=refusal
                    on:click=move |_| {
                        act.dispatch_local(ServiceAction::Deploy { plan_only: false, git_commit_id: None });
                    }>
                    {move || if deploying() { "Deploying…" } else { "Deploy" }}
                </button>
            </div>
        </div>
        <ServiceTabs service=addressed/>
        <div class="columns">
            <section class="card" aria-labelledby="status-title">
                <h2 id="status-title">"Status"</h2>
                {loaded(status, 5, |status| view! { <StatusPanel status/> })}
            </section>
            <section class="card" aria-labelledby="settings-title">
                <h2 id="settings-title">"Settings"</h2>
                {loaded(record, 6, |record| view! { <Facts record/> })}
            </section>
        </div>
        {move || match (kind.get(), service.get()) {
            (Some(Ok(ServiceType::Database)), Some(database)) => Some(view! { <DatabaseConnection database/> }),
            _ => None,
        }}
        <section class="card" aria-labelledby="log-title">
            <h2 id="log-title">"Log of the last action"</h2>
            {loaded(log, 4, |lines| view! { <DeploymentLog lines/> })}
        </section>
    }
}

#[component]
fn StatusPanel(status: Status) -> impl IntoView {
    let state = status.state;
    view! {
        <dl class="facts">
            <dt>"State"</dt>
            <dd><StatusBadge state/></dd>
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
