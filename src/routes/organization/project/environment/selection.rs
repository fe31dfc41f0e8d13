//! Services selected on an environment's page: a checkbox per row (a shift-click ticks the range
//! from the row clicked before), one for every row shown, and the actions on the selection
//! (deploy, restart, stop, delete) through the environment's calls on selected services. Each
//! service's progress shows in one panel; a refusal names each service and why, and a service
//! that fails says why from its log.

use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use platform_api::{
    DeployAllRequest, RolePermission, ServiceIds, ServiceState, ServiceType, StateTone,
};
use uuid::Uuid;

use super::layout::use_environment_page;
use super::row_statuses::RowStatuses;
use crate::api::environment::SelectedAction;
use crate::api::service::ServiceSummary;
use crate::api::use_api;
use crate::components::confirm_button::ConfirmButton;
use crate::components::deploy_review::{DeployReview, PendingDeploy, Reviewer, Reviewing};
use crate::components::status_badge::StatusBadge;
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

/// The services ticked, and the row a shift-click's range starts from.
#[derive(Clone, Copy)]
pub struct Selection {
    chosen: RwSignal<HashSet<Uuid>>,
    anchor: StoredValue<Option<usize>>,
}

impl Selection {
    pub fn new() -> Self {
        Self {
            chosen: RwSignal::new(HashSet::new()),
            anchor: StoredValue::new(None),
        }
    }

    pub fn is_chosen(self, id: Uuid) -> bool {
        self.chosen.with(|chosen| chosen.contains(&id))
    }

    /// Reads the services ticked (once, however many rows look).
    pub fn with_chosen<R>(self, read: impl FnOnce(&HashSet<Uuid>) -> R) -> R {
        self.chosen.with(read)
    }

    /// Row `at` of the rows `shown` ticked or unticked; with `range`, every row from the one
    /// clicked before to this one too.
    pub fn click(self, shown: &[Uuid], at: usize, ticked: bool, range: bool) {
        let start = match self.anchor.get_value() {
            Some(anchor) if range && anchor < shown.len() => anchor,
            _ => at,
        };
        self.set_all(&shown[start.min(at)..=start.max(at)], ticked);
        self.anchor.set_value(Some(at));
    }

    /// Whether every row shown is ticked.
    pub fn all_of(self, shown: &[Uuid]) -> bool {
        !shown.is_empty()
            && self
                .chosen
                .with(|chosen| shown.iter().all(|id| chosen.contains(id)))
    }

    pub fn set_all(self, shown: &[Uuid], ticked: bool) {
        self.chosen.update(|chosen| {
            for id in shown {
                if ticked {
                    chosen.insert(*id);
                } else {
                    chosen.remove(id);
                }
            }
        });
    }

    fn clear(self) {
        self.chosen.set(HashSet::new());
        self.anchor.set_value(None);
    }
}

/// One run of an action on a selection: the services it named, and the reason each refused
/// service was not started (none when the server took them all).
#[derive(Clone)]
struct Run {
    action: SelectedAction,
    services: Vec<ServiceSummary>,
    refused: HashMap<Uuid, String>,
    /// What went wrong that names no service.
    error: Option<String>,
}

/// The selection's actions, shown while services are ticked, and the progress of the last run.
#[component]
pub fn SelectionActions(
    environment: Uuid,
    services: StoredValue<Vec<ServiceSummary>>,
    selection: Selection,
    rows: RowStatuses,
    /// After a deletion: the list changed.
    on_deleted: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Deploy, "act on services");
    let last = RwSignal::new(None::<Run>);
    let count = move || selection.chosen.with(HashSet::len);
    let act = Action::new_local(move |action: &SelectedAction| {
        let action = *action;
        let chosen: Vec<ServiceSummary> = services.with_value(|all| {
            all.iter()
                .filter(|service| selection.is_chosen(service.id))
                .cloned()
                .collect()
        });
        async move {
            let named: Vec<(ServiceType, Uuid)> = chosen
                .iter()
                .map(|service| (service.service_type, service.id))
                .collect();
            let outcome = api.act_on_selected(environment, action, &named).await;
            let mut run = Run {
                action,
                services: chosen,
                refused: HashMap::new(),
                error: None,
            };
            match outcome {
                Ok(()) => {
                    toasts.success(format!(
                        "{} of {} service{} queued.",
                        action.label(),
                        named.len(),
                        if named.len() == 1 { "" } else { "s" }
                    ));
                    if action == SelectedAction::Delete {
                        selection.clear();
                        on_deleted.run(());
                    }
                }
                Err(error) => {
                    permitted.note(&error);
                    run.refused = refusals(action, &named, error.fields());
                    if run.refused.is_empty() {
                        run.error = Some(error.to_string());
                    }
                    toasts.error(error.to_string());
                }
            }
            last.set(Some(run));
        }
    });
    let disabled = move || act.pending().get() || permitted.refusal().is_some();
    // The platform restarts applications, containers and databases only.
    let restart_refusal = move || {
        permitted.refusal().or_else(|| {
            let unrestartable: Vec<String> = services.with_value(|all| {
                all.iter()
                    .filter(|service| {
                        selection.is_chosen(service.id) && !service.service_type.restarts()
                    })
                    .map(|service| service.name.clone())
                    .collect()
            });
            (!unrestartable.is_empty()).then(|| {
                format!(
                    "The platform restarts applications, containers and databases only; {} cannot be restarted: deploy it again instead.",
                    unrestartable.join(", ")
                )
            })
        })
    };
    let reviewer = Reviewer::new();
    let page = use_environment_page();
    let deploy = move |_| {
        let run = Callback::new(move |()| {
            act.dispatch_local(SelectedAction::Deploy);
        });
        match page.services_to_review(|service, _| selection.is_chosen(service.id)) {
            Some((place, services)) => reviewer.deploy(PendingDeploy {
                question: format!("Deploy the {} selected?", services.len()),
                confirm: "Deploy",
                what: Reviewing::Several { place, services },
                run,
            }),
            None => run.run(()),
        }
    };
    view! {
        <DeployReview reviewer/>
        <Show when=move || { count() > 0 }>
            <div class="selection-bar" role="region" aria-label="Selected services">
                <p class="selection-bar__count" aria-live="polite">
                    {move || format!("{} selected", count())}
                </p>
                <div class="actions">
                    <button type="button" class="button button--ghost"
                        disabled=move || act.pending().get() || restart_refusal().is_some()
                        title=restart_refusal
                        on:click=move |_| { act.dispatch_local(SelectedAction::Restart); }>
                        "Restart"
                    </button>
                    <button type="button" class="button button--ghost" disabled=disabled
                        title=move || permitted.refusal()
                        on:click=move |_| { act.dispatch_local(SelectedAction::Stop); }>
                        "Stop"
                    </button>
                    <ConfirmButton label="Delete" question="Delete the services selected?"
                        consequence="Each stops, and its configuration, variables and history are deleted. This cannot be undone."
                        class="button button--ghost button--danger"
                        disabled=Signal::derive(disabled) title=Signal::derive(move || permitted.refusal())
                        on_confirm=move |()| { act.dispatch_local(SelectedAction::Delete); }/>
                    <button type="button" class="button button--primary" disabled=disabled
                        title=move || permitted.refusal()
                        on:click=deploy>
                        "Deploy"
                    </button>
                    <button type="button" class="button button--secondary"
                        on:click=move |_| selection.clear()>
                        "Clear"
                    </button>
                </div>
            </div>
        </Show>
        {move || last.get().map(|run| view! { <Progress run rows/> })}
    }
}

