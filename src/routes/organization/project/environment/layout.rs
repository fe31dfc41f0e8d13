//! `.../environment/:env/...`: the pages of one environment inside one layout that reads what
//! its tabs share once (its record, services, statuses and previews), keeps it fresh with one
//! poll, and shows its title, its actions and the tabs around the tab chosen: Services,
//! Deployments, Variables, Settings.

use std::collections::HashMap;
use std::time::Duration;

use leptos::prelude::*;
use leptos_router::components::{Outlet, A};
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use platform_api::audit::EventQuery;
use platform_api::{
    DeploymentStatus, Environment, EnvironmentPreviews, EnvironmentStatuses, RolePermission,
    ServiceType, Status, WireEnum,
};
use uuid::Uuid;

use crate::api::environment::EnvironmentAction;
use crate::api::environment::SelectedAction;
use crate::api::service::ServiceSummary;
use crate::api::{use_api, ApiError};
use crate::components::confirm_button::ConfirmButton;
use crate::components::deploy_review::{
    DeployReview, PendingDeploy, ReviewAgain, Reviewer, Reviewing, ServiceWithStatus,
};
use crate::paths::{self, EnvironmentTab};
use crate::routes::address::{EnvironmentAddress, OrganizationAddress, ProjectAddress};
use crate::routes::current_id;
use crate::routes::organization::audit_log::HistoryOfChanges;
use crate::state::polling::poll_for_page;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

use super::previews::PreviewOf;
use super::row_statuses::RowStatuses;
use crate::api::review::Place;

/// Poll often while something deploys, rarely when all is settled.
const POLL_BUSY: Duration = Duration::from_secs(2);
const POLL_SETTLED: Duration = Duration::from_secs(15);

/// What the environment's tabs share, read once by the layout for all of them.
#[derive(Clone, Copy)]
pub(super) struct EnvironmentPage {
    pub(super) ids: Memo<Option<Place>>,
    pub(super) record: LocalResource<Result<Environment, ApiError>>,
    pub(super) services: LocalResource<Result<(Place, Vec<ServiceSummary>), ApiError>>,
    pub(super) statuses: LocalResource<Result<EnvironmentStatuses, ApiError>>,
    pub(super) rows: RowStatuses,
    /// Its previews and what it previews, where the API says (`None` where it does not).
    pub(super) previews: LocalResource<Result<Option<EnvironmentPreviews>, ApiError>>,
}

impl EnvironmentPage {
    /// The services `keep` keeps, each with its status, and where they are: what the review of
    /// their deploy lists.
    pub(super) fn services_to_review(
        self,
        keep: impl Fn(&ServiceSummary, Option<&Status>) -> bool,
    ) -> Option<(Place, Vec<ServiceWithStatus>)> {
        let (ids, listed) = self.services.get_untracked()?.ok()?;
        let current = self.statuses.get_untracked().and_then(Result::ok);
        let by_id: HashMap<Uuid, &Status> = current
            .iter()
            .flat_map(|statuses| statuses.all())
            .map(|status| (status.id, status))
            .collect();
        let chosen = listed
            .into_iter()
            .filter_map(|service| {
                let status = by_id.get(&service.id).map(|status| (*status).clone());
                keep(&service, status.as_ref()).then_some((service, status))
            })
            .collect();
        Some((ids, chosen))
    }

    /// The services changed (one created or deleted): the list and the statuses are read again.
    pub(super) fn services_changed(&self) {
        self.services.refetch();
        self.statuses.refetch();
    }
}

pub(super) fn use_environment_page() -> EnvironmentPage {
    expect_context()
}

#[component]
pub fn EnvironmentLayout() -> impl IntoView {
    let api = use_api();
    let (org, project, environment) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ProjectAddress| a.project),
        current_id(|a: &EnvironmentAddress| a.env),
    );
    let ids = Memo::new(move |_| {
        Some(Place {
            org: org.get()?,
            project: project.get()?,
            environment: environment.get()?,
        })
    });
    let no_environment = || ApiError::NotFound("The address names no environment.".into());
    let environment_id = Memo::new(move |_| ids.get().map(|ids| ids.environment));
    let record = resource(move || {
        let id = environment_id.get();
        async move { api.environment(id.ok_or_else(no_environment)?).await }
    });
    let previews = resource(move || {
        let id = environment_id.get();
        async move {
            match id {
                Some(id) => api.environment_previews(id).await,
                None => Ok(None),
            }
        }
    });
    let services = resource(move || {
        let ids = ids.get();
        async move {
            let ids = ids.ok_or_else(no_environment)?;
            api.services(ids.environment).await.map(|list| (ids, list))
        }
    });
    let statuses = resource(move || {
        let id = environment_id.get();
        async move {
            api.environment_statuses(id.ok_or_else(no_environment)?)
                .await
        }
    });
    // Read once per answer, outside the suspense of the table (a read inside it would render the
    // whole table again at each poll).
    let summary = Memo::new(move |_| statuses.with(|answer| answer.as_ref().map(Summary::of)));
    let rows = RowStatuses::follow(statuses);
    // The page's one poll, set by each answer of the statuses: what must stay fresh (the
    // statuses, and the previews that come and go with branches where the API has them) is read
    // at its rhythm.
    poll_for_page(
        move || {
            statuses.with(|answer| match answer {
                Some(Ok(statuses)) if statuses.any_in_progress() => Some(POLL_BUSY),
                Some(_) => Some(POLL_SETTLED),
                None => None,
            })
        },
        move || {
            statuses.refetch();
            if matches!(previews.get_untracked(), Some(Ok(Some(_)))) {
                previews.refetch();
            }
        },
    );
    provide_context(EnvironmentPage {
        ids,
        record,
        services,
        statuses,
        rows,
        previews,
    });

    view! {
        <div class="page__header page__header--actions">
            <div>
                <h1>{move || record.get().and_then(Result::ok).map(|record| record.name)}</h1>
                <p class="page__lead">
                    {move || record.get().and_then(Result::ok).map(|record| view! {
                        <span class=format!("tag tag--{}", record.mode.as_str().to_ascii_lowercase())>
                            {record.mode.label()}
                        </span>
                    })}
                    " Statuses refresh on their own while this page is open. "
                    {move || environment_id.get().map(|environment| view! {
                        <HistoryOfChanges query=EventQuery {
                            service_environment_id: Some(environment),
                            ..EventQuery::default()
                        }/>
                    })}
                </p>
            </div>
            {move || environment_id.get().map(|environment| view! {
                <EnvironmentActions environment statuses summary/>
            })}
        </div>
        {move || ids.get().map(|ids| view! { <PreviewOf ids previews/> })}
        <EnvironmentTabs ids/>
        <Outlet/>
    }
}

