//! `.../environment/:env/overview`: the environment's services of every kind with a live status
//! from one batched `statuses` call, the environment-wide actions (deploy, restart, stop), the
//! environment's recent deployments (`deployments`), the forms to create a service
//! (`new_service`), and to copy the environment (`clone`).

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::audit::EventQuery;
use platform_api::{
    DeploymentStatus, Environment, EnvironmentRequest, EnvironmentStatuses, RolePermission,
    ServiceType, Status,
};
use uuid::Uuid;

use crate::api::environment::EnvironmentAction;
use crate::api::{use_api, ApiError};
use crate::components::after_first_paint::AfterFirstPaint;
use crate::components::confirm_button::ConfirmButton;
use crate::components::loaded::loaded;
use crate::components::rename_and_delete::RenameAndDelete;
use crate::components::shell::use_names_changed;
use crate::components::skeleton::Skeleton;
use crate::components::unwell::{Scope, Unwell};
use crate::routes::address::{EnvironmentAddress, OrganizationAddress, ProjectAddress};
use crate::routes::organization::audit_log::HistoryOfChanges;
use crate::routes::{current_id, paths};
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

use super::clone::CloneEnvironment;
use super::deployments::EnvironmentDeployments;
use super::links::EnvironmentLinks;
use super::new_service::NewService;
use super::previews::{EnvironmentPreviews, PreviewOf};
use super::row_statuses::RowStatuses;
use super::schedule::{rule_of, EnvironmentSchedule};
use super::service_table::{Ids, ServiceTable};
use super::stages::EnvironmentStages;

/// Poll often while something deploys, rarely when all is settled.
const POLL_BUSY: Duration = Duration::from_secs(2);
const POLL_SETTLED: Duration = Duration::from_secs(15);

/// How often the environment's previews are read again.
const POLL_PREVIEWS: Duration = Duration::from_secs(5);

