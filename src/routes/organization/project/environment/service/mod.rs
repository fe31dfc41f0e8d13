//! `.../service/:service/...`: the pages of one service, of any kind.

mod commit_picker;
mod connection;
pub mod deployments;
mod facts;
pub mod logs;
pub mod overview;
pub mod settings;
pub mod variables;

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;
use platform_api::{DeploymentStatus, ServiceType, Status};
use uuid::Uuid;

use crate::api::service::ServiceRecord;
use crate::api::{use_api, ApiError};
use crate::routes::{param_id, paths};

/// The service the address names: its id, its kind and its record, what every service page
/// starts from.
#[derive(Clone, Copy)]
pub struct AddressedService {
    pub id: Memo<Option<Uuid>>,
    pub kind: LocalResource<Result<ServiceType, ApiError>>,
    pub record: LocalResource<Result<ServiceRecord, ApiError>>,
}

pub fn no_service() -> ApiError {
    ApiError::NotFound("The address names no service.".into())
}

pub fn use_addressed_service() -> AddressedService {
    let api = use_api();
    let (environment, id) = (param_id("env"), param_id("service"));
    // The address does not say the kind; the environment's statuses do.
    let kind = LocalResource::new(move || {
        let (environment, id) = (environment.get(), id.get());
        async move {
            match (environment, id) {
                (Some(environment), Some(id)) => api.service_kind(environment, id).await,
                _ => Err(no_service()),
            }
        }
    });
    let record = LocalResource::new(move || {
        let id = id.get();
        async move { api.service(kind.await?, id.ok_or_else(no_service)?).await }
    });
    AddressedService { id, kind, record }
}

/// The service's name and kind, as a page title.
#[component]
pub fn ServiceTitle(service: AddressedService) -> impl IntoView {
    view! {
        <div>
            <h1>{move || service.record.get().and_then(Result::ok).map(|r| r.name().to_string())}</h1>
            <p class="page__lead">{move || service.kind.get().and_then(Result::ok).map(ServiceType::noun)}</p>
        </div>
    }
}

/// Links between the pages of one service, the current one marked; no Variables for a
/// database, which holds none.
#[component]
pub fn ServiceTabs(service: AddressedService) -> impl IntoView {
    let database = move || service.kind.get().and_then(Result::ok) == Some(ServiceType::Database);
    let (org, project, environment) = (param_id("org"), param_id("project"), param_id("env"));
    let location = use_location();
    let tabs = move || {
        let (Some(org), Some(project), Some(environment), Some(service)) = (
            org.get(),
            project.get(),
            environment.get(),
            service.id.get(),
        ) else {
            return Vec::new();
        };
        let mut tabs = vec![
            (
                "Overview",
                paths::service(org, project, environment, service),
            ),
            (
                "Deployments",
                paths::service_deployments(org, project, environment, service),
            ),
            (
                "Logs",
                paths::service_logs(org, project, environment, service),
            ),
            (
                "Variables",
                paths::service_variables(org, project, environment, service),
            ),
            (
                "Settings",
                paths::service_settings(org, project, environment, service),
            ),
        ];
        if database() {
            tabs.retain(|(label, _)| *label != "Variables");
        }
        tabs
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

/// Whether the service runs older settings or variables than it has: changed since its last
/// deployment.
#[derive(Clone, Copy)]
pub struct OutOfDate(LocalResource<Result<Status, ApiError>>);

impl OutOfDate {
    pub fn of(service: AddressedService) -> Self {
        let api = use_api();
        Self(LocalResource::new(move || {
            let id = service.id.get();
            async move {
                api.service_status(service.kind.await?, id.ok_or_else(no_service)?)
                    .await
            }
        }))
    }

    /// Reads it again, after a change.
    pub fn refresh(&self) {
        self.0.refetch();
    }

    fn get(&self) -> bool {
        self.0
            .get()
            .and_then(Result::ok)
            .is_some_and(|s| s.service_deployment_status == DeploymentStatus::OutOfDate)
    }
}

/// Says so while the service is out of date, with the way to the page that deploys it.
#[component]
pub fn OutOfDateNotice(out_of_date: OutOfDate) -> impl IntoView {
    let (org, project, environment, service) = (
        param_id("org"),
        param_id("project"),
        param_id("env"),
        param_id("service"),
    );
    let overview = move || match (org.get(), project.get(), environment.get(), service.get()) {
        (Some(org), Some(project), Some(environment), Some(service)) => {
            paths::service(org, project, environment, service)
        }
        _ => String::new(),
    };
    view! {
        <Show when=move || out_of_date.get()>
            <p class="notice notice--warning" role="status">
                "The service runs with older variables or settings: "
                <a href=overview>"deploy it"</a>
                " to apply the changes."
            </p>
        </Show>
    }
}
