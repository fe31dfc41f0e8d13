//! A job's form: when it runs (a cron schedule in a timezone, or the environment's lifecycle
//! events), what it runs (built from git, or an image of a registry; arguments and entrypoint),
//! and with what (resources, longest run, restarts).

use leptos::prelude::*;
use platform_api::{
    CronJobSchedule, FieldError, GitRepositoryRequest, JobCommand, JobDockerSourceRequest,
    JobImageSourceRequest, JobLifecycleType, JobRequest, JobSchedule, JobSourceRequest, JobType,
    LifecycleTemplate,
};
use uuid::Uuid;

use super::job_template::{TemplatePicker, TemplateVariable};
use super::{chosen_id, GitFields, GitRepositoryFields, RegistryField, SourceChoice};
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{
    error_for, lines_of, optional_text, CheckboxField, EnumSelect, LinesField, TextField,
};
use crate::components::format;
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
                dockerfile_raw: None,
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
            .map(|at| format::day_and_time(*at))
            .collect();
        format!("Next: {}", times.join(", "))
    };
    view! { <p class="field__hint next-runs" aria-live="polite">{next}</p> }
}

/// What the job runs at one point (its cron schedule, or one lifecycle event), as typed.
#[derive(Clone, Copy)]
struct CommandFields {
    arguments: RwSignal<String>,
    entrypoint: RwSignal<String>,
}

impl CommandFields {
    fn of(command: &JobCommand) -> Self {
        Self {
            arguments: RwSignal::new(command.arguments.join("\n")),
            entrypoint: RwSignal::new(command.entrypoint.clone().unwrap_or_default()),
        }
    }

    fn set(self, command: &JobCommand) {
        self.arguments.set(command.arguments.join("\n"));
        self.entrypoint
            .set(command.entrypoint.clone().unwrap_or_default());
    }

    fn read(self) -> JobCommand {
        JobCommand {
            arguments: lines_of(self.arguments),
            entrypoint: optional_text(self.entrypoint),
        }
    }
}

/// The environment's lifecycle events: as the schedule names them, its field, and as the form
/// says them.
const EVENTS: [(&str, &str, &str); 3] = [
    ("on_start", "schedule.on_start", "starts"),
    ("on_stop", "schedule.on_stop", "stops"),
    ("on_delete", "schedule.on_delete", "is deleted"),
];

/// The schedule's command at each lifecycle event, in the order of `EVENTS`.
fn event_commands(schedule: &JobSchedule) -> [&Option<JobCommand>; 3] {
    [&schedule.on_start, &schedule.on_stop, &schedule.on_delete]
}

/// One lifecycle event: whether the job runs at it, and what it runs then.
#[derive(Clone, Copy)]
struct EventFields {
    chosen: RwSignal<bool>,
    command: CommandFields,
}

/// When the job runs and what it runs each time, as the form holds them.
#[derive(Clone, Copy)]
struct ScheduleFields {
    job_type: RwSignal<JobType>,
    schedule: RwSignal<String>,
    timezone: RwSignal<String>,
    cron: CommandFields,
    events: [EventFields; 3],
    lifecycle_type: RwSignal<Option<JobLifecycleType>>,
}

impl ScheduleFields {
    fn of(initial: &JobSchedule) -> Self {
        let cron = initial.cronjob.as_ref();
        // A command typed for one way of running carries over to the other when it is switched.
        let commands = event_commands(initial);
        let first_event = commands.iter().copied().flatten().next();
        let cron_command = cron.map(|cron| JobCommand {
            arguments: cron.arguments.clone(),
            entrypoint: cron.entrypoint.clone(),
        });
        let carried = cron_command
            .clone()
            .or(first_event.cloned())
            .unwrap_or_default();
        let events = commands.map(|command| EventFields {
            chosen: RwSignal::new(command.is_some()),
            command: CommandFields::of(command.as_ref().unwrap_or(&carried)),
        });
        // A new lifecycle job runs when its environment starts, unless told otherwise.
        if cron.is_none() && first_event.is_none() {
            events[0].chosen.set(true);
        }
        Self {
            job_type: RwSignal::new(initial.job_type()),
            schedule: RwSignal::new(cron.map_or("0 3 * * *".into(), |c| c.scheduled_at.clone())),
            timezone: RwSignal::new(cron.map_or("Etc/UTC".into(), |c| c.timezone.clone())),
            cron: CommandFields::of(&carried),
            events,
            lifecycle_type: RwSignal::new(initial.lifecycle_type),
        }
    }

