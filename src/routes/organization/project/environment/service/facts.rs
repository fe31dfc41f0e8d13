//! A service's settings as facts, in the terms of its kind.

use leptos::prelude::*;
use platform_api::{
    Application, Container, Database, GitRepository, HelmService, Job, Port, TerraformService,
    WireEnum,
};

use crate::api::service::ServiceRecord;
use crate::components::copy_button::CopyButton;
use crate::components::format;

/// One line of the settings: monospace for what a person copies (URLs, images, commits).
struct Fact {
    label: &'static str,
    value: String,
    code: bool,
}

fn text(label: &'static str, value: impl Into<String>) -> Fact {
    Fact {
        label,
        value: value.into(),
        code: false,
    }
}

fn code(label: &'static str, value: impl Into<String>) -> Fact {
    Fact {
        label,
        value: value.into(),
        code: true,
    }
}

#[component]
pub fn Facts(record: ServiceRecord) -> impl IntoView {
    let (id, facts) = match &record {
        ServiceRecord::Application(service) => (service.id, application(service)),
        ServiceRecord::Container(service) => (service.id, container(service)),
        ServiceRecord::Database(service) => (service.id, database(service)),
        ServiceRecord::Job(service) => (service.id, job(service)),
        ServiceRecord::Helm(service) => (service.id, helm(service)),
        ServiceRecord::Terraform(service) => (service.id, terraform(service)),
    };
    let id = id.to_string();
    view! {
        <dl class="facts">
            <dt>"Id"</dt>
            <dd class="mono">{id.clone()} " " <CopyButton text=id label="Copy the service id"/></dd>
            {facts
                .into_iter()
                .map(|fact| view! {
                    <dt>{fact.label}</dt>
                    <dd class:mono=fact.code>{fact.value}</dd>
                })
                .collect_view()}
        </dl>
    }
}

fn git(repository: &GitRepository) -> [Fact; 3] {
    [
        code("Repository", repository.url.clone()),
        text("Branch", repository.branch.clone().unwrap_or_default()),
        code(
            "Deployed commit",
            repository
                .deployed_commit_id
                .clone()
                .unwrap_or_else(|| "latest of the branch".into()),
        ),
    ]
}

fn resources(cpu_milli: i64, memory_mib: i64) -> Fact {
    text(
        "Resources",
        format!(
            "{} · {}",
            format::cpu(cpu_milli),
            format::memory(memory_mib)
        ),
    )
}

fn instances(min: i64, max: i64) -> Fact {
    text("Instances", format!("{min} to {max}"))
}

fn ports(ports: &[Port]) -> Fact {
    let described = ports
        .iter()
        .map(
            |port| match (port.publicly_accessible, port.external_port) {
                (true, Some(external)) => format!("{} → {external} public", port.internal_port),
                _ => format!("{} private", port.internal_port),
            },
        )
        .collect::<Vec<_>>()
        .join(", ");
    text(
        "Ports",
        if described.is_empty() {
            "none".to_string()
        } else {
            described
        },
    )
}

fn application(service: &Application) -> Vec<Fact> {
    let mut facts: Vec<Fact> = git(&service.git_repository).into();
    facts.extend([
        text(
            "Build",
            format!(
                "{} · {}",
                service.build_mode,
                service.dockerfile_path.clone().unwrap_or_default()
            ),
        ),
        resources(service.cpu, service.memory),
        instances(service.min_running_instances, service.max_running_instances),
        ports(&service.ports),
    ]);
    facts
}

fn container(service: &Container) -> Vec<Fact> {
    vec![
        code("Image", format!("{}:{}", service.image_name, service.tag)),
        resources(service.cpu, service.memory),
        instances(service.min_running_instances, service.max_running_instances),
        ports(&service.ports),
    ]
}

fn database(service: &Database) -> Vec<Fact> {
    vec![
        text(
            "Engine",
            format!("{} {}", service.database_type.label(), service.version),
        ),
        text("Runs", service.mode.label()),
        text("Reachable from", service.accessibility.label()),
        text(
            "Resources",
            format!(
                "{} · {} · {} GiB of storage",
                format::cpu(service.cpu),
                format::memory(service.memory),
                service.storage
            ),
        ),
    ]
}

fn job(service: &Job) -> Vec<Fact> {
    let when = match &service.schedule.cronjob {
        Some(cron) => code(
            "Schedule",
            format!("{} ({})", cron.scheduled_at, cron.timezone),
        ),
        None => text("Runs on", service.schedule.events().join(", ")),
    };
    let mut facts = vec![text("Type", service.job_type.to_string()), when];
    match (&service.source.docker, &service.source.image) {
        (Some(docker), _) => {
            facts.extend(git(&docker.git_repository));
            facts.push(match (&docker.dockerfile_raw, &docker.dockerfile_path) {
                (Some(_), _) => text("Dockerfile", "written with the job".to_string()),
                (None, path) => code("Dockerfile", path.clone().unwrap_or_default()),
            });
        }
        (None, Some(image)) => {
            facts.push(code("Image", format!("{}:{}", image.image_name, image.tag)))
        }
        (None, None) => {}
    }
    facts.push(resources(service.cpu, service.memory));
    facts
}

fn helm(service: &HelmService) -> Vec<Fact> {
    let mut facts = Vec::new();
    match (&service.source.git, &service.source.repository) {
        (Some(git_source), _) => {
            facts.extend(git(&git_source.git_repository));
            let directory = git_source.git_repository.root_path.as_deref();
            facts.push(code("Chart", directory.unwrap_or("/").to_string()));
        }
        (None, Some(source)) => facts.push(code(
            "Chart",
            format!(
                "{} {} from {}",
                source.chart_name, source.chart_version, source.repository.name
            ),
        )),
        (None, None) => {}
    }
    facts.push(text("Timeout", format::duration(service.timeout_sec)));
    facts
}

fn terraform(service: &TerraformService) -> Vec<Fact> {
    let mut facts: Vec<Fact> = git(&service.terraform_files_source.git.git_repository).into();
    let backend = if service.backend.kubernetes.is_some() {
        "Kubernetes"
    } else {
        "User provided"
    };
    facts.extend([
        text("Engine", service.engine.to_string()),
        text("State backend", backend),
        resources(
            service.job_resources.cpu_milli,
            service.job_resources.ram_mib,
        ),
        text("Timeout", format::duration(service.timeout_sec)),
    ]);
    facts
}