/// The reason given for each service the server refused, read from the fields of its answer:
/// `application_ids[1]` (or `applications[1].git_commit_id`) names the second application sent.
fn refusals(
    action: SelectedAction,
    named: &[(ServiceType, Uuid)],
    fields: &[platform_api::FieldError],
) -> HashMap<Uuid, String> {
    let sent: Vec<(String, Uuid)> = match action {
        SelectedAction::Deploy => DeployAllRequest::of(named)
            .each()
            .into_iter()
            .map(|(selected, _)| (selected.field, selected.id))
            .collect(),
        _ => ServiceIds::of(named)
            .each()
            .into_iter()
            .map(|selected| (selected.field, selected.id))
            .collect(),
    };
    fields
        .iter()
        .filter_map(|error| {
            let service = error.field.split('.').next()?;
            let (_, id) = sent.iter().find(|(field, _)| field == service)?;
            Some((*id, error.message.clone()))
        })
        .collect()
}

/// Each service of the last run, with its live status; those refused with their reason.
#[component]
fn Progress(run: Run, rows: RowStatuses) -> impl IntoView {
    let started = run.refused.is_empty() && run.error.is_none();
    let title = if started {
        format!("{} of the selection", run.action.label())
    } else {
        format!("{}: nothing was started", run.action.label())
    };
    let deleting = run.action == SelectedAction::Delete;
    view! {
        <section class="card selection-progress" aria-labelledby="selection-progress-title">
            <h2 id="selection-progress-title">{title}</h2>
            {run.error.map(|error| view! { <p class="notice notice--error">{error}</p> })}
            <ul class="plain-list">
                {run.services.into_iter().map(|service| {
                    // The server names the service in its reason; the list names it already.
                    let refused = run.refused.get(&service.id).map(|reason| {
                        reason
                            .strip_prefix(&format!("{}: ", service.name))
                            .unwrap_or(reason)
                            .to_string()
                    });
                    let line = match refused {
                        Some(reason) => view! {
                            <span class="selection-progress__refused">{reason}</span>
                        }.into_any(),
                        None if !started => view! { <span class="muted">"Not started"</span> }.into_any(),
                        None if deleting => view! { <span class="muted">"Deleted"</span> }.into_any(),
                        None => view! { <Live service=service.clone() rows/> }.into_any(),
                    };
                    view! {
                        <li class="selection-progress__item" data-service=service.name.clone()>
                            <span class="selection-progress__name">{service.name.clone()}</span>
                            {line}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// A service's status as the page's polls bring it, and the reason it failed, when it does.
#[component]
fn Live(service: ServiceSummary, rows: RowStatuses) -> impl IntoView {
    let status = RwSignal::from(rows.of(service.id));
    let state = Signal::derive(move || {
        status.with(|s| s.as_ref().map_or(ServiceState::Ready, |s| s.state))
    });
    let failed = move || state.get().tone() == StateTone::Failure;
    let execution = move || status.with(|s| s.as_ref().and_then(|s| s.execution_id.clone()));
    view! {
        <StatusBadge state/>
        <Show when=failed>
            <FailureReason id=service.id execution=execution()/>
        </Show>
    }
}

/// The last line of what the engine did to the service in its failed action: why it failed.
#[component]
fn FailureReason(id: Uuid, execution: Option<String>) -> impl IntoView {
    let api = use_api();
    let environment = current_id(|a: &EnvironmentAddress| a.env);
    let reason = resource(move || {
        let (environment, execution) = (environment.get(), execution.clone());
        async move {
            match environment {
                Some(environment) => api.service_log(environment, id, execution.as_deref()).await,
                None => Ok(Vec::new()),
            }
        }
    });
    view! {
        <span class="selection-progress__refused">
            {move || reason.get().and_then(Result::ok).and_then(|lines| lines.last().map(|line| line.message.clone()))}
        </span>
    }
}
