//! `.../service/:service/deployments`: every action run on the service, newest first, a page at a
//! time (`?page=N`), filtered by outcome, commit or who asked; each with what it deployed (the
//! commit with its message and author, the image, the chart), who asked, its duration and its log
//! on demand; a successful deployment can be rolled back to. Polled while one runs.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{
    iso_duration_seconds, rules, short_id, ActionStatus, DeploymentHistoryEntry,
    DeploymentHistoryPage, FieldError, HistoryOutcome, RolePermission, ServiceType, StatusAction,
    SubAction, WireEnum,
};
use uuid::Uuid;

use super::{no_service, use_addressed_service, AddressedService, Target};
use crate::api::service::HistoryFilter;
use crate::api::use_api;
use crate::components::change_summary::{Baseline, ComparedFrom, Version};
use crate::components::confirm_button::ConfirmButton;
use crate::components::deploy_review::{LoadedReview, Review};
use crate::components::deployment_log::DeploymentLog;
use crate::components::empty_state::EmptyState;
use crate::components::form_field::{any_or_one_of, CheckboxField, ChoiceField, TextField};
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::pager::{use_page, PagerNav};
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::routes::organization::project::environment::deployments::StopAutoDeploy;
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

const PAGE_SIZE: u32 = 20;
/// How often the list is polled while an action runs.
const POLL_RUNNING: Duration = Duration::from_secs(2);

#[component]
pub fn ServiceDeployments() -> impl IntoView {
    let api = use_api();
    let addressed = use_addressed_service();
    let page = use_page();
    let filter = RwSignal::new(HistoryFilter::default());
    let history = resource(move || {
        let id = addressed.address();
        let page = u32::try_from(page.get()).unwrap_or(u32::MAX);
        let filter = filter.get();
        async move {
            let target = addressed.addressed(id).await?;
            let page = api
                .service_history(target.kind, target.id, page, PAGE_SIZE, &filter)
                .await?;
            Ok((target, page))
        }
    });
    poll(
        move || match history.get() {
            Some(Ok((_, page))) if page.results.iter().any(|e| e.status.is_in_progress()) => {
                Some(POLL_RUNNING)
            }
            _ => None,
        },
        move || history.refetch(),
    );
    // A rollback queued from a row shows up at the top at once.
    let rolled_back = Callback::new(move |()| history.refetch());
    // The deployments ticked to be compared (two at most: a third replaces the earliest ticked).
    let compared = RwSignal::new(Vec::<DeploymentHistoryEntry>::new());

    view! {
        <section class="card" aria-labelledby="history-title">
            <h2 id="history-title">"Deployments"</h2>
            <Filters filter/>
            <Comparison compared addressed/>
            {loaded(history, 6, move |(Target { kind, id }, page)| {
                let filtered = filter.get_untracked() != HistoryFilter::default();
                view! { <History kind id page filtered addressed rolled_back compared/> }
            })}
        </section>
    }
}

/// Narrows the history: by outcome, commit, who asked. Applied when submitted.
#[component]
fn Filters(filter: RwSignal<HistoryFilter>) -> impl IntoView {
    let outcome = RwSignal::new(None::<HistoryOutcome>);
    let commit = RwSignal::new(String::new());
    let triggered_by = RwSignal::new(String::new());
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let apply = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let wanted = HistoryFilter {
            outcome: outcome.get_untracked(),
            commit: commit.get_untracked().trim().to_string(),
            triggered_by: triggered_by.get_untracked().trim().to_string(),
        };
        let problems: Vec<FieldError> = (!wanted.commit.is_empty())
            .then(|| rules::git_commit_id("git_commit_id", &wanted.commit))
            .flatten()
            .into_iter()
            .collect();
        let fine = problems.is_empty();
        errors.set(problems);
        if fine {
            filter.set(wanted);
        }
    };
    let outcomes = any_or_one_of(HistoryOutcome::ALL);
    view! {
        <form class="filters" role="search" aria-label="Filter deployments" on:submit=apply>
            <ChoiceField label="Outcome" name="status" value=outcome options=outcomes errors/>
            <TextField label="Commit" name="git_commit_id" value=commit errors
                placeholder="abc1234" form_id="history"/>
            <TextField label="Asked by" name="triggered_by" value=triggered_by errors
                form_id="history"/>
            <button type="submit" class="button button--secondary">"Filter"</button>
        </form>
    }
}