#[component]
pub fn EnvironmentOverview() -> impl IntoView {
    let api = use_api();
    let (org, project, environment) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ProjectAddress| a.project),
        current_id(|a: &EnvironmentAddress| a.env),
    );
    let ids = Memo::new(move |_| {
        Some(Ids {
            org: org.get()?,
            project: project.get()?,
            environment: environment.get()?,
        })
    });
    let no_environment = || ApiError::NotFound("The address names no environment.".into());
    // Its previews and what it previews, where the API says.
    let previews = resource(move || {
        let environment = ids.get().map(|ids| ids.environment);
        async move {
            match environment {
                Some(environment) => api.environment_previews(environment).await,
                None => Ok(None),
            }
        }
    });
    // A preview comes and goes with a branch: read again while the page is open, where the API
    // answers them.
    poll(
        move || matches!(previews.get(), Some(Ok(Some(_)))).then_some(POLL_PREVIEWS),
        move || previews.refetch(),
    );

    let services = resource(move || {
        let ids = ids.get();
        async move {
            let ids = ids.ok_or_else(no_environment)?;
            api.services(ids.environment).await.map(|list| (ids, list))
        }
    });
    let statuses = resource(move || {
        let ids = ids.get();
        async move {
            api.environment_statuses(ids.ok_or_else(no_environment)?.environment)
                .await
        }
    });
    // Read once per answer, outside the suspense of the table (a read inside it would render the
    // whole table again at each poll).
    let summary = Memo::new(move |_| statuses.with(|answer| answer.as_ref().map(Summary::of)));
    let rows = RowStatuses::follow(statuses);
    poll(
        // Read from the answer itself: each answer sets the next poll, changed or not.
        move || {
            statuses.with(|answer| match answer {
                Some(Ok(statuses)) if statuses.any_in_progress() => Some(POLL_BUSY),
                Some(_) => Some(POLL_SETTLED),
                None => None,
            })
        },
        move || statuses.refetch(),
    );
    let record = resource(move || {
        let ids = ids.get();
        async move {
            api.environment(ids.ok_or_else(no_environment)?.environment)
                .await
        }
    });
    let services_changed = Callback::new(move |()| {
        services.refetch();
        statuses.refetch();
    });
    let navigate = use_navigate();
    let deleted = Callback::new(move |()| {
        if let Some(ids) = ids.get_untracked() {
            navigate(
                &paths::project(ids.org, ids.project),
                NavigateOptions::default(),
            );
        }
    });
    let names = use_names_changed();
    let renamed = Callback::new(move |saved: Environment| {
        if let Some(names) = names {
            names.renamed(saved.id, saved.name.clone());
        }
        record.set(Some(Ok(saved)));
    });

    view! {
        <div class="page__header page__header--actions">
            <div>
                <h1>"Services"</h1>
                <p class="page__lead">
                    "Statuses refresh on their own while this page is open. "
                    {move || environment.get().map(|environment| view! {
                        <HistoryOfChanges query=EventQuery {
                            service_environment_id: Some(environment),
                            ..EventQuery::default()
                        }/>
                    })}
                </p>
            </div>
            {move || ids.get().map(|ids| view! {
                <EnvironmentActions environment=ids.environment statuses summary/>
            })}
        </div>
        {move || ids.get().map(|ids| view! { <PreviewOf ids previews/> })}
        {move || ids.get().map(|ids| view! {
            <Unwell org=ids.org scope=Scope::Environment {
                project: ids.project,
                environment: ids.environment,
            }/>
        })}
        <section class="card" aria-labelledby="services-title">
            <h2 id="services-title">"Services of this environment"</h2>
            // The rows wait for the statuses' first answer (whatever it says): built with their
            // statuses, a thousand rows are laid out once rather than again as each badge comes.
            {loaded(services, 4, move |(ids, services)| view! {
                <Show when=move || rows.answered()
                    fallback=|| view! { <Skeleton lines=4/> }>
                    <ServiceTable ids services=services.clone() rows on_deleted=Callback::new(move |()| {
                        services_changed.run(());
                    })/>
                </Show>
            })}
        </section>
        // Below the table, built once its rows are drawn (the table is what a person came for).
        <AfterFirstPaint ready=Signal::derive(move || {
            rows.answered() && services.with(Option::is_some)
        })>
            {move || ids.get().map(|ids| view! {
                <NewService org=ids.org environment=ids.environment on_created=Callback::new(move |_| {
                    services_changed.run(());
                })/>
            })}
            {move || ids.get().map(|ids| view! { <EnvironmentLinks ids services/> })}
            {move || ids.get().map(|ids| view! { <EnvironmentStages ids services/> })}
            {move || ids.get().map(|ids| {
                let rule = rule_of(ids.environment);
                view! {
                    <EnvironmentSchedule environment=ids.environment rule/>
                    <EnvironmentPreviews ids rule previews/>
                }
            })}
            {move || ids.get().map(|ids| view! {
                <EnvironmentDeployments environment=ids.environment
                    busy=Signal::derive(move || summary.get().is_some_and(|s| s.any_in_progress))
                    on_rolled_back=Callback::new(move |()| {
                    statuses.refetch();
                })/>
            })}
            {loaded(record, 2, move |current: Environment| {
                let (id, mode, cluster) = (current.id, current.mode, current.cluster_id);
                let org = current.organization.id;
                view! {
                    <CloneEnvironment org source=current.clone()/>
                    <RenameAndDelete what="environment" name=current.name.clone()
                        consequence="Its services stop and are deleted with it, their variables and history too."
                        rename=move |name: String| {
                            let request = EnvironmentRequest { name, mode, cluster_id: Some(cluster) };
                            async move { api.update_environment(id, &request).await }
                        }
                        delete=move || async move { api.delete_environment(id).await }
                        on_renamed=renamed on_deleted=deleted/>
                }
            })}
        </AfterFirstPaint>
    }
}

