//! "Clone service…" on a service's settings: a copy of it with its variables and secrets (copied
//! by the server, never through the page) in this environment or another of the project; nothing
//! is deployed. The copy's page opens once it exists.

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{CloneServiceRequest, Cloned, Environment, ServiceType};
use uuid::Uuid;

use super::AddressedService;
use crate::api::service::ServiceSummary;
use crate::api::{use_api, ApiError};
use crate::components::fetched::FetchedContent;
use crate::components::form::{and_free_name, Form, SubmitButton};
use crate::components::form_field::{ChoiceField, FieldScope, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::{FetchedWhenOpened, NewDialog};
use crate::paths;
use crate::routes::address::{EnvironmentAddress, OrganizationAddress, ProjectAddress};
use crate::routes::current_id;
use crate::state::resource::resource;

/// What the form starts from: the service and where it is.
#[derive(Clone)]
struct Source {
    org: Uuid,
    project: Uuid,
    environment: Uuid,
    kind: ServiceType,
    id: Uuid,
}

#[component]
pub fn CloneService(service: AddressedService) -> impl IntoView {
    let LoadServiceClone(load) = expect_context();
    let content = move || -> FetchedContent { Box::pin(async move { Ok(load().await?(service)) }) };
    view! {
        <section class="card" aria-labelledby="clone-title">
            <h2 id="clone-title">"Copy this service"</h2>
            <p class="muted">"Its settings, variables and secrets go to the copy; its deployments do not."</p>
            <NewDialog label="Clone service…">
                <FetchedWhenOpened load=content/>
            </NewDialog>
        </section>
    }
}

/// Builds the clone's form for the service it copies.
pub type CloneServiceOf = fn(AddressedService) -> AnyView;

/// Fetches the clone when its dialog is first opened (behind the split point `app.rs` provides,
/// which hands back the function that builds the form): its code and its read of the project's
/// environments are no part of the service's settings until then.
#[derive(Clone, Copy)]
pub struct LoadServiceClone(
    pub fn() -> BoxFuture<'static, Result<CloneServiceOf, SplitLoaderError>>,
);

/// The clone's form, with the environments it offers, as the split point builds it.
pub fn clone_service_form(service: AddressedService) -> AnyView {
    let api = use_api();
    let (org, project, environment) = (
        current_id(|a: &OrganizationAddress| a.org),
        current_id(|a: &ProjectAddress| a.project),
        current_id(|a: &EnvironmentAddress| a.env),
    );
    // The copy's suggested name follows a rename; a save that keeps the name reads nothing again.
    let name = Memo::new(move |_| {
        service
            .record
            .get()
            .and_then(Result::ok)
            .map(|record| record.name().to_string())
    });
    let choices = resource(move || {
        let (org, project, environment) = (org.get(), project.get(), environment.get());
        let id = service.address();
        async move {
            let missing = || ApiError::NotFound("The address names no environment.".into());
            let (org, project, environment) = (
                org.ok_or_else(missing)?,
                project.ok_or_else(missing)?,
                environment.ok_or_else(missing)?,
            );
            let target = service.addressed(id).await?;
            let source = Source {
                org,
                project,
                environment,
                kind: target.kind,
                id: target.id,
            };
            Ok((source, api.environments(project).await?))
        }
    });
    (move || {
        name.get().map(|name| {
            loaded(choices, 3, move |(source, environments)| {
                let suggested = format!("{name}-copy");
                view! { <CloneForm source environments suggested/> }
            })
        })
    })
    .into_any()
}

#[component]
fn CloneForm(source: Source, environments: Vec<Environment>, suggested: String) -> impl IntoView {
    // Its fields' ids apart from those of the page's other forms.
    provide_context(FieldScope("clone".into()));
    let api = use_api();
    let navigate = use_navigate();
    let name = RwSignal::new(String::new());
    let target = RwSignal::new(source.environment);
    // The names taken in the environment chosen, to say so before sending.
    let taken = resource(move || {
        let environment = target.get();
        async move { api.services(environment).await }
    });
    let (kind, id) = (source.kind, source.id);
    let (org, project) = (source.org, source.project);
    let form = Form::new(
        move |request: CloneServiceRequest| async move {
            let environment = request.environment_id;
            let copy = api.clone_service(kind, id, &request).await?;
            Ok((environment, copy))
        },
        move |(environment, cloned): (Uuid, Cloned<ServiceSummary>)| {
            navigate(
                &paths::service(org, project, environment, cloned.copy.id),
                NavigateOptions::default(),
            );
            let copied = format!(
                "Service {} copied: deploy it when you are ready.",
                cloned.copy.name
            );
            match cloned.left_out_sentence() {
                Some(left_out) => format!("{copied} {left_out}"),
                None => copied,
            }
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = CloneServiceRequest {
            name: name.get_untracked().trim().to_string(),
            environment_id: target.get_untracked(),
        };
        let existing = taken
            .get_untracked()
            .and_then(Result::ok)
            .unwrap_or_default();
        let checked = and_free_name(
            request.validate(),
            &request.name,
            existing.iter().map(|service| service.name.as_str()),
            "environment",
        );
        form.submit(request, checked);
    };
    let options: Vec<(Uuid, String)> = environments
        .into_iter()
        .map(|environment| (environment.id, environment.name))
        .collect();
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Clone this service">
            <h2>"Clone service"</h2>
            <p class="muted">"Nothing is deployed until you deploy the copy."</p>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder=suggested/>
                <ChoiceField label="Environment" name="environment_id" value=target options errors/>
            </div>
            <SubmitButton form label="Clone"/>
        </form>
    }
}
