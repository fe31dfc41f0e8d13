//! `/organization/:org/project/:project/overview`: the project's environments with their mode, and
//! a form to create one.

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{Environment, EnvironmentMode, EnvironmentRequest, FieldError};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::empty_state::EmptyState;
use crate::components::form::Form;
use crate::components::form_field::{SelectField, TextField};
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::routes::{param_id, paths};

#[component]
pub fn ProjectOverview() -> impl IntoView {
    let api = use_api();
    let org = param_id("org");
    let project = param_id("project");
    let environments = LocalResource::new(move || {
        let ids = org.get().zip(project.get());
        async move {
            let (org, project) =
                ids.ok_or_else(|| ApiError::NotFound("The address names no project.".into()))?;
            api.environments(project)
                .await
                .map(|list| (org, project, list))
        }
    });

    view! {
        <div class="page__header">
            <h1>"Environments"</h1>
            <p class="page__lead">"Each environment runs one copy of the project's services."</p>
        </div>
        <section class="card" aria-labelledby="environments-title">
            <h2 id="environments-title">"All environments"</h2>
            {loaded(environments, 3, |(org, project, environments)| view! {
                <EnvironmentTable org project environments/>
            })}
        </section>
        {move || project.get().map(|project| view! {
            <CreateEnvironment project on_created=Callback::new(move |_| environments.refetch())/>
        })}
    }
}

#[component]
fn EnvironmentTable(org: Uuid, project: Uuid, environments: Vec<Environment>) -> impl IntoView {
    if environments.is_empty() {
        return view! {
            <EmptyState title="No environment yet"
                hint="Create one with the form below: production, staging, a preview…"/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr><th scope="col">"Name"</th><th scope="col">"Mode"</th><th scope="col">"Created"</th></tr></thead>
            <tbody>
                {environments.into_iter().map(|environment| view! {
                    <tr>
                        <td><A href=paths::environment(org, project, environment.id)>{environment.name}</A></td>
                        <td><ModeTag mode=environment.mode/></td>
                        <td><RelativeTime at=environment.created_at/></td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn ModeTag(mode: EnvironmentMode) -> impl IntoView {
    view! {
        <span class=format!("tag tag--{}", mode.as_str().to_lowercase())>{mode.label()}</span>
    }
}

#[component]
fn CreateEnvironment(project: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let mode = RwSignal::new(EnvironmentMode::Development.as_str().to_string());
    let form = Form::new(
        move |request: EnvironmentRequest| async move {
            api.create_environment(project, &request).await
        },
        move |environment: Environment| {
            name.set(String::new());
            on_created.run(());
            format!("Environment {} created.", environment.name)
        },
    );
    let errors = form.errors;

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let Ok(mode) = mode.get_untracked().parse::<EnvironmentMode>() else {
            errors.set(vec![FieldError::new(
                "mode",
                "must be one of the modes listed",
            )]);
            return;
        };
        let request = EnvironmentRequest {
            name: name.get_untracked().trim().to_string(),
            mode,
            cluster_id: None,
        };
        let checked = request.validate();
        form.submit(request, checked);
    };

    let modes = EnvironmentMode::ALL
        .iter()
        .map(|mode| (mode.as_str(), mode.label()))
        .collect();
    view! {
        <form class="card form-inline" on:submit=submit novalidate aria-label="Create an environment">
            <h2>"New environment"</h2>
            <div class="form-inline__fields">
                <TextField label="Name" name="name" value=name errors required=true placeholder="staging"/>
                <SelectField label="Mode" name="mode" value=mode options=modes errors/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Create environment"
            </button>
        </form>
    }
}