/// Deploy, restart or stop every service of the environment the action applies to; offered when
/// nothing runs in it (the server refuses otherwise), restart and stop only when a service runs.
#[component]
fn EnvironmentActions(
    environment: Uuid,
    statuses: LocalResource<Result<EnvironmentStatuses, ApiError>>,
    summary: Memo<Option<Summary>>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Deploy, "deploy or act on services");
    let act = Action::new_local(move |action: &EnvironmentAction| {
        let action = *action;
        let current = statuses.get_untracked().and_then(Result::ok);
        async move {
            let Some(current) = current else { return };
            match api.act_on_environment(environment, action, &current).await {
                Ok(_) => toasts.success(action.accepted()),
                Err(error) => {
                    permitted.note(&error);
                    toasts.error(error.to_string());
                }
            }
            statuses.refetch();
        }
    });
    let has_services = move || summary.get().is_some_and(|s| s.has_services);
    let any_runs = move || summary.get().is_some_and(|s| s.any_runs);
    let any_restarts = move || summary.get().is_some_and(|s| s.any_restarts);
    let any_deployed = move || summary.get().is_some_and(|s| s.any_deployed);
    let any_in_progress = move || summary.get().is_some_and(|s| s.any_in_progress);
    let refusal = move || {
        permitted.refusal().or_else(|| {
            any_in_progress()
                .then(|| "An action runs in this environment; wait until it ends.".to_string())
        })
    };
    let disabled = move || act.pending().get() || refusal().is_some();
    view! {
        <Show when=has_services>
            <div class="actions">
                <p class="actions__refusal">{move || permitted.refusal()}</p>
                <Show when=any_in_progress>
                    <ConfirmButton label="Cancel deployment" question="Cancel the environment's deployment?"
                        consequence="Every action running or waiting in this environment stops; what has finished stays as it is."
                        class="button button--secondary"
                        disabled=Signal::derive(move || act.pending().get() || permitted.refusal().is_some())
                        title=Signal::derive(move || permitted.refusal())
                        on_confirm=move |()| { act.dispatch_local(EnvironmentAction::Cancel); }/>
                </Show>
                <Show when=any_restarts>
                    <button type="button" class="button button--ghost" disabled=disabled
                        title=refusal on:click=move |_| { act.dispatch_local(EnvironmentAction::Restart); }>
                        "Restart all"
                    </button>
                </Show>
                <Show when=any_runs>
                    <ConfirmButton label="Stop all" question="Stop every service of this environment?"
                        consequence="Each running service stops; its data and configuration are kept, and a deploy starts it again."
                        class="button button--ghost"
                        disabled=Signal::derive(disabled) title=Signal::derive(refusal)
                        on_confirm=move |()| { act.dispatch_local(EnvironmentAction::Stop); }/>
                </Show>
                <Show when=any_deployed>
                    <button type="button" class="button button--ghost" disabled=disabled
                        title=move || refusal().unwrap_or_else(|| "Deploy again the version each deployed service runs".into())
                        on:click=move |_| { act.dispatch_local(EnvironmentAction::Redeploy); }>
                        "Redeploy all"
                    </button>
                </Show>
                <button type="button" class="button button--primary" disabled=disabled
                    title=refusal on:click=move |_| { act.dispatch_local(EnvironmentAction::Deploy); }>
                    "Deploy all"
                </button>
            </div>
        </Show>
    }
}

/// What the environment's actions need to know of its statuses.
#[derive(Clone, Copy, PartialEq)]
struct Summary {
    has_services: bool,
    any_runs: bool,
    /// A service runs of a kind the platform restarts.
    any_restarts: bool,
    any_deployed: bool,
    any_in_progress: bool,
}

impl Summary {
    fn of(answer: &Result<EnvironmentStatuses, ApiError>) -> Self {
        let statuses = answer.as_ref().ok();
        Self {
            has_services: statuses.is_some_and(|s| s.all().next().is_some()),
            any_runs: statuses.is_some_and(|s| s.all().any(Status::runs)),
            any_restarts: statuses.is_some_and(|s| {
                s.all().any(|status| {
                    status.runs() && s.kind_of(status.id).is_some_and(ServiceType::restarts)
                })
            }),
            any_deployed: statuses.is_some_and(|s| {
                s.all().any(|status| {
                    status.service_deployment_status != DeploymentStatus::NeverDeployed
                })
            }),
            any_in_progress: statuses.is_some_and(EnvironmentStatuses::any_in_progress),
        }
    }
}
