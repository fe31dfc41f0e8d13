//! `.../service/:service/...`: the pages of one service, of any kind, inside one layout that
//! loads the service once (its kind, record and status) and shows its title, its actions and the
//! tabs around the page of the tab chosen, so that switching tabs fetches nothing again.

mod actions;
pub mod advanced_settings;
mod auto_deploy;
mod backups;
pub mod clone;
pub mod commit_picker;
mod connection;
pub mod deployments;
mod domains;
mod facts;
mod links;
pub mod logs;
pub mod monitoring;
pub mod overview;
pub mod overview_cards;
mod restrictions;
pub mod settings;
pub mod timeline;
pub mod variables;

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::components::{Outlet, A};
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use platform_api::audit::EventQuery;
use platform_api::{ActionStatus, DeploymentStatus, Link, ServiceType, Status, WireEnum};
use uuid::Uuid;

use crate::api::review::Place;
use crate::api::service::{QueuedPlace, ServiceAnswer};
use crate::api::{use_api, Api, ApiError};
use crate::components::deploy_review::Reviewed;
use crate::paths::{self, ServiceTab};
use crate::routes::address::{
    EnvironmentAddress, OrganizationAddress, ProjectAddress, ServiceAddress,
};
use crate::routes::current_id;
use crate::routes::organization::audit_log::HistoryOfChanges;
use crate::state::names_changed::{use_names_changed, NamesChanged};
use crate::state::polling::poll;
use crate::state::resource::resource;

use actions::ServiceActions;
use links::OpenLink;

/// How often the status of a service is polled while an action runs on it.
const POLL_ACTION: Duration = Duration::from_secs(1);

/// A service and its kind, found together: every read of the addressed service goes by this
/// pair, so that moving from one service to another never sends one's id with the other's kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    pub id: Uuid,
    pub kind: ServiceType,
}

/// The service the address names: its id, its record and its status, loaded once by the layout
/// for every tab.
#[derive(Clone, Copy)]
pub struct AddressedService {
    pub environment: Memo<Option<Uuid>>,
    pub id: Memo<Option<Uuid>>,
    /// Counts the changes of the address's service (`address`).
    changes: RwSignal<u32>,
    /// Its record as the frame reads it (`ServiceAnswer`): a tab that shows the whole record
    /// decodes it.
    pub record: LocalResource<Result<ServiceAnswer, ApiError>>,
    pub status: LocalResource<Result<Status, ApiError>>,
    /// Where the service is reached, read again with its record (a save may change its ports).
    pub links: LocalResource<Result<Vec<Link>, ApiError>>,
    kinds: Kinds,
    /// Where a save that renames the service says so.
    names: Option<NamesChanged>,
}

/// The address's service with its kind (`Api::service_kind`: known from a list or a creation,
/// or read once from the environment's list).
#[derive(Clone, Copy)]
struct Kinds {
    api: Api,
    environment: Memo<Option<Uuid>>,
}

impl Kinds {
    async fn of(self, id: Option<Uuid>) -> Result<Target, ApiError> {
        let id = id.ok_or_else(no_service)?;
        let environment = self.environment.get_untracked().ok_or_else(no_service)?;
        let kind = self.api.service_kind(environment, id).await?;
        Ok(Target { id, kind })
    }
}

impl AddressedService {
    /// The address's service, for a resource that reads it: the resource reads again at each
    /// change of address. Through a signal an effect sets: resources tracking the router's
    /// parameters themselves were seen to miss a move to another service.
    pub fn address(&self) -> Option<Uuid> {
        self.changes.track();
        self.id.get_untracked()
    }

    /// The service `id` (the address's, read by the caller so that its read follows the
    /// address) with its kind.
    pub async fn addressed(self, id: Option<Uuid>) -> Result<Target, ApiError> {
        self.kinds.of(id).await
    }

    /// The service the address names with its kind, once its record is read (not the previous
    /// service's while the next one's loads).
    pub fn target(&self) -> Option<Target> {
        let record = self.record.get()?.ok()?;
        let target = Target {
            id: record.id(),
            kind: record.kind(),
        };
        (Some(target.id) == self.id.get()).then_some(target)
    }

    pub fn kind(&self) -> Option<ServiceType> {
        self.target().map(|target| target.kind)
    }

    /// The status, once loaded.
    pub fn current(&self) -> Option<Status> {
        self.status.get().and_then(Result::ok)
    }