#[component]
fn History(
    kind: ServiceType,
    id: Uuid,
    page: DeploymentHistoryPage,
    filtered: bool,
    addressed: AddressedService,
    rolled_back: Callback<()>,
    compared: RwSignal<Vec<DeploymentHistoryEntry>>,
) -> impl IntoView {
    let number = usize::try_from(page.page).unwrap_or(1);
    let full = page.results.len() as i64 == page.page_size;
    if page.results.is_empty() {
        return if filtered {
            view! {
                <EmptyState title="No deployment matches"
                    hint="Change or clear the filters above to see more."/>
            }
            .into_any()
        } else {
            view! {
                <EmptyState title="No deployment yet"
                    hint="Deploy the service from its overview; every action run on it is listed here."/>
            }
            .into_any()
        };
    }
    // What runs now is the newest deployment that succeeded: rolling back to it changes nothing.
    let running = (number == 1 && !filtered)
        .then(|| page.results.iter().find(|entry| entry.can_roll_back_to()))
        .flatten()
        .map(|entry| entry.identifier.execution_id.clone());
    // Each deployment against the success before it, where this page shows it (or shows there
    // is none); not in a filtered list, where the one before may be filtered out.
    let befores: Vec<Option<Option<Baseline>>> = (0..page.results.len())
        .map(|at| {
            let older = &page.results[at + 1..];
            match older.iter().find(|entry| succeeded_deploy(entry)) {
                _ if filtered => None,
                Some(before) => Some(Some(Baseline::of(before))),
                None if !full => Some(None),
                None => None,
            }
        })
        .collect();
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Status"</th>
                <th scope="col">"Action"</th>
                <th scope="col">"Deployed"</th>
                <th scope="col">"By"</th>
                <th scope="col">"Started"</th>
                <th scope="col">"Duration"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            {page.results.into_iter().zip(befores).map(|(entry, before)| {
                let current = running.as_deref() == Some(entry.identifier.execution_id.as_str());
                let before = before.filter(|_| entry.status_details.action == StatusAction::Deploy);
                view! { <Row kind id entry current before addressed rolled_back compared/> }
            }).collect_view()}
        </table>
        <PagerNav label="Pages of deployments" page=number has_next=full previous="← Newer"
            next="Older →" position=format!("Page {number}")/>
    }
    .into_any()
}

