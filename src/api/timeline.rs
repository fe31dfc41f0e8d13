//! What happened to a service, an environment or the organization, as one story: deployments
//! from the deployment histories (who, which commit, the outcome), changes and actions from the
//! organization's events (who did them), and for a service what its cluster said of its
//! instances (out-of-memory kills, restarts, evictions, failed scheduling, scaling), read
//! through the production document's operations, one bounded page or range each. A source that
//! does not answer is named, and the others are shown.

use chrono::{DateTime, Utc};
use platform_api::audit::{EventQuery, EventType, OrganizationEvent};
use platform_api::history::{DeploymentHistoryEntry, EnvironmentDeployment};
use platform_api::monitoring::EventsParameters;
use platform_api::{ActionStatus, KubernetesEvent, ServiceType, StatusAction, WireEnum};
use uuid::Uuid;

use super::service::HistoryFilter;
use super::{Api, ApiError};

/// Entries read from each source at most: the newest of the range.
pub const PAGE: u32 = 100;

/// Whose story.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimelineScope {
    Organization,
    Environment(Uuid),
    Service {
        kind: ServiceType,
        id: Uuid,
        environment: Uuid,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntryKind {
    Deployment,
    Change,
    Action,
    /// What the cluster said of the service's instances.
    Instances,
}

impl EntryKind {
    pub const ALL: [EntryKind; 4] = [
        EntryKind::Deployment,
        EntryKind::Change,
        EntryKind::Action,
        EntryKind::Instances,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Deployment => "deployment",
            EntryKind::Change => "change",
            EntryKind::Action => "action",
            EntryKind::Instances => "instances",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    /// Its filter's words.
    pub fn plural(self) -> &'static str {
        match self {
            EntryKind::Deployment => "Deployments",
            EntryKind::Change => "Configuration changes",
            EntryKind::Action => "Actions",
            EntryKind::Instances => "Instances",
        }
    }

    /// One entry's word for it.
    pub fn singular(self) -> &'static str {
        match self {
            EntryKind::Deployment => "Deployment",
            EntryKind::Change => "Change",
            EntryKind::Action => "Action",
            EntryKind::Instances => "Instances",
        }
    }
}