    /// The service as a review of its changes reads it, once its record is read.
    pub fn reviewed(self) -> Signal<Option<Reviewed>> {
        let (org, project, environment) = (
            current_id(|a: &OrganizationAddress| a.org),
            current_id(|a: &ProjectAddress| a.project),
            current_id(|a: &EnvironmentAddress| a.env),
        );
        Signal::derive(move || {
            let Target { id, kind } = self.target()?;
            let git = self.record.with(|record| {
                record
                    .as_ref()?
                    .as_ref()
                    .ok()
                    .map(|r| r.git_repository().is_some())
            })?;
            Some(Reviewed {
                kind,
                id,
                place: Place {
                    org: org.get()?,
                    project: project.get()?,
                    environment: environment.get()?,
                },
                git,
            })
        })
    }

    /// Whether the service runs older settings or variables than it has.
    pub fn out_of_date(&self) -> bool {
        self.current()
            .is_some_and(|s| s.service_deployment_status == DeploymentStatus::OutOfDate)
    }

    /// After a save, the service as the answer gives it, and its status as a change leaves it
    /// (`DeploymentStatus::after_change`): nothing read again.
    pub fn saved(&self, record: ServiceAnswer) {
        if let Some(names) = self.names {
            names.renamed(record.id(), record.name().to_string());
        }
        self.record.set(Some(Ok(record)));
        self.changed();
    }

    /// After a change of the service's settings or variables: its status as a change leaves it,
    /// nothing read again.
    pub fn changed(&self) {
        self.status.update(|status| {
            if let Some(Ok(status)) = status {
                status.service_deployment_status = status.service_deployment_status.after_change();
            }
        });
    }
}

pub fn no_service() -> ApiError {
    ApiError::NotFound("The address names no service.".into())
}

/// The service of the layout around the page.
pub fn use_addressed_service() -> AddressedService {
    expect_context::<AddressedService>()
}

fn address_service() -> AddressedService {
    let api = use_api();
    let (environment, id) = (
        current_id(|a: &EnvironmentAddress| a.env),
        current_id(|a: &ServiceAddress| a.service),
    );
    let kinds = Kinds { api, environment };
    let changes = RwSignal::new(0);
    Effect::new(move |before: Option<Option<Uuid>>| {
        let now = id.get();
        if before.is_some_and(|before| before != now) {
            changes.update(|count| *count += 1);
        }
        now
    });
    let address = move || {
        changes.track();
        id.get_untracked()
    };
    // Each read follows the address's service; the kind comes from the environment's list.
    let record = resource(move || {
        let id = address();
        async move {
            let target = kinds.of(id).await?;
            api.service_answer(target.kind, target.id).await
        }
    });
    let status = resource(move || {
        let (environment, id) = (environment.get_untracked(), address());
        async move {
            let target = kinds.of(id).await?;
            let environment = environment.ok_or_else(no_service)?;
            api.service_status(environment, target.kind, target.id)
                .await
        }
    });
    // Read again when a save changes the ports, not at every save.
    let reached = Memo::new(move |_| {
        record.with(|record| {
            let record = record.as_ref()?.as_ref().ok()?;
            Some((record.kind(), record.id(), record.ports().to_vec()))
        })
    });
    let links = resource(move || {
        let reached = reached.get();
        async move {
            match reached {
                Some((kind, id, _)) => api.service_links(kind, id).await,
                None => Ok(Vec::new()),
            }
        }
    });
    AddressedService {
        environment,
        id,
        changes,
        record,
        status,
        links,
        kinds,
        names: use_names_changed(),
    }
}

#[component]
pub fn ServiceLayout() -> impl IntoView {
    let service = address_service();
    provide_context(service);
    // Poll while an action runs; stop at a terminal state.
    poll(
        move || {
            service
                .current()
                .filter(|status| status.state.is_in_progress())
                .map(|_| POLL_ACTION)
        },
        move || service.status.refetch(),
    );
    // The record holds the deployed commit, which an action changes when it ends.
    Effect::new(move |was_in_progress: Option<bool>| {
        let now = service
            .current()
            .is_some_and(|status| status.state.is_in_progress());
        if was_in_progress == Some(true) && !now {
            service.record.refetch();
        }
        now
    });
    view! {
        <div class="page__header page__header--actions">
            <ServiceTitle service/>
            <ServiceActions service/>
        </div>
        <ServiceTabs service/>
        <QueuePlace service/>
        <OutOfDateNotice service/>
        <Outlet/>
    }
}

