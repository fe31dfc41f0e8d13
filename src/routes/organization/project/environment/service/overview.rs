//! `.../service/:service/overview`: the application's settings, a Deploy button, and its status
//! with the steps of the last deployment, polled until the deployment reaches a terminal state.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{Application, DeployRequest, Status};

use crate::api::{use_api, ApiError};
use crate::components::copy_button::CopyButton;
use crate::components::deployment_log::DeploymentLog;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::StatusBadge;
use crate::components::steps_timeline::StepsTimeline;
use crate::routes::param_id;
use crate::state::polling::poll;
use crate::state::toasts::use_toasts;

/// How often a deployment in progress is polled.
const POLL_DEPLOYING: Duration = Duration::from_secs(1);
/// How many lines of the last deployment's log are shown.
const LOG_LINES: u32 = 50;

#[component]
pub fn ServiceOverview() -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let service = param_id("service");
    let no_service = || ApiError::NotFound("The address names no service.".into());

    let application = LocalResource::new(move || {
        let id = service.get();
        async move { api.application(id.ok_or_else(no_service)?).await }
    });
    let status = LocalResource::new(move || {
        let id = service.get();
        async move { api.application_status(id.ok_or_else(no_service)?).await }
    });
    // Follows the status: refetched with it, so the log grows while the deployment runs.
    let log = LocalResource::new(move || {
        let id = service.get();
        let execution = status
            .get()
            .and_then(Result::ok)
            .and_then(|status| status.execution_id);
        async move {
            let id = id.ok_or_else(no_service)?;
            match execution {
                Some(execution) => api.application_log(id, &execution, LOG_LINES).await,
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
    let deploy = Action::new_local(move |_: &()| {
        let id = service.get_untracked();
        async move {
            let Some(id) = id else { return };
            match api.deploy_application(id, &DeployRequest::default()).await {
                Ok(_) => {
                    toasts.success("Deployment queued.");
                    status.refetch();
                    application.refetch();
                }
                Err(error) => {
                    forbidden.set(matches!(error, ApiError::Forbidden(_)));
                    toasts.error(error.to_string());
                    status.refetch();
                }
            }
        }
    });
    let in_progress =
        move || matches!(status.get(), Some(Ok(status)) if status.state.is_in_progress());

    view! {
        <div class="page__header page__header--actions">
            <div>
                <h1>{move || application.get().and_then(Result::ok).map(|a| a.name)}</h1>
                <p class="page__lead">"Application"</p>
            </div>
            <div class="actions">
                <button type="button" class="button button--primary"
                    disabled=move || deploy.pending().get() || in_progress() || forbidden.get()
                    title=move || forbidden.get().then_some("Your token's role does not allow deployments.")
                    on:click=move |_| { deploy.dispatch_local(()); }>
                    {move || if in_progress() { "Deploying…" } else { "Deploy" }}
                </button>
            </div>
        </div>
        <div class="columns">
            <section class="card" aria-labelledby="status-title">
                <h2 id="status-title">"Status"</h2>
                {loaded(status, 5, |status| view! { <StatusPanel status/> })}
            </section>
            <section class="card" aria-labelledby="settings-title">
                <h2 id="settings-title">"Settings"</h2>
                {loaded(application, 6, |application| view! { <Settings application/> })}
            </section>
        </div>
        <section class="card" aria-labelledby="log-title">
            <h2 id="log-title">"Log of the last deployment"</h2>
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
        <h3>"Steps of the last deployment"</h3>
        <StepsTimeline status=status/>
    }
}

#[component]
fn Settings(application: Application) -> impl IntoView {
    let git = application.git_repository;
    let ports = application
        .ports
        .iter()
        .map(
            |port| match (port.publicly_accessible, port.external_port) {
                (true, Some(external)) => format!("{} → {external} public", port.internal_port),
                _ => format!("{} private", port.internal_port),
            },
        )
        .collect::<Vec<_>>()
        .join(", ");
    let id = application.id.to_string();
    view! {
        <dl class="facts">
            <dt>"Id"</dt>
            <dd class="mono">{id.clone()} " " <CopyButton text=id label="Copy the application id"/></dd>
            <dt>"Repository"</dt>
            <dd class="mono">{git.url}</dd>
            <dt>"Branch"</dt>
            <dd>{git.branch.unwrap_or_default()}</dd>
            <dt>"Deployed commit"</dt>
            <dd class="mono">{git.deployed_commit_id.unwrap_or_else(|| "latest of the branch".into())}</dd>
            <dt>"Build"</dt>
            <dd>{application.build_mode} " · " {application.dockerfile_path.unwrap_or_default()}</dd>
            <dt>"Resources"</dt>
            <dd>{format::cpu(application.cpu)} " · " {format::memory(application.memory)}</dd>
            <dt>"Instances"</dt>
            <dd>{application.min_running_instances} " to " {application.max_running_instances}</dd>
            <dt>"Ports"</dt>
            <dd>{if ports.is_empty() { "none".to_string() } else { ports }}</dd>
        </dl>
    }
}