/// One action, and its log below it once opened.
#[component]
fn Row(
    kind: ServiceType,
    id: Uuid,
    entry: DeploymentHistoryEntry,
    /// Whether this is the deployment that runs now.
    current: bool,
    /// The successful deployment before it (`Some(None)`: none), when known: "What changed".
    before: Option<Option<Baseline>>,
    addressed: AddressedService,
    rolled_back: Callback<()>,
    compared: RwSignal<Vec<DeploymentHistoryEntry>>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let started = entry.auditing_data.created_at;
    let changes_open = RwSignal::new(false);
    let reviewed = addressed.reviewed();
    let to = Version::of(&entry);
    let failed = entry.status_details.status == ActionStatus::Error;
    let what_changed = before.map(|before| {
        let label = if failed {
            "What changed since the last success"
        } else {
            "What changed"
        };
        let summary = move || {
            let review = Review::Changes {
                service: reviewed.get()?,
                from: ComparedFrom::Known(before.clone()),
                to: to.clone(),
                until: Some(started),
            };
            Some(view! { <LoadedReview review/> })
        };
        let button = view! {
            <button type="button" class="button button--small button--ghost"
                aria-expanded=move || changes_open.get().to_string()
                on:click=move |_| changes_open.update(|open| *open = !*open)>
                {label}
            </button>
        };
        let detail = view! {
            <Show when=move || changes_open.get()>
                <tr class="table__detail">
                    <td colspan="7">{summary.clone()}</td>
                </tr>
            </Show>
        };
        (button, detail)
    });
    let (what_changed_button, what_changed_detail) = what_changed.unzip();
    let compare = (entry.status_details.action == StatusAction::Deploy).then(|| {
        let execution = entry.identifier.execution_id.clone();
        let ticked = {
            let execution = execution.clone();
            move || {
                compared.with(|chosen| {
                    chosen
                        .iter()
                        .any(|e| e.identifier.execution_id == execution)
                })
            }
        };
        let entry = entry.clone();
        let toggle = move |_| {
            compared.update(|chosen| {
                if let Some(at) = chosen
                    .iter()
                    .position(|e| e.identifier.execution_id == entry.identifier.execution_id)
                {
                    chosen.remove(at);
                } else {
                    if chosen.len() == 2 {
                        chosen.remove(0);
                    }
                    chosen.push(entry.clone());
                }
            });
        };
        view! {
            <label class="checkbox compare-pick">
                <input type="checkbox" prop:checked=ticked on:change=toggle
                    aria-label=format!("Compare {}", short_id(&execution))/>
                "Compare"
            </label>
        }
    });
    let execution = entry.identifier.execution_id.clone();
    let action = entry.status_details.label();
    let deployed = entry.details.what();
    let commit = entry.details.commit.clone();
    let rollback_of = entry.details.rollback_to.clone();
    let duration = iso_duration_seconds(&entry.total_duration).map(format::duration);
    // Where it was asked from, in words when it is one of the platform's origins.
    let origin = entry
        .auditing_data
        .origin
        .parse::<platform_api::audit::Origin>()
        .map_or_else(
            |_| entry.auditing_data.origin.clone(),
            |origin| origin.label().to_string(),
        );
    let by = entry.auditing_data.triggered_by.clone();
    let roll_back = (entry.can_roll_back_to() && !current)
        .then(|| view! { <RollBack kind id entry=entry.clone() addressed rolled_back/> });
    view! {
        <tbody data-execution=entry.identifier.execution_id>
            <tr>
                <td><StatusBadge state=entry.status/></td>
                <td>
                    {action}
                    {rollback_of.map(|earlier| view! {
                        <span class="muted">" · rollback to "<span class="mono">{short_id(&earlier)}</span></span>
                    })}
                    {current.then(|| view! { " " <span class="tag">"Running now"</span> })}
                </td>
                <td>
                    <span class="mono">{deployed.unwrap_or_else(|| "—".into())}</span>
                    {commit.filter(|commit| !commit.message.is_empty()).map(|commit| view! {
                        <span class="history__commit">{commit.message}" — "{commit.author_name}</span>
                    })}
                </td>
                <td>{by}<span class="muted">{(!origin.is_empty()).then(|| format!(" · {origin}"))}</span></td>
                <td><RelativeTime at=started/></td>
                <td>{duration}</td>
                <td><div class="table__actions">
                    {compare}
                    {what_changed_button}
                    {roll_back}
                    <button type="button" class="button button--small button--secondary"
                        aria-expanded=move || open.get().to_string()
                        on:click=move |_| open.update(|open| *open = !*open)>
                        {move || if open.get() { "Hide log" } else { "Log" }}
                    </button>
                </div></td>
            </tr>
            {what_changed_detail}
            <Show when=move || open.get()>
                <tr class="table__detail">
                    <td colspan="7"><ExecutionLog addressed execution=execution.clone()/></td>
                </tr>
            </Show>
        </tbody>
    }
}

