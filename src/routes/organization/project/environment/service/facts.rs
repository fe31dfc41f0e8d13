//! A service's settings as facts, in the terms of its kind: the frame's fields of its record
//! (`ServiceAnswer`) and the few more its kind shows (`ServiceFacts`).

use leptos::prelude::*;
use platform_api::{GitRepository, Port, WireEnum};

use crate::api::service::ServiceAnswer;
use crate::api::service_facts::{
    ApplicationFacts, ContainerFacts, DatabaseFacts, HelmFacts, JobFacts, ServiceFacts,
    TerraformFacts,
};
use crate::api::ApiError;
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

/// The facts of the service the frame read, or why they cannot be read.
pub fn facts_of(answer: &ServiceAnswer) -> Result<AnyView, ApiError> {
    let facts = match answer.facts()? {
        ServiceFacts::Application(facts) => application(answer, &facts),
        ServiceFacts::Container(facts) => container(answer, &facts),
        ServiceFacts::Database(facts) => database(answer, &facts),
        ServiceFacts::Job(facts) => job(answer, &facts),
        ServiceFacts::Helm(facts) => helm(answer, &facts),
        ServiceFacts::Terraform(facts) => terraform(answer, &facts),
    };
    let id = answer.id().to_string();
    Ok(view! {
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
    .into_any())
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

/// The repository's facts, where the service is built from one.
fn git_of(answer: &ServiceAnswer) -> Vec<Fact> {
    answer
        .git_repository()
        .map(git)
        .into_iter()
        .flatten()
        .collect()
}

fn application(answer: &ServiceAnswer, facts: &ApplicationFacts) -> Vec<Fact> {
    let mut shown = git_of(answer);
    shown.extend([
        text(
            "Build",
            format!(
                "{} · {}",
                facts.build_mode,
                facts.dockerfile_path.clone().unwrap_or_default()
            ),
        ),
        resources(facts.cpu, facts.memory),
        instances(facts.min_running_instances, facts.max_running_instances),
        ports(answer.ports()),
    ]);
    shown
}

fn container(answer: &ServiceAnswer, facts: &ContainerFacts) -> Vec<Fact> {
    vec![
        code(
            "Image",
            format!(
                "{}:{}",
                facts.image_name,
                answer.image_tag().unwrap_or_default()
            ),
        ),
        resources(facts.cpu, facts.memory),
        instances(facts.min_running_instances, facts.max_running_instances),
        ports(answer.ports()),
    ]
}

fn database(answer: &ServiceAnswer, facts: &DatabaseFacts) -> Vec<Fact> {
    let engine = answer
        .database_type()
        .map(|kind| kind.label())
        .unwrap_or_default();
    vec![
        text("Engine", format!("{engine} {}", facts.version)),
        text("Runs", facts.mode.label()),
        text("Reachable from", facts.accessibility.label()),
        text(
            "Resources",
            format!(
                "{} · {} · {} GiB of storage",
                format::cpu(facts.cpu),
                format::memory(facts.memory),
                facts.storage
            ),
        ),
    ]
}

fn job(answer: &ServiceAnswer, facts: &JobFacts) -> Vec<Fact> {
    let when = match &facts.schedule.cronjob {
        Some(cron) => code(
            "Schedule",
            format!("{} ({})", cron.scheduled_at, cron.timezone),
        ),
        None => text("Runs on", facts.schedule.events().join(", ")),
    };
    let job_type = answer
        .job_type()
        .map(|job_type| job_type.to_string())
        .unwrap_or_default();
    let mut shown = vec![text("Type", job_type), when];
    match (&facts.source.docker, &facts.source.image) {
        (Some(docker), _) => {
            shown.extend(git_of(answer));
            shown.push(match (&docker.dockerfile_raw, &docker.dockerfile_path) {
                (Some(_), _) => text("Dockerfile", "written with the job".to_string()),
                (None, path) => code("Dockerfile", path.clone().unwrap_or_default()),
            });
        }
        (None, Some(image)) => {
            shown.push(code("Image", format!("{}:{}", image.image_name, image.tag)))
        }
        (None, None) => {}
    }
    shown.push(resources(facts.cpu, facts.memory));
    shown
}

fn helm(answer: &ServiceAnswer, facts: &HelmFacts) -> Vec<Fact> {
    let mut shown = Vec::new();
    match (answer.git_repository(), &facts.source.repository) {
        (Some(repository), _) => {
            shown.extend(git(repository));
            let directory = repository.root_path.as_deref();
            shown.push(code("Chart", directory.unwrap_or("/").to_string()));
        }
        (None, Some(chart)) => shown.push(code(
            "Chart",
            format!(
                "{} {} from {}",
                chart.chart_name, chart.chart_version, chart.repository.name
            ),
        )),
        (None, None) => {}
    }
    shown.push(text("Timeout", format::duration(facts.timeout_sec)));
    shown
}

fn terraform(answer: &ServiceAnswer, facts: &TerraformFacts) -> Vec<Fact> {
    let mut shown = git_of(answer);
    let backend = if facts.backend.in_kubernetes() {
        "Kubernetes"
    } else {
        "User provided"
    };
    shown.extend([
        text("Engine", facts.engine.to_string()),
        text("State backend", backend),
        resources(facts.job_resources.cpu_milli, facts.job_resources.ram_mib),
        text("Timeout", format::duration(facts.timeout_sec)),
    ]);
    shown
}