    /// A template's events, each with its own command; the others not chosen.
    fn fill(self, template: &LifecycleTemplate) {
        let schedule = template.schedule();
        self.job_type.set(JobType::Lifecycle);
        for (fields, command) in self.events.iter().zip(event_commands(&schedule)) {
            fields.chosen.set(command.is_some());
            if let Some(command) = command {
                fields.command.set(command);
            }
        }
    }

    fn read(self) -> JobSchedule {
        match self.job_type.get_untracked() {
            JobType::Cron => {
                let command = self.cron.read();
                JobSchedule {
                    cronjob: Some(CronJobSchedule {
                        scheduled_at: self.schedule.get_untracked().trim().to_string(),
                        timezone: self.timezone.get_untracked().trim().to_string(),
                        arguments: command.arguments,
                        entrypoint: command.entrypoint,
                    }),
                    ..JobSchedule::default()
                }
            }
            JobType::Lifecycle | JobType::Other(_) => {
                let [on_start, on_stop, on_delete] = self
                    .events
                    .map(|event| event.chosen.get_untracked().then(|| event.command.read()));
                JobSchedule {
                    cronjob: None,
                    on_start,
                    on_stop,
                    on_delete,
                    lifecycle_type: Some(
                        self.lifecycle_type
                            .get_untracked()
                            .unwrap_or(JobLifecycleType::Generic),
                    ),
                }
            }
        }
    }
}

/// What the job runs at one point, named under `prefix` (`schedule.on_start`).
#[component]
fn CommandInputs(
    command: CommandFields,
    prefix: &'static str,
    /// Where it runs, said in the labels ("when it starts"), or nothing for a cron job.
    #[prop(optional)]
    when: &'static str,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let at = |label: &str| {
        format!(
            "{label}{}{when}",
            if when.is_empty() { "" } else { " when it " }
        )
    };
    view! {
        <TextField label=at("Entrypoint") name=format!("{prefix}.entrypoint") value=command.entrypoint errors
            hint="Leave empty for the image's own."/>
        <LinesField label=at("Arguments") name=format!("{prefix}.arguments")
            value=command.arguments errors hint="One per line, passed as they are."/>
    }
}

