//! "Clone environment…" on an environment's page: a copy of it with its services, variables and
//! secrets (the server copies the secrets; they never pass through the page), in this project or
//! another, on its cluster or another. Nothing is deployed until someone deploys the copy, whose
//! page opens once it exists.

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{CloneEnvironmentRequest, Cloned, Environment, Project};
use uuid::Uuid;

use crate::api::cluster::ClusterChoice;
use crate::api::use_api;
use crate::components::fetched::FetchedContent;
use crate::components::form::{and_free_name, Form, SubmitButton};
use crate::components::form_field::{ChoiceField, EnumSelect, FieldScope, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::{FetchedWhenOpened, NewDialog};
use crate::paths;
use crate::state::resource::resource;

#[component]
pub fn CloneEnvironment(org: Uuid, source: Environment) -> impl IntoView {
    let LoadEnvironmentClone(load) = expect_context();
    let content = move || -> FetchedContent {
        let source = source.clone();
        Box::pin(async move { Ok(load().await?(org, source)) })
    };
    view! {
        <NewDialog label="Clone environment…">
            <FetchedWhenOpened load=content/>
        </NewDialog>
    }
}

/// Builds the clone's form for the environment it copies.
pub type CloneEnvironmentOf = fn(Uuid, Environment) -> AnyView;

/// Fetches the clone when its dialog is first opened (behind the split point `app.rs` provides,
/// which hands back the function that builds the form): its code and its reads of every project
/// and cluster are no part of the environment's settings until then.
#[derive(Clone, Copy)]
pub struct LoadEnvironmentClone(
    pub fn() -> BoxFuture<'static, Result<CloneEnvironmentOf, SplitLoaderError>>,
);

/// The clone's form, with the projects and clusters it offers, as the split point builds it.
pub fn clone_environment_form(org: Uuid, source: Environment) -> AnyView {
    let api = use_api();
    let choices =
        resource(
            move || async move { futures::try_join!(api.projects(org), api.cluster_choices(org)) },
        );
    loaded(choices, 3, move |(projects, clusters)| {
        view! { <CloneForm org source=source.clone() projects clusters/> }
    })
    .into_any()
}

#[component]
fn CloneForm(
    org: Uuid,
    source: Environment,
    projects: Vec<Project>,
    clusters: Vec<ClusterChoice>,
) -> impl IntoView {
    // Its fields' ids apart from those of the page's other forms.
    provide_context(FieldScope("clone".into()));
    let api = use_api();
    let navigate = use_navigate();
    let name = RwSignal::new(String::new());
    let suggested = format!("{}-copy", source.name);
    let mode = RwSignal::new(source.mode);
    let project = RwSignal::new(source.project.id);
    let cluster = RwSignal::new(source.cluster_id);
    // The names taken in the project chosen, to say so before sending.
    let taken = resource(move || {
        let project = project.get();
        async move { api.environments(project).await }
    });
    let source_id = source.id;
    let original = source.name.clone();
    let form = Form::new(
        move |request: CloneEnvironmentRequest| async move {
            api.clone_environment(source_id, &request).await
        },
        move |cloned: Cloned<Environment>| {
            let copy = &cloned.copy;
            navigate(
                &paths::environment(org, copy.project.id, copy.id),
                NavigateOptions::default(),
            );
            let copied = format!(
                "Environment {} copied from {original}: deploy it when you are ready.",
                copy.name
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
        let request = CloneEnvironmentRequest {
            name: name.get_untracked().trim().to_string(),
            cluster_id: Some(cluster.get_untracked()),
            mode: Some(mode.get_untracked()),
            apply_deployment_rule: None,
            project_id: Some(project.get_untracked()),
        };
        let existing = taken
            .get_untracked()
            .and_then(Result::ok)
            .unwrap_or_default();
        let checked = and_free_name(
            request.validate(),
            &request.name,
            existing.iter().map(|environment| environment.name.as_str()),
            "project",
        );
        form.submit(request, checked);
    };
    let project_options: Vec<(Uuid, String)> = projects
        .into_iter()
        .map(|project| (project.id, project.name))
        .collect();
    let cluster_options: Vec<(Uuid, String)> = clusters
        .into_iter()
        .map(|cluster| {
            let production = if cluster.production {
                " · production"
            } else {
                ""
            };
            (
                cluster.id,
                format!("{} ({}{production})", cluster.name, cluster.region),
            )
        })
        .collect();
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Clone this environment">
            <h2>"Clone environment"</h2>
            <p class="muted">
                "Its services, variables and secrets are copied; nothing is deployed until you deploy the copy."
            </p>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder=suggested/>
                <EnumSelect label="Mode" name="mode" value=mode errors/>
                <ChoiceField label="Project" name="project_id" value=project options=project_options errors/>
                <ChoiceField label="Cluster" name="cluster_id" value=cluster options=cluster_options errors/>
            </div>
            <SubmitButton form label="Clone"/>
        </form>
    }
}