/// "Roll back to this": confirmed in a dialog that offers to turn auto-deploy off, so that the
/// next push does not undo the rollback.
#[component]
fn RollBack(
    kind: ServiceType,
    id: Uuid,
    entry: DeploymentHistoryEntry,
    addressed: AddressedService,
    rolled_back: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Deploy, "roll services back");
    let auto_deploys = move || {
        addressed
            .record
            .get()
            .and_then(Result::ok)
            .and_then(|record| record.auto_deploys())
            .unwrap_or(false)
    };
    let stop_auto_deploy = RwSignal::new(true);
    let StopAutoDeploy(stop_where_on) = expect_context();
    let what = entry
        .details
        .what()
        .unwrap_or_else(|| "this deployment".into());
    let execution = entry.identifier.execution_id.clone();
    let run = Action::new_local(move |entry: &DeploymentHistoryEntry| {
        let entry = entry.clone();
        let stop = stop_auto_deploy.get_untracked() && untrack(auto_deploys);
        async move {
            if stop {
                match stop_where_on(api, kind, id).await {
                    Ok(saved) => saved.into_iter().for_each(|saved| addressed.saved(saved)),
                    Err(error) => {
                        toasts.error(format!("Auto-deploy is still on: {error}"));
                        return;
                    }
                }
            }
            match api.roll_back(kind, id, &entry).await {
                Ok(status) => {
                    addressed.status.set(Some(Ok(status)));
                    toasts.success(format!(
                        "Rollback to {} queued.",
                        entry
                            .details
                            .what()
                            .unwrap_or_else(|| "the earlier deployment".into())
                    ))
                }
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
            rolled_back.run(());
        }
    });
    let busy = Signal::derive(move || run.pending().get() || permitted.refusal().is_some());
    // What the rollback changes, read when its dialog first opens.
    let opened = RwSignal::new(false);
    let reviewed = addressed.reviewed();
    let to = Version::of(&entry);
    view! {
        <ConfirmButton label="Roll back" question=format!("Roll back to {what}?")
            on_open=Callback::new(move |()| opened.set(true))
            consequence="The service is deployed again exactly as this deployment left it; the history records the rollback."
            class="button button--small button--ghost" confirm_class="button button--primary"
            target=format!("to {}", short_id(&execution))
            disabled=busy title=Signal::derive(move || permitted.refusal())
            on_confirm=move |()| { run.dispatch_local(entry.clone()); }>
            {move || {
                let review = Review::Changes {
                    service: reviewed.get().filter(|_| opened.get())?,
                    from: ComparedFrom::Running,
                    to: to.clone(),
                    until: None,
                };
                Some(view! { <LoadedReview review/> })
            }}
            <Show when=auto_deploys>
                <CheckboxField label="Turn auto-deploy off" name=format!("stop-auto-deploy-{execution}")
                    checked=stop_auto_deploy
                    hint="The service deploys every push of its branch: the next push would undo this rollback."/>
            </Show>
        </ConfirmButton>
    }
}

/// The two deployments ticked, the earlier against the later: what changed between them.
#[component]
fn Comparison(
    compared: RwSignal<Vec<DeploymentHistoryEntry>>,
    addressed: AddressedService,
) -> impl IntoView {
    let reviewed = addressed.reviewed();
    let shown =
        move || {
            let mut chosen = compared.get();
            match chosen.len() {
                0 => None,
                1 => Some(
                    view! {
                        <p class="notice notice--info compare" role="status">
                            "Tick one more deployment to compare the two."
                        </p>
                    }
                    .into_any(),
                ),
                _ => {
                    chosen.sort_by_key(|entry| entry.auditing_data.created_at);
                    let (earlier, later) = (chosen[0].clone(), chosen[1].clone());
                    let review = Review::Changes {
                        service: reviewed.get()?,
                        from: ComparedFrom::Known(Some(Baseline::of(&earlier))),
                        to: Version::of(&later),
                        until: Some(later.auditing_data.created_at),
                    };
                    let title = format!(
                        "From {} to {}",
                        short_id(&earlier.identifier.execution_id),
                        short_id(&later.identifier.execution_id)
                    );
                    Some(view! {
                    <section class="compare" aria-labelledby="compare-title">
                        <div class="compare__header">
                            <h3 id="compare-title">{title}</h3>
                            <button type="button" class="button button--small button--secondary"
                                on:click=move |_| compared.set(Vec::new())>
                                "Clear"
                            </button>
                        </div>
                        <LoadedReview review/>
                    </section>
                }
                .into_any())
                }
            }
        };
    view! { {shown} }
}

/// A deployment that ran to its end, what a later one is compared with.
fn succeeded_deploy(entry: &DeploymentHistoryEntry) -> bool {
    entry.status_details.action == StatusAction::Deploy
        && entry.status_details.status == ActionStatus::Success
        && entry.status_details.sub_action != SubAction::TerraformPlanOnly
}

#[component]
fn ExecutionLog(addressed: AddressedService, execution: String) -> impl IntoView {
    let api = use_api();
    let lines = resource(move || {
        let execution = execution.clone();
        let (environment, id) = (addressed.environment.get_untracked(), addressed.address());
        async move {
            let (environment, id) = (
                environment.ok_or_else(no_service)?,
                id.ok_or_else(no_service)?,
            );
            api.service_log(environment, id, Some(&execution)).await
        }
    });
    view! { {loaded(lines, 4, |lines| view! { <DeploymentLog lines/> })} }
}
