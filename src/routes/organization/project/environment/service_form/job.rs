//! A job's form: when it runs (a cron schedule in a timezone, or the environment's lifecycle
//! events), what it runs (built from git, or an image of a registry; arguments and entrypoint),
//! and with what (resources, longest run, restarts).

use leptos::prelude::*;
use platform_api::{
    CronJobSchedule, FieldError, GitRepositoryRequest, JobCommand, JobDockerSourceRequest,
    JobImageSourceRequest, JobLifecycleType, JobRequest, JobSchedule, JobSourceRequest, JobType,
};
use uuid::Uuid;

use super::{chosen_id, GitFields, GitRepositoryFields, RegistryField, SourceChoice};
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{
    error_for, lines_of, optional_text, CheckboxField, EnumSelect, TextField,
};
use crate::state::time_zones::{browser_zones, wall_clock_in};

/// A new job's request: nightly at 3, built from git.
pub fn new_job() -> JobRequest {
    JobRequest {
        name: String::new(),
        description: None,
        schedule: JobSchedule {
            cronjob: Some(CronJobSchedule {
                scheduled_at: "0 3 * * *".into(),
                timezone: "Etc/UTC".into(),
                arguments: Vec::new(),
                entrypoint: None,
            }),
            ..JobSchedule::default()
        },
        source: JobSourceRequest {
            image: None,
            docker: Some(JobDockerSourceRequest {
                git_repository: GitRepositoryRequest::for_url("", Some("main".into())),
                dockerfile_path: Some("Dockerfile".into()),
            }),
        },
        cpu: platform_api::defaults::cpu(),
        memory: platform_api::defaults::memory(),
        gpu: 0,
        max_nb_restart: 0,
        max_duration_seconds: 300,
        auto_preview: None,
        auto_deploy: None,
        healthchecks: Default::default(),
    }
}

/// How many of a schedule's next times the form shows.
const NEXT_RUNS_SHOWN: usize = 3;

/// The schedule's next times on the wall clock of its time zone, as it is typed ("Next: Mon 30
/// Nov 03:00, ..."), or why there are none.
#[component]
fn NextRuns(schedule: RwSignal<String>, timezone: RwSignal<String>) -> impl IntoView {
    let next = move || {
        let cron = match platform_api::cron::parse(&schedule.get()) {
            Ok(cron) => cron,
            Err(_) => return "Next: none until the schedule reads.".to_string(),
        };
        let zone = timezone.get();
        let Some(now) = wall_clock_in(zone.trim()) else {
            return format!("Next: unknown, this browser does not know the time zone {zone}.");
        };
        let times: Vec<String> = platform_api::cron::next_runs(&cron, now, NEXT_RUNS_SHOWN)
            .iter()
            .map(|at| at.format("%a %-d %b %H:%M").to_string())
            .collect();
        format!("Next: {}", times.join(", "))
    };
    view! { <p class="field__hint next-runs" aria-live="polite">{next}</p> }
}

/// What the job runs, wherever its schedule keeps it: the cron job's, else the first lifecycle
/// event's.
fn command_of(schedule: &JobSchedule) -> (Vec<String>, Option<String>) {
    if let Some(cron) = &schedule.cronjob {
        return (cron.arguments.clone(), cron.entrypoint.clone());
    }
    [&schedule.on_start, &schedule.on_stop, &schedule.on_delete]
        .into_iter()
        .flatten()
        .next()
        .map(|command| (command.arguments.clone(), command.entrypoint.clone()))
        .unwrap_or_default()
}

/// When the job runs and the command it runs, as the form holds them.
#[derive(Clone, Copy)]
struct ScheduleFields {
    job_type: RwSignal<JobType>,
    schedule: RwSignal<String>,
    timezone: RwSignal<String>,
    on_start: RwSignal<bool>,
    on_stop: RwSignal<bool>,
    on_delete: RwSignal<bool>,
    arguments: RwSignal<String>,
    entrypoint: RwSignal<String>,
}