/// Where the job's code comes from, as the form holds it: built from git, or an image.
#[derive(Clone, Copy)]
struct SourceFields {
    from_git: RwSignal<bool>,
    git: GitFields,
    /// Whether the repository's Dockerfile is built, or the one written with the job.
    dockerfile_in_repository: RwSignal<bool>,
    dockerfile: RwSignal<String>,
    dockerfile_raw: RwSignal<String>,
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
            dockerfile_in_repository: RwSignal::new(
                docker.is_none_or(|d| d.dockerfile_raw.is_none()),
            ),
            dockerfile_raw: RwSignal::new(
                docker
                    .and_then(|d| d.dockerfile_raw.clone())
                    .unwrap_or_default(),
            ),
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
            let in_repository = self.dockerfile_in_repository.get_untracked();
            return Ok(JobSourceRequest {
                image: None,
                docker: Some(JobDockerSourceRequest {
                    git_repository: self.git.read(),
                    dockerfile_path: in_repository
                        .then(|| optional_text(self.dockerfile))
                        .flatten(),
                    dockerfile_raw: (!in_repository).then(|| self.dockerfile_raw.get_untracked()),
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

    /// A template's Dockerfile, built from the job's repository.
    fn fill(self, template: &LifecycleTemplate) {
        self.from_git.set(true);
        self.dockerfile_in_repository.set(false);
        self.dockerfile_raw.set(template.dockerfile.clone());
    }
}

/// A new job's start from a template of its environment's cloud, and the variables it reads.
#[derive(Clone, Copy)]
pub struct TemplateChoice {
    pub environment: Uuid,
    pub variables: RwSignal<Vec<TemplateVariable>>,
}

#[component]
pub fn JobForm(
    org: Uuid,
    initial: JobRequest,
    form: Form<JobRequest>,
    submit_label: &'static str,
    /// The form's accessible name.
    purpose: &'static str,
    /// A new job's templates: offered when it runs at lifecycle events.
    #[prop(optional)]
    template: Option<TemplateChoice>,
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
    let template_chosen = Callback::new(move |template: LifecycleTemplate| {
        when.fill(&template);
        source.fill(&template);
        cpu.set(template.resources.cpu_milli.to_string());
        memory.set(template.resources.ram_mib.to_string());
        max_duration.set(template.max_duration_in_sec.to_string());
        if description.get_untracked().trim().is_empty() {
            description.set(template.name.clone());
        }
    });

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
        let mut checked = numbers.and_rules(request.validate());
        if let Some(template) = template {
            let problems = TemplateVariable::check(&template.variables.get_untracked());
            if !problems.is_empty() {
                checked = Err(checked
                    .err()
                    .unwrap_or_default()
                    .into_iter()
                    .chain(problems)
                    .collect());
            }
        }
        form.submit(request, checked);
    };
    let events_error = error_for(errors, "schedule");
    let lifecycle = move || when.job_type.get() == JobType::Lifecycle;
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
                    <CommandInputs command=when.cron prefix="schedule.cronjob" errors/>
                </Show>
            </div>
            {template.map(|template| view! {
                <Show when=lifecycle>
                    <TemplatePicker environment=template.environment variables=template.variables
                        on_chosen=template_chosen errors/>
                </Show>
            })}
            <Show when=lifecycle>
                <fieldset class="choices" aria-describedby="field-schedule-error">
                    <legend>"Runs when the environment *"</legend>
                    {EVENTS.iter().zip(when.events).map(|((event, _, said), fields)| view! {
                        <label class="checkbox">
                            <input type="checkbox" name="schedule" value=*event bind:checked=fields.chosen/>
                            {*said}
                        </label>
                    }).collect_view()}
                    <p class="field__error" id="field-schedule-error">{move || events_error.get()}</p>
                </fieldset>
                <div class="form-grid">
                    {EVENTS.iter().zip(when.events).map(|((_, prefix, said), fields)| view! {
                        <Show when=move || fields.chosen.get()>
                            <CommandInputs command=fields.command prefix=*prefix when=*said errors/>
                        </Show>
                    }).collect_view()}
                </div>
            </Show>
            <SourceChoice legend="Source" name="job-source" first="Built from git"
                second="An image of a registry" first_chosen=source.from_git/>
            <div class="form-grid">
                {move || if source.from_git.get() {
                    view! {
                        <GitRepositoryFields git=source.git prefix="source.docker.git_repository" errors/>
                    }.into_any()
                } else {
                    view! {
                        <RegistryField org name="source.image.registry_id" value=source.registry errors/>
                        <TextField label="Image" name="source.image.image_name" value=source.image_name errors
                            required=true placeholder="acme/report"/>
                        <TextField label="Tag" name="source.image.tag" value=source.tag errors required=true/>
                    }.into_any()
                }}
            </div>
            <Show when=move || source.from_git.get()>
                <SourceChoice legend="Which Dockerfile is built" name="job-dockerfile" first="The repository's"
                    second="Written here" first_chosen=source.dockerfile_in_repository/>
                <div class="form-grid">
                    {move || if source.dockerfile_in_repository.get() {
                        view! {
                            <TextField label="Dockerfile path" name="source.docker.dockerfile_path"
                                value=source.dockerfile errors/>
                        }.into_any()
                    } else {
                        view! {
                            <LinesField label="Dockerfile" name="source.docker.dockerfile_raw"
                                value=source.dockerfile_raw errors
                                hint="Built in the repository's root path; it must say FROM which image."/>
                        }.into_any()
                    }}
                </div>
            </Show>
            <div class="form-grid">
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
