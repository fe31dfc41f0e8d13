//! The forms that create a service in an environment, one per kind offered, behind a choice of
//! kind: an application built from git, a container run from a registry's image, a job, or a
//! database.

use leptos::prelude::*;
use platform_api::{
    Application, ApplicationRequest, Container, ContainerRequest, CronJobSchedule, Database,
    DatabaseAccessibility, DatabaseMode, DatabaseRequest, DatabaseType, FieldError,
    GitRepositoryRequest, Job, JobCommand, JobDockerSourceRequest, JobImageSourceRequest,
    JobLifecycleType, JobRequest, JobSchedule, JobSourceRequest, JobType, PortRequest,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::form::{Form, Numbers};
use crate::components::form_field::{error_for, SelectField, TextField};
use crate::routes::paths;

use super::resources::{database_reach_options, ResourceFields, Resources};

/// The kinds the console creates.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Application,
    Container,
    Job,
    Database,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Application => "application",
            Kind::Container => "container",
            Kind::Job => "job",
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
                {choice(Kind::Database, "Database")}
            </fieldset>
            {move || match kind.get() {
                Kind::Application => view! { <CreateApplication environment on_created/> }.into_any(),
                Kind::Container => view! { <CreateContainer org environment on_created/> }.into_any(),
                Kind::Job => view! { <CreateJob org environment on_created/> }.into_any(),
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

/// A registry of the organization to take an image from: a select, or, when the organization has
/// none, the way to add one.
#[component]
fn RegistryField(
    org: Uuid,
    /// The request field it fills.
    name: &'static str,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let api = use_api();
    let registries = LocalResource::new(move || async move { api.container_registries(org).await });
    move || {
        Some(match registries.get()? {
            Err(error) => {
                view! { <p class="notice notice--error">{error.to_string()}</p> }.into_any()
            }
            Ok(list) if list.is_empty() => view! {
                <p class="notice notice--warning">
                    "Images come from a registry, and this organization has none yet: "
                    <a href=paths::container_registries(org)>"add one"</a> " first."
                </p>
            }
            .into_any(),
            Ok(list) => {
                if value.get_untracked().is_empty() {
                    value.set(list[0].id.to_string());
                }
                let options: Vec<(Uuid, String)> = list
                    .into_iter()
                    .map(|r| (r.id, format!("{} ({})", r.name, r.url)))
                    .collect();
                view! { <SelectField label="Registry" name value options errors required=true/> }
                    .into_any()
            }
        })
    }
}

/// A registry's id as chosen, or the error saying one is needed.
fn chosen_registry(field: &str, value: RwSignal<String>) -> Result<Uuid, FieldError> {
    value
        .get_untracked()
        .parse()
        .map_err(|_| FieldError::new(field, "is required: choose a registry"))
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
        let registry_id = match chosen_registry("registry_id", registry) {
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

/// A job runs to its end, on a schedule or at the environment's lifecycle events, built from git
/// or run from an image.
#[component]
fn CreateJob(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let job_type = RwSignal::new(JobType::Cron.as_str().to_string());
    let schedule = RwSignal::new("0 3 * * *".to_string());
    let timezone = RwSignal::new("Etc/UTC".to_string());
    // The environment's lifecycle events a LIFECYCLE job may run at, as the schedule names them.
    let events: Vec<(&'static str, &'static str, RwSignal<bool>)> = vec![
        ("on_start", "starts", RwSignal::new(true)),
        ("on_stop", "stops", RwSignal::new(false)),
        ("on_delete", "is deleted", RwSignal::new(false)),
    ];
    let from_git = RwSignal::new("git".to_string());
    let url = RwSignal::new(String::new());
    let branch = RwSignal::new("main".to_string());
    let dockerfile = RwSignal::new("Dockerfile".to_string());
    let registry = RwSignal::new(String::new());
    let image = RwSignal::new(String::new());
    let tag = RwSignal::new("latest".to_string());
    let cpu = RwSignal::new(platform_api::defaults::cpu().to_string());
    let memory = RwSignal::new(platform_api::defaults::memory().to_string());
    let max_duration = RwSignal::new("300".to_string());
    let form = Form::new(
        move |request: JobRequest| async move { api.create_job(environment, &request).await },
        move |job: Job| {
            name.set(String::new());
            on_created.run(());
            format!("Job {} created.", job.name)
        },
    );
    let errors = form.errors;
    let chosen_events = events.clone();
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let job_type: JobType = job_type.get_untracked().parse().unwrap_or(JobType::Cron);
        let source = if from_git.get_untracked() == "git" {
            JobSourceRequest {
                image: None,
                docker: Some(JobDockerSourceRequest {
                    git_repository: GitRepositoryRequest::for_url(
                        &url.get_untracked(),
                        Some(branch.get_untracked().trim().to_string()).filter(|b| !b.is_empty()),
                    ),
                    dockerfile_path: Some(dockerfile.get_untracked().trim().to_string())
                        .filter(|d| !d.is_empty()),
                }),
            }
        } else {
            let registry_id = match chosen_registry("source.image.registry_id", registry) {
                Ok(id) => id,
                Err(problem) => return errors.set(vec![problem]),
            };
            JobSourceRequest {
                image: Some(JobImageSourceRequest {
                    registry_id,
                    image_name: image.get_untracked().trim().to_string(),
                    tag: tag.get_untracked().trim().to_string(),
                }),
                docker: None,
            }
        };
        let mut numbers = Numbers::default();
        let request = JobRequest {
            name: name.get_untracked().trim().to_string(),
            description: None,
            schedule: job_schedule(
                job_type,
                &schedule.get_untracked(),
                &timezone.get_untracked(),
                |event| {
                    chosen_events
                        .iter()
                        .any(|(name, _, on)| *name == event && on.get_untracked())
                },
            ),
            source,
            cpu: numbers.read("cpu", &cpu.get_untracked()),
            memory: numbers.read("memory", &memory.get_untracked()),
            gpu: 0,
            max_nb_restart: 0,
            max_duration_seconds: numbers
                .read("max_duration_seconds", &max_duration.get_untracked()),
            auto_preview: None,
            auto_deploy: None,
            healthchecks: Default::default(),
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    let events_error = error_for(errors, "schedule");
    let types = vec![
        (JobType::Cron.as_str(), "On a schedule (cron)".to_string()),
        (
            JobType::Lifecycle.as_str(),
            "At the environment's lifecycle events".to_string(),
        ),
    ];
    let sources = vec![
        ("git", "Built from git".to_string()),
        ("image", "An image of a registry".to_string()),
    ];
    view! {
        <form on:submit=submit novalidate aria-label="Create a job">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="nightly-report"/>
                <SelectField label="Runs" name="job_type" value=job_type options=types errors/>
                <Show when=move || job_type.get() == JobType::Cron.as_str()>
                    <TextField label="Schedule" name="schedule.cronjob.scheduled_at" value=schedule errors
                        required=true hint="Five cron fields: minute hour day month weekday."/>
                    <TextField label="Timezone" name="schedule.cronjob.timezone" value=timezone errors
                        required=true hint="The schedule's timezone, e.g. Europe/Paris."/>
                </Show>
                <SelectField label="Source" name="source" value=from_git options=sources errors/>
                {move || if from_git.get() == "git" {
                    view! {
                        <TextField label="Git repository URL" name="source.docker.git_repository.url"
                            value=url errors required=true placeholder="https://git.example.com/acme/jobs.git"/>
                        <TextField label="Branch" name="source.docker.git_repository.branch" value=branch errors/>
                        <TextField label="Dockerfile" name="source.docker.dockerfile_path" value=dockerfile errors/>
                    }.into_any()
                } else {
                    view! {
                        <RegistryField org name="source.image.registry_id" value=registry errors/>
                        <TextField label="Image" name="source.image.image_name" value=image errors
                            required=true placeholder="acme/report"/>
                        <TextField label="Tag" name="source.image.tag" value=tag errors required=true/>
                    }.into_any()
                }}
                <TextField label="CPU (milli-CPU)" name="cpu" value=cpu errors input_type="number"/>
                <TextField label="Memory (MiB)" name="memory" value=memory errors input_type="number"/>
                <TextField label="Longest run (seconds)" name="max_duration_seconds" value=max_duration
                    errors input_type="number"/>
            </div>
            <Show when=move || job_type.get() == JobType::Lifecycle.as_str()>
                <fieldset class="choices" aria-describedby="field-schedule-error">
                    <legend>"Runs when the environment *"</legend>
                    {events.clone().into_iter().map(|(event, label, on)| view! {
                        <label class="checkbox">
                            <input type="checkbox" name="schedule" value=event bind:checked=on/>
                            {label}
                        </label>
                    }).collect_view()}
                    <p class="field__error" id="field-schedule-error">{move || events_error.get()}</p>
                </fieldset>
            </Show>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Create job"
            </button>
        </form>
    }
}

/// A job's schedule from the form: the cron expression and its timezone for a CRON job, or a
/// command (the image's own) at each lifecycle event `chosen` for a LIFECYCLE one.
fn job_schedule(
    job_type: JobType,
    cron: &str,
    timezone: &str,
    chosen: impl Fn(&str) -> bool,
) -> JobSchedule {
    match job_type {
        JobType::Cron => JobSchedule {
            cronjob: Some(CronJobSchedule {
                scheduled_at: cron.trim().to_string(),
                timezone: timezone.trim().to_string(),
                arguments: Vec::new(),
                entrypoint: None,
            }),
            ..JobSchedule::default()
        },
        JobType::Lifecycle => {
            let at = |event: &str| chosen(event).then(JobCommand::default);
            JobSchedule {
                cronjob: None,
                on_start: at("on_start"),
                on_stop: at("on_stop"),
                on_delete: at("on_delete"),
                lifecycle_type: Some(JobLifecycleType::Generic),
            }
        }
    }
}

#[component]
fn CreateDatabase(environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let database_type = RwSignal::new(DatabaseType::Postgresql.as_str().to_string());
    let version = RwSignal::new("16".to_string());
    let mode = RwSignal::new(DatabaseMode::Container.as_str().to_string());
    let accessibility = RwSignal::new(DatabaseAccessibility::Private.as_str().to_string());
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
            database_type: database_type
                .get_untracked()
                .parse()
                .unwrap_or(DatabaseType::Postgresql),
            version: version.get_untracked().trim().to_string(),
            mode: mode
                .get_untracked()
                .parse()
                .unwrap_or(DatabaseMode::Container),
            accessibility: accessibility
                .get_untracked()
                .parse()
                .unwrap_or(DatabaseAccessibility::Private),
            cpu: numbers.read("cpu", &cpu.get_untracked()),
            memory: numbers.read("memory", &memory.get_untracked()),
            storage: numbers.read("storage", &storage.get_untracked()),
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    let types: Vec<(&str, String)> = DatabaseType::ALL
        .iter()
        .map(|t| (t.as_str(), t.as_str().to_string()))
        .collect();
    view! {
        <form on:submit=submit novalidate aria-label="Create a database">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="orders-db"/>
                <SelectField label="Type" name="type" value=database_type options=types errors/>
                <TextField label="Version" name="version" value=version errors required=true
                    placeholder="16" hint="A version number such as 16 or 8.0."/>
                <SelectField label="Mode" name="mode" value=mode errors options=vec![
                    (DatabaseMode::Container.as_str(), "In the cluster (container)".to_string()),
                    (DatabaseMode::Managed.as_str(), "Managed by the cloud provider".to_string()),
                ]/>
                <SelectField label="Reachable from" name="accessibility" value=accessibility errors
                    options=database_reach_options()/>
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
