//! The forms that create a service in an environment, one per kind, behind a choice of kind: an
//! application built from git, a container run from a registry's image, a job, a helm chart, a
//! terraform service or a database.

use leptos::prelude::*;
use platform_api::{
    Application, ApplicationRequest, Container, ContainerRequest, Database, DatabaseAccessibility,
    DatabaseMode, DatabaseRequest, DatabaseType, GitRepositoryRequest, PortRequest, ServiceType,
};
use uuid::Uuid;

use crate::api::service::ServiceSummary;
use crate::api::use_api;
use crate::components::form::{Form, Numbers};
use crate::components::form_field::{EnumSelect, TextField};

use super::resources::{ResourceFields, Resources};
use super::service_form::helm::{new_helm, HelmForm};
use super::service_form::job::{new_job, JobForm};
use super::service_form::terraform::{new_terraform, TerraformForm};
use super::service_form::{chosen_id, RegistryField};

/// The kinds the console creates.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Application,
    Container,
    Job,
    Helm,
    Terraform,
    Database,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Application => "application",
            Kind::Container => "container",
            Kind::Job => "job",
            Kind::Helm => "helm",
            Kind::Terraform => "terraform",
            Kind::Database => "database",
        }
    }
}

#[component]
pub fn NewService(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let kind = RwSignal::new(Kind::Application);
    let choice = move |value: Kind, label: &'static str| {
        view! {
            <label class="checkbox">
                <input type="radio" name="service-kind" value=value.as_str()
                    checked=move || kind.get() == value on:change=move |_| kind.set(value)/>
                {label}
            </label>
        }
    };
    view! {
        <section class="card" aria-labelledby="new-service-title">
            <h2 id="new-service-title">"New service"</h2>
            <fieldset class="choices">
                <legend>"Kind"</legend>
                {choice(Kind::Application, "Application (built from git)")}
                {choice(Kind::Container, "Container (from an image)")}
                {choice(Kind::Job, "Job (runs to its end)")}
                {choice(Kind::Helm, "Helm chart")}
                {choice(Kind::Terraform, "Terraform")}
                {choice(Kind::Database, "Database")}
            </fieldset>
            {move || match kind.get() {
                Kind::Application => view! { <CreateApplication environment on_created/> }.into_any(),
                Kind::Container => view! { <CreateContainer org environment on_created/> }.into_any(),
                Kind::Job => view! { <CreateWithForm org environment kind=ServiceType::Job on_created/> }.into_any(),
                Kind::Helm => view! { <CreateWithForm org environment kind=ServiceType::Helm on_created/> }.into_any(),
                Kind::Terraform => view! { <CreateWithForm org environment kind=ServiceType::Terraform on_created/> }.into_any(),
                Kind::Database => view! { <CreateDatabase environment on_created/> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn CreateApplication(environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let url = RwSignal::new(String::new());
    let branch = RwSignal::new("main".to_string());
    let resources = Resources::new();
    let port = RwSignal::new(String::new());
    let form = Form::new(
        move |request: ApplicationRequest| async move {
            api.create_application(environment, &request).await
        },
        move |application: Application| {
            name.set(String::new());
            url.set(String::new());
            port.set(String::new());
            on_created.run(());
            format!("Application {} created.", application.name)
        },
    );
    let errors = form.errors;

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let typed = resources.read(&mut numbers);
        let ports = public_port(&mut numbers, &port.get_untracked());
        let branch = branch.get_untracked();
        let request = ApplicationRequest {
            name: name.get_untracked().trim().to_string(),
            description: None,
            git_repository: GitRepositoryRequest::for_url(
                &url.get_untracked(),
                (!branch.trim().is_empty()).then(|| branch.trim().to_string()),
            ),
            build_mode: platform_api::defaults::BUILD_MODE.to_string(),
            dockerfile_path: None,
            docker_target_build_stage: None,
            cpu: typed.cpu,
            memory: typed.memory,
            gpu: 0,
            min_running_instances: typed.min_running_instances,
            max_running_instances: typed.max_running_instances,
            auto_preview: false,
            auto_deploy: false,
            arguments: Vec::new(),
            entrypoint: None,
            ports,
            storage: Vec::new(),
            healthchecks: Default::default(),
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };

    view! {
        <form on:submit=submit novalidate aria-label="Create an application">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="web"/>
                <TextField label="Git repository URL" name="git_repository.url" value=url errors
                    required=true placeholder="https://git.example.com/acme/web.git"/>
                <TextField label="Branch" name="git_repository.branch" value=branch errors/>
                <ResourceFields resources errors/>
                <TextField label="Public port" name="ports[0].internal_port" value=port errors
                    input_type="number" placeholder="8080"
                    hint="The port it listens on; exposed on 443. Leave empty for none."/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Create application"
            </button>
        </form>
    }
}

/// A container runs an image of one of the organization's registries.
#[component]
fn CreateContainer(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let registry = RwSignal::new(String::new());
    let image = RwSignal::new(String::new());
    let tag = RwSignal::new("latest".to_string());
    let resources = Resources::new();
    let port = RwSignal::new(String::new());
    let form = Form::new(
        move |request: ContainerRequest| async move {
            api.create_container(environment, &request).await
        },
        move |container: Container| {
            name.set(String::new());
            image.set(String::new());
            port.set(String::new());
            on_created.run(());
            format!("Container {} created.", container.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let registry_id = match chosen_id("registry_id", registry, "a registry") {
            Ok(id) => id,
            Err(problem) => return errors.set(vec![problem]),
        };
        let mut numbers = Numbers::default();
        let typed = resources.read(&mut numbers);
        let ports = public_port(&mut numbers, &port.get_untracked());
        let request = ContainerRequest {
            name: name.get_untracked().trim().to_string(),
            description: None,
            registry_id,
            image_name: image.get_untracked().trim().to_string(),
            tag: tag.get_untracked().trim().to_string(),
            cpu: typed.cpu,
            memory: typed.memory,
            gpu: 0,
            min_running_instances: typed.min_running_instances,
            max_running_instances: typed.max_running_instances,
            auto_deploy: false,
            auto_preview: false,
            arguments: Vec::new(),
            entrypoint: None,
            ports,
            storage: Vec::new(),
            healthchecks: Default::default(),
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Create a container">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="api"/>
                <RegistryField org name="registry_id" value=registry errors/>
                <TextField label="Image" name="image_name" value=image errors required=true
                    placeholder="acme/api"/>
                <TextField label="Tag" name="tag" value=tag errors required=true/>
                <ResourceFields resources errors/>
                <TextField label="Public port" name="ports[0].internal_port" value=port errors
                    input_type="number" placeholder="8080"
                    hint="The port it listens on; exposed on 443. Leave empty for none."/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Create container"
            </button>
        </form>
    }
}

/// A job, a helm chart or a terraform service, in the form that also changes it.
#[component]
fn CreateWithForm(
    org: Uuid,
    environment: Uuid,
    kind: ServiceType,
    on_created: Callback<()>,
) -> impl IntoView {
    fn form<R: serde::Serialize + Clone + 'static>(
        kind: ServiceType,
        environment: Uuid,
        on_created: Callback<()>,
    ) -> Form<R> {
        let api = use_api();
        Form::new(
            move |request: R| async move { api.create_service(kind, environment, &request).await },
            move |created: ServiceSummary| {
                on_created.run(());
                format!("{} {} created.", kind.noun(), created.name)
            },
        )
    }
    match kind {
        ServiceType::Helm => view! {
            <HelmForm org initial=new_helm() form=form(kind, environment, on_created)
                submit_label="Create helm service" purpose="Create a helm service"/>
        }
        .into_any(),
        ServiceType::Terraform => view! {
            <TerraformForm org initial=new_terraform() form=form(kind, environment, on_created)
                submit_label="Create terraform service" purpose="Create a terraform service"/>
        }
        .into_any(),
        _ => view! {
            <JobForm org initial=new_job() form=form(kind, environment, on_created)
                submit_label="Create job" purpose="Create a job"/>
        }
        .into_any(),
    }
}

#[component]
fn CreateDatabase(environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let database_type = RwSignal::new(DatabaseType::Postgresql);
    let version = RwSignal::new("16".to_string());
    let mode = RwSignal::new(DatabaseMode::Container);
    let accessibility = RwSignal::new(DatabaseAccessibility::Private);
    let cpu = RwSignal::new("250".to_string());
    let memory = RwSignal::new("256".to_string());
    let storage = RwSignal::new("10".to_string());
    let form = Form::new(
        move |request: DatabaseRequest| async move { api.create_database(environment, &request).await },
        move |database: Database| {
            name.set(String::new());
            on_created.run(());
            format!("Database {} created.", database.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let request = DatabaseRequest {
            name: name.get_untracked().trim().to_string(),
            description: None,
            database_type: database_type.get_untracked(),
            version: version.get_untracked().trim().to_string(),
            mode: mode.get_untracked(),
            accessibility: accessibility.get_untracked(),
            cpu: numbers.read("cpu", &cpu.get_untracked()),
            memory: numbers.read("memory", &memory.get_untracked()),
            storage: numbers.read("storage", &storage.get_untracked()),
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Create a database">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="orders-db"/>
                <EnumSelect label="Type" name="type" value=database_type errors/>
                <TextField label="Version" name="version" value=version errors required=true
                    placeholder="16" hint="A version number such as 16 or 8.0."/>
                <EnumSelect label="Mode" name="mode" value=mode errors/>
                <EnumSelect label="Reachable from" name="accessibility" value=accessibility errors/>
                <TextField label="CPU (milli-CPU)" name="cpu" value=cpu errors input_type="number"/>
                <TextField label="Memory (MiB)" name="memory" value=memory errors input_type="number"/>
                <TextField label="Storage (GiB)" name="storage" value=storage errors input_type="number"/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Create database"
            </button>
        </form>
    }
}

/// The port typed, as the service's one public port (on 443); none when left empty.
fn public_port(numbers: &mut Numbers, text: &str) -> Vec<PortRequest> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    vec![PortRequest {
        id: None,
        internal_port: numbers.read("ports[0].internal_port", text),
        external_port: Some(443),
        protocol: "HTTP".to_string(),
        publicly_accessible: true,
        name: None,
        is_default: Some(true),
    }]
}
