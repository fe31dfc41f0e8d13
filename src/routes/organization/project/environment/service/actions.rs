//! What can be done to a service, on every tab of its pages: deploy (the branch's latest or a
//! chosen commit; for terraform, a plan only), restart, stop, uninstall and cancel, each offered
//! while it applies to the service's status.

use leptos::prelude::*;
use platform_api::{RolePermission, ServiceState, ServiceType, StatusAction};

use super::commit_picker::CommitPicker;
use super::AddressedService;
use crate::api::service::ServiceAction;
use crate::api::use_api;
use crate::components::confirm_button::ConfirmButton;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

#[component]
pub fn ServiceActions(service: AddressedService) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let AddressedService {
        id,
        kind,
        record,
        status,
    } = service;
    let permitted = Permitted::new(RolePermission::Deploy, "deploy or act on services");
    let act = Action::new_local(move |action: &ServiceAction| {
        let (action, id) = (action.clone(), id.get_untracked());
        async move {
            let (Some(id), Some(Ok(kind))) = (id, kind.get_untracked()) else {
                return;
            };
            match api.act_on_service(kind, id, &action).await {
                Ok(_) => toasts.success(action.accepted()),
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
            status.refetch();
        }
    });
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
    let refusal = move || permitted.refusal();
    let busy = move || act.pending().get() || refusal().is_some();
    let disabled = move || busy() || in_progress();
    let is_terraform = move || matches!(kind.get(), Some(Ok(ServiceType::Terraform)));

    view! {
            <div class="actions">
                <p class="actions__refusal" id="actions-refusal">{refusal}</p>
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
                    let (Some(id), Some(Ok(kind))) = (id.get(), kind.get()) else {
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
    }
}