impl ScheduleFields {
    fn of(initial: &JobSchedule) -> Self {
        let cron = initial.cronjob.as_ref();
        let (arguments, entrypoint) = command_of(initial);
        Self {
            job_type: RwSignal::new(initial.job_type()),
            schedule: RwSignal::new(cron.map_or("0 3 * * *".into(), |c| c.scheduled_at.clone())),
            timezone: RwSignal::new(cron.map_or("Etc/UTC".into(), |c| c.timezone.clone())),
            on_start: RwSignal::new(
                initial.on_start.is_some() || cron.is_none() && initial.events().is_empty(),
            ),
            on_stop: RwSignal::new(initial.on_stop.is_some()),
            on_delete: RwSignal::new(initial.on_delete.is_some()),
            arguments: RwSignal::new(arguments.join("\n")),
            entrypoint: RwSignal::new(entrypoint.unwrap_or_default()),
        }
    }

    fn read(self) -> JobSchedule {
        let command = JobCommand {
            arguments: lines_of(self.arguments),
            entrypoint: optional_text(self.entrypoint),
        };
        match self.job_type.get_untracked() {
            JobType::Cron => JobSchedule {
                cronjob: Some(CronJobSchedule {
                    scheduled_at: self.schedule.get_untracked().trim().to_string(),
                    timezone: self.timezone.get_untracked().trim().to_string(),
                    arguments: command.arguments,
                    entrypoint: command.entrypoint,
                }),
                ..JobSchedule::default()
            },
            JobType::Lifecycle | JobType::Other(_) => {
                let at = |chosen: RwSignal<bool>| chosen.get_untracked().then(|| command.clone());
                JobSchedule {
                    cronjob: None,
                    on_start: at(self.on_start),
                    on_stop: at(self.on_stop),
                    on_delete: at(self.on_delete),
                    lifecycle_type: Some(JobLifecycleType::Generic),
                }
            }
        }
    }
}

/// Where the job's code comes from, as the form holds it: built from git, or an image.
#[derive(Clone, Copy)]
struct SourceFields {
    from_git: RwSignal<bool>,
    git: GitFields,
    dockerfile: RwSignal<String>,
    registry: RwSignal<String>,
    image_name: RwSignal<String>,
    tag: RwSignal<String>,
}

impl SourceFields {
    fn of(initial: &JobSourceRequest) -> Self {
        let docker = initial.docker.as_ref();
        let image = initial.image.as_ref();
        Self {
            from_git: RwSignal::new(image.is_none()),
            git: GitFields::of(docker.map(|d| &d.git_repository)),
            dockerfile: RwSignal::new(
                docker
                    .and_then(|d| d.dockerfile_path.clone())
                    .unwrap_or_else(|| "Dockerfile".into()),
            ),
            registry: RwSignal::new(image.map(|i| i.registry_id.to_string()).unwrap_or_default()),
            image_name: RwSignal::new(image.map(|i| i.image_name.clone()).unwrap_or_default()),
            tag: RwSignal::new(image.map_or("latest".into(), |i| i.tag.clone())),
        }
    }

    /// The source, or the field left unchosen.
    fn read(self) -> Result<JobSourceRequest, FieldError> {
        if self.from_git.get_untracked() {
            return Ok(JobSourceRequest {
                image: None,
                docker: Some(JobDockerSourceRequest {
                    git_repository: self.git.read(),
                    dockerfile_path: optional_text(self.dockerfile),
                }),
            });
        }
        Ok(JobSourceRequest {
            image: Some(JobImageSourceRequest {
                registry_id: chosen_id("source.image.registry_id", self.registry, "a registry")?,
                image_name: self.image_name.get_untracked().trim().to_string(),
                tag: self.tag.get_untracked().trim().to_string(),
            }),
            docker: None,
        })
    }
}

