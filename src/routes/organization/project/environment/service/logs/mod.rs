//! `.../service/:service/logs`: what its instances print, searched through the cluster's logs
//! (`search`); and what the engine did to the service (its lines among the last of its
//! environment's deployment log), each action's lines under its name and outcome, narrowed by a
//! search as the person types and followed while an action runs.

mod instance_log;
mod search;
mod virtual_log;

use std::time::Duration;

use chrono::{DateTime, Utc};
use leptos::prelude::*;
use platform_api::{DeploymentHistoryEntry, LogLine, ServiceState};

use super::{no_service, use_addressed_service, Target};
use crate::api::service::HistoryFilter;
use crate::api::use_api;
use crate::case;
use crate::components::deployment_log::DeploymentLog;
use crate::components::empty_state::EmptyState;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::state::polling::poll;

use crate::state::resource::resource;
use search::LogSearch;

/// How often the log is read again while an action runs.
const POLL_RUNNING: Duration = Duration::from_secs(2);
/// The newest actions whose names and outcomes head their lines.
const HISTORY_SIZE: u32 = 100;

/// The lines of one action, with what the history says of it.
#[derive(Clone, Debug, PartialEq)]
struct Execution {
    id: String,
    action: Option<String>,
    state: Option<ServiceState>,
    requested_at: Option<DateTime<Utc>>,
    lines: Vec<LogLine>,
}

impl Execution {
    fn running(&self) -> bool {
        self.state.is_some_and(ServiceState::is_in_progress)
    }
}

/// Cuts the lines (oldest first) into runs of one execution each, named from the history.
fn executions(lines: Vec<LogLine>, history: &[DeploymentHistoryEntry]) -> Vec<Execution> {
    let mut executions: Vec<Execution> = Vec::new();
    for line in lines {
        match executions.last_mut() {
            Some(execution) if execution.id == line.execution_id => execution.lines.push(line),
            _ => {
                let entry = history
                    .iter()
                    .find(|entry| entry.identifier.execution_id == line.execution_id);
                executions.push(Execution {
                    id: line.execution_id.clone(),
                    action: entry.map(|entry| entry.status_details.label()),
                    state: entry.map(|entry| entry.status),
                    requested_at: entry.map(|entry| entry.auditing_data.created_at),
                    lines: vec![line],
                });
            }
        }
    }
    executions
}

#[component]
pub fn ServiceLogs() -> impl IntoView {
    let api = use_api();
    let addressed = use_addressed_service();
    let environment = addressed.environment;
    let log = resource(move || {
        let (environment, id) = (environment.get_untracked(), addressed.address());
        async move {
            let Target { id, kind } = addressed.addressed(id).await?;
            let environment = environment.ok_or_else(no_service)?;
            let every = HistoryFilter::default();
            let (lines, history) = futures::try_join!(
                api.service_log(environment, id, None),
                api.service_history(kind, id, 1, HISTORY_SIZE, &every),
            )?;
            Ok(executions(lines, &history.results))
        }
    });
    poll(
        move || match log.get() {
            Some(Ok(executions)) if executions.iter().any(Execution::running) => Some(POLL_RUNNING),
            _ => None,
        },
        move || log.refetch(),
    );
    let search = RwSignal::new(String::new());
    let instances = move || {
        let target = addressed.target()?;
        let environment = environment.get()?;
        target
            .kind
            .has_instances()
            .then(|| view! { <LogSearch target environment/> })
    };

    view! {
        {instances}
        <section class="card" aria-labelledby="logs-title">
            <div class="card__header">
                <h2 id="logs-title">"Deployment logs"</h2>
                <div class="log-controls">
                    <label class="log-controls__field">
                        "Search"
                        <input type="search" id="log-search" placeholder="Text in a line"
                            bind:value=search/>
                    </label>
                    <button type="button" class="button button--secondary button--small"
                        on:click=move |_| log.refetch()>
                        "Refresh"
                    </button>
                </div>
            </div>
            <p class="muted">
                {format!(
                    "Its lines among the last {} of its environment's deployments.",
                    platform_api::ENVIRONMENT_LOG_LINES
                )}
            </p>
            {loaded(log, 8, move |executions| view! { <Executions executions search/> })}
        </section>
    }
}

