//! `.../service/:service/deployments`: every action run on the service, newest first, a page at a
//! time (`?page=N`), each with its outcome, commit, author and duration, and its log on demand.
//! Polled while one runs.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{
    iso_duration_seconds, DeploymentHistoryEntry, DeploymentHistoryPage, ServiceType,
};
use uuid::Uuid;

use super::{no_service, use_addressed_service};
use crate::api::service::short_commit;
use crate::api::use_api;
use crate::components::deployment_log::DeploymentLog;
use crate::components::empty_state::EmptyState;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::pager::{use_page, PagerNav};
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::state::polling::poll;

const PAGE_SIZE: u32 = 20;
/// How often the list is polled while an action runs.
const POLL_RUNNING: Duration = Duration::from_secs(2);
/// Lines of an action's log shown when it is opened.
const LOG_LINES: u32 = 500;

#[component]
pub fn ServiceDeployments() -> impl IntoView {
    let api = use_api();
    let addressed = use_addressed_service();
    let (service, kind) = (addressed.id, addressed.kind);
    let page = use_page();
    let history = LocalResource::new(move || {
        let (id, page) = (service.get(), u32::try_from(page.get()).unwrap_or(u32::MAX));
        async move {
            let kind = kind.await?;
            let page = api
                .service_history(kind, id.ok_or_else(no_service)?, page, PAGE_SIZE)
                .await?;
            Ok((kind, page))
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

    view! {
        <section class="card" aria-labelledby="history-title">
            <h2 id="history-title">"Deployments"</h2>
            {loaded(history, 6, move |(kind, page)| {
                let id = service.get_untracked().unwrap_or_default();
                view! { <History kind id page/> }
            })}
        </section>
    }
}

#[component]
fn History(kind: ServiceType, id: Uuid, page: DeploymentHistoryPage) -> impl IntoView {
    let number = usize::try_from(page.page).unwrap_or(1);
    let full = page.results.len() as i64 == page.page_size;
    if page.results.is_empty() {
        return view! {
            <EmptyState title="No deployment yet"
                hint="Deploy the service from its overview; every action run on it is listed here."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Status"</th>
                <th scope="col">"Action"</th>
                <th scope="col">"Commit"</th>
                <th scope="col">"By"</th>
                <th scope="col">"Started"</th>
                <th scope="col">"Duration"</th>
                <th scope="col"><span class="visually-hidden">"Log"</span></th>
            </tr></thead>
            {page.results.into_iter().map(|entry| view! { <Row kind id entry/> }).collect_view()}
        </table>
        <PagerNav label="Pages of deployments" page=number has_next=full previous="← Newer"
            next="Older →" position=format!("Page {number}")/>
    }
    .into_any()
}

/// One action, and its log below it once opened.
#[component]
fn Row(kind: ServiceType, id: Uuid, entry: DeploymentHistoryEntry) -> impl IntoView {
    let open = RwSignal::new(false);
    let execution = entry.identifier.execution_id.clone();
    let action = entry.status_details.label();
    let commit = entry
        .details
        .commit
        .map(|commit| short_commit(&commit.git_commit_id));
    let duration = iso_duration_seconds(&entry.total_duration).map(format::duration);
    let started = entry.auditing_data.created_at;
    view! {
        <tbody data-execution=entry.identifier.execution_id>
            <tr>
                <td><StatusBadge state=entry.status/></td>
                <td>{action}</td>
                <td class="mono">{commit.unwrap_or_else(|| "—".into())}</td>
                <td>{entry.auditing_data.triggered_by}</td>
                <td><RelativeTime at=started/></td>
                <td>{duration}</td>
                <td>
                    <button type="button" class="button button--small button--secondary"
                        aria-expanded=move || open.get().to_string()
                        on:click=move |_| open.update(|open| *open = !*open)>
                        {move || if open.get() { "Hide log" } else { "Log" }}
                    </button>
                </td>
            </tr>
            <Show when=move || open.get()>
                <tr class="table__detail">
                    <td colspan="7"><ExecutionLog kind id execution=execution.clone()/></td>
                </tr>
            </Show>
        </tbody>
    }
}

#[component]
fn ExecutionLog(kind: ServiceType, id: Uuid, execution: String) -> impl IntoView {
    let api = use_api();
    let lines = LocalResource::new(move || {
        let execution = execution.clone();
        async move { api.service_log(kind, id, Some(&execution), LOG_LINES).await }
    });
    view! { {loaded(lines, 4, |lines| view! { <DeploymentLog lines/> })} }
}
