//! An application's form: its git repository and how it is built (Dockerfile and target stage),
//! then what it shares with containers (command, resources, ports, volumes, probes, deployments).

use leptos::prelude::*;
use platform_api::{
    ApplicationRequest, DockerfileCheckRequest, GitRepositoryRequest, RuntimeRequest,
};
use uuid::Uuid;

use super::runtime::{RuntimeFields, RuntimeFieldsView};
use super::{GitFields, GitRepositoryFields};
use crate::api::use_api;
use crate::components::check_note::CheckNote;
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{optional_text, TextField};
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;
use crate::state::check::checked;

/// A new application's request: built from the `main` branch with its Dockerfile.
pub fn new_application() -> ApplicationRequest {
    ApplicationRequest {
        name: String::new(),
        description: None,
        git_repository: GitRepositoryRequest::for_url("", Some("main".into())),
        build_mode: platform_api::defaults::BUILD_MODE.to_string(),
        dockerfile_path: Some("Dockerfile".into()),
        docker_target_build_stage: None,
        runtime: RuntimeRequest::default(),
    }
}

#[component]
pub fn ApplicationForm(
    org: Uuid,
    initial: ApplicationRequest,
    form: Form<ApplicationRequest>,
    submit_label: &'static str,
    purpose: &'static str,
) -> impl IntoView {
    let errors = form.errors;
    let name = RwSignal::new(initial.name.clone());
    let description = RwSignal::new(initial.description.clone().unwrap_or_default());
    let git = GitFields::of(Some(&initial.git_repository));
    let dockerfile = RwSignal::new(initial.dockerfile_path.clone().unwrap_or_default());
    let target_stage = RwSignal::new(
        initial
            .docker_target_build_stage
            .clone()
            .unwrap_or_default(),
    );
    let runtime = RuntimeFields::of(&initial.runtime);
    // Whether the Dockerfile is in the repository at the branch, asked as the person types.
    let api = use_api();
    let environment = current_id(|a: &EnvironmentAddress| a.env);
    let dockerfile_found = checked(
        move || {
            git.track();
            let request = DockerfileCheckRequest {
                git_repository: git.read(),
                dockerfile_path: dockerfile.get().trim().to_string(),
            };
            request.validate().ok()?;
            Some((environment.get()?, request))
        },
        move |(environment, request): (Uuid, DockerfileCheckRequest)| async move {
            api.check_dockerfile(environment, &request).await
        },
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let request = ApplicationRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            git_repository: git.read(),
            dockerfile_path: optional_text(dockerfile),
            docker_target_build_stage: optional_text(target_stage),
            runtime: runtime.read(&mut numbers),
            ..initial.clone()
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label=purpose>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="web"/>
                <TextField label="Description" name="description" value=description errors/>
            </div>
            <fieldset class="form-section">
                <legend>"Source"</legend>
                <div class="form-grid">
                    <GitRepositoryFields git prefix="git_repository" errors
                        root_hint="Where the application is in the repository."/>
                    <TextField label="Dockerfile" name="dockerfile_path" value=dockerfile errors
                        hint="Built with Docker, from the root path."/>
                    <TextField label="Target stage" name="docker_target_build_stage" value=target_stage errors
                        hint="The stage of a multi-stage Dockerfile to build; empty for the last."/>
                </div>
                <CheckNote checked=dockerfile_found/>
            </fieldset>
            <RuntimeFieldsView org fields=runtime errors/>
            <SubmitButton form label=submit_label/>
        </form>
    }
}