/// Each action's lines under its heading, only the lines that contain the search (any case).
#[component]
fn Executions(executions: Vec<Execution>, search: RwSignal<String>) -> impl IntoView {
    if executions.is_empty() {
        return view! {
            <EmptyState title="No log yet"
                hint="Deploy the service from its overview: what the engine does shows here."/>
        }
        .into_any();
    }
    let total: usize = executions
        .iter()
        .map(|execution| execution.lines.len())
        .sum();
    let shown = move || {
        let needle = case::lower(&search.get());
        executions
            .iter()
            .cloned()
            .filter_map(|mut execution| {
                if !needle.is_empty() {
                    execution
                        .lines
                        .retain(|line| case::lower(&line.message).contains(&needle));
                }
                (!execution.lines.is_empty()).then_some(execution)
            })
            .collect::<Vec<_>>()
    };
    view! {
        {move || {
            let shown = shown();
            let matching: usize = shown.iter().map(|execution| execution.lines.len()).sum();
            let summary = if search.with(String::is_empty) {
                format!("{total} lines")
            } else {
                format!("{matching} of {total} lines contain “{}”", search.get())
            };
            view! {
                <p class="muted log-summary" aria-live="polite">{summary}</p>
                {shown.into_iter().map(|execution| view! {
                    <section class="execution" data-execution=execution.id.clone()>
                        <h3 class="execution__title">
                            {execution.state.map(|state| view! { <StatusBadge state/> })}
                            <span>{execution.action.unwrap_or_else(|| "Action".into())}</span>
                            {execution.requested_at.map(|at| view! {
                                <span class="muted"><RelativeTime at/></span>
                            })}
                            <span class="mono muted execution__id">{platform_api::short_id(&execution.id)}</span>
                        </h3>
                        <DeploymentLog lines=execution.lines/>
                    </section>
                }).collect_view()}
            }
        }}
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use platform_api::{
        ActionStatus, AuditingData, DeploymentDetails, DeploymentIdentifier, ServiceType,
        StatusAction, StatusDetails, SubAction,
    };
    use uuid::Uuid;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn line(execution_id: &str, message: &str) -> LogLine {
        LogLine {
            created_at: Utc::now(),
            execution_id: execution_id.into(),
            message: message.into(),
        }
    }

    #[wasm_bindgen_test]
    fn lines_are_cut_into_their_actions_named_from_the_history() {
        let restart = DeploymentHistoryEntry {
            identifier: DeploymentIdentifier {
                name: "web".into(),
                service_id: Uuid::nil(),
                service_type: ServiceType::Application,
                execution_id: "b".into(),
            },
            status: ServiceState::Restarting,
            auditing_data: AuditingData {
                created_at: Utc::now(),
                updated_at: None,
                triggered_by: "ci".into(),
                origin: "API".into(),
            },
            details: DeploymentDetails::default(),
            status_details: StatusDetails {
                action: StatusAction::Restart,
                status: ActionStatus::Ongoing,
                sub_action: SubAction::None,
            },
            icon_uri: String::new(),
            total_duration: "PT3S".into(),
        };
        let lines = vec![
            line("a", "Deployment requested."),
            line("a", "Deployed."),
            line("b", "Restart requested."),
            line("b", "Restart: started."),
        ];
        let executions = executions(lines, &[restart]);
        assert_eq!(executions.len(), 2);
        // Older than the history kept: no name, but its lines.
        assert_eq!(executions[0].id, "a");
        assert_eq!(executions[0].action, None);
        assert_eq!(executions[0].lines.len(), 2);
        assert!(!executions[0].running());
        assert_eq!(executions[1].action.as_deref(), Some("Restart"));
        assert_eq!(executions[1].lines.len(), 2);
        assert!(executions[1].running());
    }
}
