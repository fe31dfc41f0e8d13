//! What can be done to a service, on every tab of its pages: deploy (the branch's latest or a
//! chosen commit; for terraform, a plan only), redeploy the version it runs, restart and stop (the
//! kinds the platform restarts or stops), uninstall and cancel, each offered while it applies to
//! the service's status.

use leptos::prelude::*;
use platform_api::{
    ActionStatus, DeploymentStatus, RolePermission, ServiceState, ServiceType, StatusAction,
};

use super::commit_picker::CommitPicker;
use super::{AddressedService, ServiceAnswer, Target};
use crate::api::service::ServiceAction;
use crate::api::{use_api, ApiError};
use crate::components::change_summary::Version;
use crate::components::confirm_button::ConfirmButton;
use crate::components::deploy_review::{
    DeployReview, PendingDeploy, ReviewAgain, Reviewer, Reviewing,
};
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

/// An action on the addressed service, said in a toast once asked; its status read again after.
fn act_on(service: AddressedService, permitted: Permitted) -> Action<ServiceAction, ()> {
    let (api, toasts) = (use_api(), use_toasts());
    Action::new_local(move |action: &ServiceAction| {
        let (action, target) = (action.clone(), untrack(|| service.target()));
        async move {
            let Some(Target { id, kind }) = target else {
                return;
            };
            match api.act_on_service(kind, id, &action).await {
                Ok(_) => toasts.success(action.accepted()),
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
            service.status.refetch();
        }
    })
}

/// A cancel of what runs or waits on the addressed service (a running action stops with its
/// environment's deployment); its status read again after.
fn cancel_on(service: AddressedService, permitted: Permitted) -> Action<(), ()> {
    let (api, toasts) = (use_api(), use_toasts());
    Action::new_local(move |_: &()| {
        let (environment, current) = (service.environment.get_untracked(), service.current());
        async move {
            let (Some(environment), Some(current)) = (environment, current) else {
                return;
            };
            match api.cancel_service(environment, &current).await {
                Ok(canceled) => toasts.success(canceled.said()),
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
            service.status.refetch();
        }
    })
}

/// A deploy of the service (at a commit, if given) and a redeploy, each through the review.
fn deploys(
    record: LocalResource<Result<ServiceAnswer, ApiError>>,
    act: Action<ServiceAction, ()>,
    reviewer: Reviewer,
) -> (
    impl Fn(Option<String>) + Copy + 'static,
    impl Fn() + Copy + 'static,
) {
    let name = move || {
        record
            .get_untracked()
            .and_then(Result::ok)
            .map(|record| record.name().to_string())
            .unwrap_or_default()
    };
    // The version a deploy of the configured service runs: the branch's latest (or `commit`),
    // the configured image tag or chart version.
    let configured = move |commit: Option<String>| {
        record
            .get_untracked()
            .and_then(Result::ok)
            .map(|record| Version::configured(&record, commit.clone()))
            .unwrap_or(Version {
                commit,
                ..Version::default()
            })
    };
    let deploy = move |git_commit_id: Option<String>| {
        let question = match &git_commit_id {
            Some(commit) => format!("Deploy {} at {}?", name(), platform_api::short_id(commit)),
            None => format!("Deploy {}?", name()),
        };
        reviewer.deploy(PendingDeploy {
            question,
            confirm: "Deploy",
            what: Reviewing::One(configured(git_commit_id.clone())),
            run: Callback::new(move |()| {
                act.dispatch_local(ServiceAction::Deploy {
                    plan_only: false,
                    git_commit_id: git_commit_id.clone(),
                });
            }),
        });
    };
    let redeploy = move || {
        let running = record
            .get_untracked()
            .and_then(Result::ok)
            .and_then(|record| record.git_repository()?.deployed_commit_id.clone());
        reviewer.deploy(PendingDeploy {
            question: format!("Redeploy {}?", name()),
            confirm: "Redeploy",
            what: Reviewing::One(Version {
                commit: running,
                ..configured(None)
            }),
            run: Callback::new(move |()| {
                act.dispatch_local(ServiceAction::Redeploy);
            }),
        });
    };
    (deploy, redeploy)
}

#[component]
pub fn ServiceActions(service: AddressedService) -> impl IntoView {
    let AddressedService { record, .. } = service;
    let permitted = Permitted::new(RolePermission::Deploy, "deploy or act on services");
    let act = act_on(service, permitted);
    let cancel = cancel_on(service, permitted);
    let current = move || service.current();
    let in_progress = move || current().is_some_and(|status| status.state.is_in_progress());
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
    let queued = move || {
        current().is_some_and(|status| status.status_details.status == ActionStatus::Queued)
    };
    let deployed_once = move || {
        current().is_some_and(|status| {
            status.service_deployment_status != DeploymentStatus::NeverDeployed
        })
    };
    let kind_can = move |can: fn(ServiceType) -> bool| service.kind().is_some_and(can);
    let refusal = move || permitted.refusal();
    let busy = move || act.pending().get() || cancel.pending().get() || refusal().is_some();
    let disabled = move || busy() || in_progress();
    let is_terraform = move || service.kind() == Some(ServiceType::Terraform);
    let reviewer = Reviewer::new();
    let reviewed = service.reviewed();
    let (deploy, redeploy) = deploys(record, act, reviewer);

    view! {
            <div class="actions">
                <p class="actions__refusal" id="actions-refusal">{refusal}</p>
                <ReviewAgain reviewer/>
                <Show when=move || cancelable() && queued()>
                    <button type="button" class="button button--secondary" disabled=busy
                        title=refusal on:click=move |_| { cancel.dispatch_local(()); }>
                        "Cancel"
                    </button>
                </Show>
                // The platform stops a running action with its environment's deployment.
                <Show when=move || cancelable() && !queued()>
                    <ConfirmButton label="Cancel deployment" question="Cancel the environment's deployment?"
                        consequence="A running action stops with its environment's deployment: every action running or waiting in this environment stops, this one with them."
                        disabled=Signal::derive(busy) title=Signal::derive(refusal)
                        on_confirm=move |()| { cancel.dispatch_local(()); }/>
                </Show>
                <Show when=move || runs() && !in_progress() && kind_can(ServiceType::restarts)>
                    <button type="button" class="button button--ghost" disabled=busy title=refusal
                        on:click=move |_| { act.dispatch_local(ServiceAction::Restart); }>
                        "Restart"
                    </button>
                </Show>
                <Show when=move || runs() && !in_progress() && kind_can(ServiceType::stops)>
                    <button type="button" class="button button--ghost" disabled=busy title=refusal
                        on:click=move |_| { act.dispatch_local(ServiceAction::Stop); }>
                        "Stop"
                    </button>
                </Show>
                <Show when=move || deployed_once() && !in_progress()>
                    <button type="button" class="button button--ghost" disabled=busy
                        title=move || refusal().unwrap_or_else(|| "Deploy again the version it runs now".into())
                        on:click=move |_| redeploy()>
                        "Redeploy"
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
                    let Target { id, kind } = service.target()?;
                    Some(view! {
                        <CommitPicker kind id deployed=repository.deployed_commit_id
                            disabled=Signal::derive(disabled) title=Signal::derive(refusal)
                            on_pick=move |commit| deploy(Some(commit))/>
                    })
                }}
                <button type="button" class="button button--primary"
                    disabled=disabled title=refusal
                    on:click=move |_| deploy(None)>
                    {move || if deploying() { "Deploying…" } else { "Deploy" }}
                </button>
            </div>
            <DeployReview reviewer service=reviewed/>
    }
}