/// Where an entry's detail is: a service's deployment, or a change in the audit log.
#[derive(Clone, Debug, PartialEq)]
pub enum EntryDetail {
    /// A service's deployment (its steps and log are on its deployments tab), in the
    /// environment of the page.
    Deployment { service: Uuid },
    /// The organization's event, found in the audit log by its target and time.
    Event(EventQuery),
    /// The service's instances: its monitoring around that time.
    Instances { service: Uuid },
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimelineEntry {
    pub at: DateTime<Utc>,
    pub kind: EntryKind,
    /// What happened, in words: "api deployed", "Updated application api".
    pub title: String,
    /// More of it: the commit, the change.
    pub detail: String,
    pub who: String,
    pub failed: bool,
    pub link: EntryDetail,
}

/// The story between `from` and now, newest first, and the sources that did not answer.
#[derive(Clone)]
pub struct Timeline {
    pub entries: Vec<TimelineEntry>,
    pub unanswered: Vec<String>,
}

impl Api {
    pub async fn timeline(
        &self,
        org: Uuid,
        scope: TimelineScope,
        from: DateTime<Utc>,
    ) -> Result<Timeline, ApiError> {
        let mut query = EventQuery {
            page_size: Some(i64::from(PAGE)),
            from_timestamp: Some(from.to_rfc3339()),
            ..EventQuery::default()
        };
        match scope {
            TimelineScope::Organization => {}
            TimelineScope::Environment(env) => query.service_environment_id = Some(env),
            TimelineScope::Service { id, .. } => query.target_id = Some(id),
        }
        let events = self.audit_events(org, &query);
        let deployments = async {
            match scope {
                TimelineScope::Organization => Ok(Vec::new()),
                TimelineScope::Service { kind, id, .. } => self
                    .service_history(kind, id, 1, PAGE, &HistoryFilter::default())
                    .await
                    .map(|page| page.results),
                TimelineScope::Environment(env) => self
                    .environment_history(env, 1, PAGE)
                    .await
                    .map(|page| page.results.iter().flat_map(services_of).collect()),
            }
        };
        let instances = async {
            match scope {
                TimelineScope::Service {
                    kind,
                    id,
                    environment,
                } if kind.has_instances() => self
                    .instance_events(kind, id, environment, from)
                    .await
                    .map(Some),
                _ => Ok(None),
            }
        };
        let (events, deployments, instances) = futures::join!(events, deployments, instances);
        let mut timeline = Timeline {
            entries: Vec::new(),
            unanswered: Vec::new(),
        };
        // A refused token is the session's end, not a source's silence.
        for error in [
            events.as_ref().err(),
            deployments.as_ref().err(),
            instances.as_ref().err(),
        ]
        .into_iter()
        .flatten()
        {
            if matches!(error, ApiError::Unauthorized(_)) {
                return Err(error.clone());
            }
        }
        // The histories tell deployments best: the events' own are left out where they are read.
        let from_histories = scope != TimelineScope::Organization && deployments.is_ok();
        match events {
            Ok(page) => timeline.entries.extend(
                page.events
                    .into_iter()
                    .filter(|event| !(from_histories && is_deployment(event.event_type)))
                    .map(|event| event_entry(event, &query)),
            ),
            Err(error) => timeline
                .unanswered
                .push(format!("The organization's events: {error}")),
        }
        match deployments {
            Ok(deployments) => timeline.entries.extend(
                deployments
                    .into_iter()
                    .filter(|entry| entry.auditing_data.created_at >= from)
                    .map(deployment_entry),
            ),
            Err(error) => timeline
                .unanswered
                .push(format!("The deployment history: {error}")),
        }
        match instances {
            Ok(Some((service, events))) => timeline.entries.extend(
                events
                    .into_iter()
                    .take(PAGE as usize)
                    .map(|event| instance_entry(event, service)),
            ),
            Ok(None) => {}
            Err(error) => timeline
                .unanswered
                .push(format!("What the cluster said of the instances: {error}")),
        }
        timeline
            .entries
            .sort_by_key(|entry| std::cmp::Reverse(entry.at));
        Ok(timeline)
    }
}

impl Api {
    /// What the service's cluster said of its instances since `from`: its Kubernetes events
    /// about the pods of its Deployment (a database's StatefulSet), the warnings and the scaling.
    async fn instance_events(
        &self,
        kind: ServiceType,
        id: Uuid,
        environment: Uuid,
        from: DateTime<Utc>,
    ) -> Result<(Uuid, Vec<KubernetesEvent>), ApiError> {
        let cluster = self.environment(environment).await?.cluster_id;
        let workload = self.workload(cluster, id, kind).await?;
        let Some(name) = workload.name else {
            return Ok((id, Vec::new()));
        };
        let parameters = EventsParameters {
            from_date_time: from.to_rfc3339(),
            to_date_time: Utc::now().to_rfc3339(),
            ..EventsParameters::default()
        };
        let events = self.cluster_events(cluster, &parameters).await?;
        let prefix = format!("{name}-");
        Ok((
            id,
            events
                .into_iter()
                .filter(|event| {
                    workload
                        .namespace
                        .as_ref()
                        .is_none_or(|namespace| &event.namespace == namespace)
                        && (event.name == name || event.name.starts_with(&prefix))
                        && (event.event_type == "Warning"
                            || SCALING.contains(&event.reason.as_str()))
                })
                .collect(),
        ))
    }
}

/// The reasons of the cluster's normal events that tell a scaling decision.
const SCALING: [&str; 2] = ["ScalingReplicaSet", "SuccessfulRescale"];

fn instance_entry(event: KubernetesEvent, service: Uuid) -> TimelineEntry {
    let times = match event.count {
        count if count > 1 => format!(" ({count} times)"),
        _ => String::new(),
    };
    TimelineEntry {
        at: event.last_occurrence,
        kind: EntryKind::Instances,
        title: format!("{}: {}{times}", event.reason, event.name),
        detail: event.message,
        who: String::new(),
        failed: event.event_type == "Warning",
        link: EntryDetail::Instances { service },
    }
}

fn services_of(deployment: &EnvironmentDeployment) -> Vec<DeploymentHistoryEntry> {
    deployment.services().cloned().collect()
}

/// The events that say a deployment was asked for, queued or done.
fn is_deployment(kind: EventType) -> bool {
    matches!(
        kind,
        EventType::DeployQueued
            | EventType::TriggerDeploy
            | EventType::TriggerRedeploy
            | EventType::Deployed
            | EventType::DeployedDryRun
            | EventType::DeployFailed
    )
}

fn event_entry(event: OrganizationEvent, query: &EventQuery) -> TimelineEntry {
    let kind = match event.event_type {
        kind if is_deployment(kind) => EntryKind::Deployment,
        EventType::Create
        | EventType::Update
        | EventType::Delete
        | EventType::Clone
        | EventType::Accept => EntryKind::Change,
        _ => EntryKind::Action,
    };
    let what = match event.sub_target_type {
        Some(sub) => format!("{} of ", sub.label().to_lowercase()),
        None => String::new(),
    };
    TimelineEntry {
        at: event.timestamp,
        kind,
        title: format!(
            "{} {what}{} {}",
            event.event_type.label(),
            event.target_type.label().to_lowercase(),
            event.target_name
        ),
        detail: changed_fields(&event),
        who: event.triggered_by.clone(),
        failed: event.event_type.as_str().ends_with("FAILED"),
        link: EntryDetail::Event(EventQuery {
            target_id: event.target_id,
            to_timestamp: Some(event.timestamp.to_rfc3339()),
            page_size: Some(20),
            ..query.clone()
        }),
    }
}

/// The fields an update changed, in words: "memory 512 → 1024, maximum_memory 512 → 1024";
/// nothing for a creation or a deletion (their title says it), secrets by name only.
fn changed_fields(event: &OrganizationEvent) -> String {
    const SHOWN: usize = 4;
    if event.event_type != EventType::Update {
        return String::new();
    }
    let value = |value: &Option<serde_json::Value>| {
        let text = match value {
            Some(serde_json::Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => "—".to_string(),
        };
        match text.char_indices().nth(40) {
            Some((end, _)) => format!("{}…", &text[..end]),
            None => text,
        }
    };
    let changes = event.field_changes();
    let mut said: Vec<String> = changes
        .iter()
        .take(SHOWN)
        .map(|change| {
            format!(
                "{} {} → {}",
                change.path,
                value(&change.before),
                value(&change.after)
            )
        })
        .collect();
    said.extend(
        event
            .changed_secrets
            .iter()
            .map(|secret| format!("secret {secret} set")),
    );
    if changes.len() > SHOWN {
        said.push(format!("and {} more", changes.len() - SHOWN));
    }
    said.join(", ")
}

fn deployment_entry(entry: DeploymentHistoryEntry) -> TimelineEntry {
    let action = entry.status_details.action;
    let outcome = entry.status_details.status;
    let done = match (action, outcome) {
        (StatusAction::Deploy, ActionStatus::Success) => "deployed".to_string(),
        (StatusAction::Deploy, ActionStatus::Error) => "deployment failed".to_string(),
        (_, ActionStatus::Success) => format!("{}: done", action.label().to_lowercase()),
        (_, status) => format!(
            "{}: {}",
            action.label().to_lowercase(),
            status.label().to_lowercase()
        ),
    };
    let detail = match (&entry.details.commit, &entry.details.tag) {
        (Some(commit), _) => format!(
            "{} {}",
            commit.git_commit_id.chars().take(8).collect::<String>(),
            commit.message.lines().next().unwrap_or_default()
        ),
        (None, Some(tag)) => format!("image tag {tag}"),
        (None, None) => String::new(),
    };
    TimelineEntry {
        at: entry.auditing_data.created_at,
        kind: EntryKind::Deployment,
        title: format!("{} {done}", entry.identifier.name),
        detail,
        who: entry.auditing_data.triggered_by.clone(),
        failed: outcome == ActionStatus::Error,
        link: EntryDetail::Deployment {
            service: entry.identifier.service_id,
        },
    }
}