#[component]
pub fn JobForm(
    org: Uuid,
    initial: JobRequest,
    form: Form<JobRequest>,
    submit_label: &'static str,
    /// The form's accessible name.
    purpose: &'static str,
) -> impl IntoView {
    let errors = form.errors;
    let name = RwSignal::new(initial.name.clone());
    let description = RwSignal::new(initial.description.clone().unwrap_or_default());
    let when = ScheduleFields::of(&initial.schedule);
    let source = SourceFields::of(&initial.source);
    let cpu = RwSignal::new(initial.cpu.to_string());
    let memory = RwSignal::new(initial.memory.to_string());
    let max_duration = RwSignal::new(initial.max_duration_seconds.to_string());
    let max_restarts = RwSignal::new(initial.max_nb_restart.to_string());
    let auto_deploy = RwSignal::new(initial.auto_deploy.unwrap_or(false));

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let source = match source.read() {
            Ok(source) => source,
            Err(problem) => return errors.set(vec![problem]),
        };
        let mut numbers = Numbers::default();
        let request = JobRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            schedule: when.read(),
            source,
            cpu: numbers.read("cpu", &cpu.get_untracked()),
            memory: numbers.read("memory", &memory.get_untracked()),
            max_duration_seconds: numbers
                .read("max_duration_seconds", &max_duration.get_untracked()),
            max_nb_restart: numbers.read("max_nb_restart", &max_restarts.get_untracked()),
            auto_deploy: Some(auto_deploy.get_untracked()),
            ..initial.clone()
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    let events_error = error_for(errors, "schedule");
    view! {
        <form on:submit=submit novalidate aria-label=purpose>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="nightly-report"/>
                <TextField label="Description" name="description" value=description errors/>
                <EnumSelect label="Runs" name="job_type" value=when.job_type errors/>
                <Show when=move || when.job_type.get() == JobType::Cron>
                    <TextField label="Schedule" name="schedule.cronjob.scheduled_at" value=when.schedule errors
                        required=true hint="Five cron fields: minute hour day month weekday."/>
                    <TextField label="Timezone" name="schedule.cronjob.timezone" value=when.timezone errors
                        required=true hint="The schedule's timezone, e.g. Europe/Paris."
                        suggestions=browser_zones()/>
                    <NextRuns schedule=when.schedule timezone=when.timezone/>
                </Show>
            </div>
            <Show when=move || when.job_type.get() == JobType::Lifecycle>
                <fieldset class="choices" aria-describedby="field-schedule-error">
                    <legend>"Runs when the environment *"</legend>
                    <label class="checkbox"><input type="checkbox" name="schedule" value="on_start" bind:checked=when.on_start/>"starts"</label>
                    <label class="checkbox"><input type="checkbox" name="schedule" value="on_stop" bind:checked=when.on_stop/>"stops"</label>
                    <label class="checkbox"><input type="checkbox" name="schedule" value="on_delete" bind:checked=when.on_delete/>"is deleted"</label>
                    <p class="field__error" id="field-schedule-error">{move || events_error.get()}</p>
                </fieldset>
            </Show>
            <SourceChoice legend="Source" name="job-source" first="Built from git"
                second="An image of a registry" first_chosen=source.from_git/>
            <div class="form-grid">
                {move || if source.from_git.get() {
                    view! {
                        <GitRepositoryFields git=source.git prefix="source.docker.git_repository" errors/>
                        <TextField label="Dockerfile" name="source.docker.dockerfile_path" value=source.dockerfile errors/>
                    }.into_any()
                } else {
                    view! {
                        <RegistryField org name="source.image.registry_id" value=source.registry errors/>
                        <TextField label="Image" name="source.image.image_name" value=source.image_name errors
                            required=true placeholder="acme/report"/>
                        <TextField label="Tag" name="source.image.tag" value=source.tag errors required=true/>
                    }.into_any()
                }}
                <TextField label="Entrypoint" name="schedule.entrypoint" value=when.entrypoint errors
                    hint="Leave empty for the image's own."/>
                <crate::components::form_field::LinesField label="Arguments" name="schedule.arguments"
                    value=when.arguments errors hint="One per line, passed as they are."/>
                <TextField label="CPU (milli-CPU)" name="cpu" value=cpu errors input_type="number"/>
                <TextField label="Memory (MiB)" name="memory" value=memory errors input_type="number"/>
                <TextField label="Longest run (seconds)" name="max_duration_seconds" value=max_duration
                    errors input_type="number"/>
                <TextField label="Restarts after a failure" name="max_nb_restart" value=max_restarts
                    errors input_type="number"/>
                <CheckboxField label="Deploy on every push" name="auto_deploy" checked=auto_deploy/>
            </div>
            <SubmitButton form label=submit_label/>
        </form>
    }
}
