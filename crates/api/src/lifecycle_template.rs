//! Lifecycle job templates (`GET /environment/{id}/lifecycleTemplate` and `…/{templateId}`): a
//! ready-made lifecycle job for the environment's cloud (its Dockerfile, what it runs at each
//! event, its resources and the variables it reads), from which the console fills a new job.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::cloud::CloudProvider;
use crate::job::{JobCommand, JobSchedule};

/// A template as the list names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifecycleTemplateSummary {
    pub id: Uuid,
    pub name: String,
    pub description: String,
}

/// What the job runs at one event of its environment (`start`, `stop` or `delete`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifecycleTemplateEvent {
    pub name: String,
    #[serde(default)]
    pub entrypoint: Option<String>,
    pub command: Vec<String>,
}

/// What the job is given, at least.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifecycleTemplateResources {
    pub cpu_milli: i64,
    pub ram_mib: i64,
}

/// A file the variable is written to, instead of a value in the environment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifecycleTemplateFile {
    pub path: String,
    #[serde(default)]
    pub enable_interpolation: bool,
}

/// A variable the template's job reads, made on the new job with its default.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifecycleTemplateVariable {
    pub name: String,
    pub description: String,
    pub default: String,
    pub is_secret: bool,
    #[serde(default)]
    pub file: Option<LifecycleTemplateFile>,
}

/// A template, whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifecycleTemplate {
    pub id: Uuid,
    pub name: String,
    pub description: String,
    /// Where the template comes from.
    #[serde(rename = "sourceUrl")]
    pub source_url: String,
    pub cloud_provider: CloudProvider,
    pub events: Vec<LifecycleTemplateEvent>,
    /// The longest a run may take before it is stopped.
    pub max_duration_in_sec: i64,
    pub resources: LifecycleTemplateResources,
    pub variables: Vec<LifecycleTemplateVariable>,
    pub dockerfile: String,
}

impl LifecycleTemplate {
    pub fn summary(&self) -> LifecycleTemplateSummary {
        LifecycleTemplateSummary {
            id: self.id,
            name: self.name.clone(),
            description: self.description.clone(),
        }
    }

    /// The job's schedule: each event's command at its environment event; events of other
    /// names are not the platform's and are left out.
    pub fn schedule(&self) -> JobSchedule {
        let at = |name: &str| {
            self.events
                .iter()
                .find(|event| event.name.eq_ignore_ascii_case(name))
                .map(|event| JobCommand {
                    arguments: event.command.clone(),
                    entrypoint: event.entrypoint.clone(),
                })
        };
        JobSchedule {
            cronjob: None,
            on_start: at("start"),
            on_stop: at("stop"),
            on_delete: at("delete"),
            lifecycle_type: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_templates_events_are_its_jobs_schedule() {
        let template: LifecycleTemplate = serde_json::from_value(serde_json::json!({
            "id": Uuid::nil(), "name": "t", "description": "d", "sourceUrl": "urn:t",
            "cloud_provider": "AWS", "max_duration_in_sec": 60,
            "resources": {"cpu_milli": 500, "ram_mib": 512}, "variables": [], "dockerfile": "FROM x",
            "events": [
                {"name": "start", "command": ["apply"]},
                {"name": "DELETE", "entrypoint": "/run", "command": ["destroy"]},
                {"name": "rotate", "command": ["rotate"]}
            ]
        }))
        .unwrap();
        let schedule = template.schedule();
        assert_eq!(schedule.on_start.unwrap().arguments, ["apply"]);
        assert!(schedule.on_stop.is_none());
        let delete = schedule.on_delete.unwrap();
        assert_eq!(
            (delete.arguments, delete.entrypoint.as_deref()),
            (vec!["destroy".to_string()], Some("/run"))
        );
    }
}