#[component]
fn EnvironmentTabs(ids: Memo<Option<Place>>) -> impl IntoView {
    let location = use_location();
    view! {
        <nav class="tabs" aria-label="Environment pages">
            {move || {
                let here = location.pathname.get();
                let ids = ids.get()?;
                Some(EnvironmentTab::ALL
                    .iter()
                    .map(|&tab| {
                        let href = paths::environment_tab(ids.org, ids.project, ids.environment, tab);
                        let current = (href == here).then_some("page");
                        view! { <A href=href attr:class="tabs__tab" attr:aria-current=current>{tab.label()}</A> }
                    })
                    .collect_view())
            }}
        </nav>
    }
}

/// The environment's address without a tab (or an older version's `…/overview`): its first tab,
/// the address replaced.
#[component]
pub fn EnvironmentWithoutTab() -> impl IntoView {
    let navigate = use_navigate();
    let ids = use_environment_page().ids;
    Effect::new(move |_| {
        if let Some(ids) = ids.get() {
            navigate(
                &paths::environment(ids.org, ids.project, ids.environment),
                NavigateOptions {
                    replace: true,
                    ..NavigateOptions::default()
                },
            );
        }
    });
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
    let reviewer = Reviewer::new();
    // The environment's services with their statuses, those `keep` keeps, for a review.
    let page = use_environment_page();
    let out_of_date = move || {
        statuses.with(|answer| {
            answer
                .as_ref()
                .and_then(|a| a.as_ref().ok())
                .map_or(0, |s| {
                    s.all()
                        .filter(|s| s.service_deployment_status == DeploymentStatus::OutOfDate)
                        .count()
                })
        })
    };
    let deploy_out_of_date = Action::new_local(move |chosen: &Vec<(ServiceType, Uuid)>| {
        let chosen = chosen.clone();
        async move {
            match api
                .act_on_selected(environment, SelectedAction::Deploy, &chosen)
                .await
            {
                Ok(()) => toasts.success(format!("Deploy of {} out of date queued.", chosen.len())),
                Err(error) => toasts.error(error.to_string()),
            }
            statuses.refetch();
        }
    });
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
    let review = move |question: String, keep: fn(Option<&Status>) -> bool, run: Callback<()>| {
        let Some((place, services)) = page.services_to_review(|_, status| keep(status)) else {
            return run.run(());
        };
        reviewer.deploy(PendingDeploy {
            question,
            confirm: "Deploy",
            what: Reviewing::Several { place, services },
            run,
        });
    };
    let deploy_all = move |_| {
        review(
            "Deploy every service of the environment?".into(),
            |_| true,
            Callback::new(move |()| {
                act.dispatch_local(EnvironmentAction::Deploy);
            }),
        )
    };
    let review_out_of_date = move |_| {
        let stale = |status: Option<&Status>| {
            status.is_some_and(|s| s.service_deployment_status == DeploymentStatus::OutOfDate)
        };
        let Some((_, chosen)) = page.services_to_review(|_, status| stale(status)) else {
            return;
        };
        let named: Vec<(ServiceType, Uuid)> = chosen
            .iter()
            .map(|(service, _)| (service.service_type, service.id))
            .collect();
        review(
            format!("Deploy the {} out of date?", named.len()),
            stale,
            Callback::new(move |()| {
                deploy_out_of_date.dispatch_local(named.clone());
            }),
        )
    };
    view! {
        <Show when=has_services>
            <div class="actions">
                <p class="actions__refusal">{move || permitted.refusal()}</p>
                <ReviewAgain reviewer/>
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
                    <ConfirmButton label="Uninstall all" question="Uninstall every service of this environment?"
                        consequence="Each installed service's compute and data are deleted; its configuration and variables are kept, and a deploy installs it again."
                        class="button button--ghost"
                        disabled=Signal::derive(disabled) title=Signal::derive(refusal)
                        on_confirm=move |()| { act.dispatch_local(EnvironmentAction::Uninstall); }/>
                </Show>
                <Show when=any_deployed>
                    <button type="button" class="button button--ghost" disabled=disabled
                        title=move || refusal().unwrap_or_else(|| "Deploy again the version each deployed service runs".into())
                        on:click=move |_| { act.dispatch_local(EnvironmentAction::Redeploy); }>
                        "Redeploy all"
                    </button>
                </Show>
                <Show when=move || { out_of_date() > 0 }>
                    <button type="button" class="button button--secondary" disabled=disabled
                        title=refusal on:click=review_out_of_date>
                        {move || format!("Deploy the {} out of date", out_of_date())}
                    </button>
                </Show>
                <button type="button" class="button button--primary" disabled=disabled
                    title=refusal on:click=deploy_all>
                    "Deploy all"
                </button>
            </div>
            <DeployReview reviewer/>
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