/// The service's name and kind, as a page title.
#[component]
fn ServiceTitle(service: AddressedService) -> impl IntoView {
    view! {
        <div>
            <h1>{move || service.record.get().and_then(Result::ok).map(|r| r.name().to_string())}</h1>
            <p class="page__lead">
                {move || service.kind().map(ServiceType::label)}" · "
                <OpenLink service/>
                {move || service.id.get().map(|id| view! {
                    <HistoryOfChanges query=EventQuery {
                        target_id: Some(id),
                        ..EventQuery::default()
                    }/>
                })}
            </p>
        </div>
    }
}

/// Links between the pages of one service, the current one marked; no Variables nor Advanced
/// settings for a database, which has neither; Monitoring for the kinds that run instances of
/// their own.
#[component]
fn ServiceTabs(service: AddressedService) -> impl IntoView {
    let (org, project, environment) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ProjectAddress| a.project),
        current_id(|a: &EnvironmentAddress| a.env),
    );
    let location = use_location();
    let tabs = move || {
        // Drawn once the kind is known, the tabs of that kind at once: a tab appearing or
        // going later would move the tabs after it under a person's pointer.
        let (Some(org), Some(project), Some(environment), Some(id), Some(kind)) = (
            org.get(),
            project.get(),
            environment.get(),
            service.id.get(),
            service.kind(),
        ) else {
            return Vec::new();
        };
        ServiceTab::ALL
            .iter()
            .filter(|tab| match tab {
                ServiceTab::Variables | ServiceTab::AdvancedSettings => {
                    kind != ServiceType::Database
                }
                ServiceTab::Monitoring => kind.has_instances(),
                _ => true,
            })
            .map(|&tab| {
                (
                    tab.label(),
                    paths::service_tab(org, project, environment, id, tab),
                )
            })
            .collect::<Vec<_>>()
    };
    view! {
        <nav class="tabs" aria-label="Service pages">
            {move || {
                let here = location.pathname.get();
                tabs()
                    .into_iter()
                    .map(|(label, href)| {
                        let current = (href == here).then_some("page");
                        view! { <A href=href attr:class="tabs__tab" attr:aria-current=current>{label}</A> }
                    })
                    .collect_view()
            }}
        </nav>
    }
}

/// Where the service's queued action stands: its place in the engine's queue and what it waits
/// for, read again at each poll of the status (every second while it waits).
#[component]
fn QueuePlace(service: AddressedService) -> impl IntoView {
    let api = use_api();
    let queued = move || {
        service
            .current()
            .is_some_and(|status| status.status_details.status == ActionStatus::Queued)
    };
    let place = resource(move || {
        let (waiting, id) = (queued(), service.id.get());
        async move {
            match (waiting, id) {
                (true, Some(id)) => api.service_queue(id).await,
                _ => Ok(None),
            }
        }
    });
    let words = move || match place.get()? {
        Ok(Some(QueuedPlace {
            position: Some(position),
            waiting_for: Some(wait),
        })) => Some(format!(
            "Queued: number {position} in line. {}",
            wait.sentence()
        )),
        Ok(Some(_)) => Some("Queued: waiting for a worker.".to_string()),
        Ok(None) => Some("Starting: a worker has taken it.".to_string()),
        Err(_) => None,
    };
    view! {
        <Show when=queued>
            <p class="notice notice--info queue-place" role="status">
                {words}
            </p>
        </Show>
    }
}

/// Says so while the service runs older settings or variables than it has, with the way to
/// deploy it (the actions above).
#[component]
fn OutOfDateNotice(service: AddressedService) -> impl IntoView {
    view! {
        <Show when=move || service.out_of_date()>
            <p class="notice notice--warning" role="status">
                "The service runs with older variables or settings: deploy it to apply the changes."
            </p>
        </Show>
    }
}

/// A service's address without a tab (a link written by hand, an older bookmark): its overview,
/// the address replaced rather than a step added to the history.
#[component]
pub fn ServiceWithoutTab() -> impl IntoView {
    let location = use_location();
    let navigate = use_navigate();
    Effect::new(move |_| {
        let here = location.pathname.get_untracked();
        let overview = format!(
            "{}/{}",
            here.trim_end_matches('/'),
            ServiceTab::Overview.segment()
        );
        navigate(
            &overview,
            NavigateOptions {
                replace: true,
                ..NavigateOptions::default()
            },
        );
    });
}
