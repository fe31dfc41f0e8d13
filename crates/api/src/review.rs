//! What a deploy changes, read from what the platform keeps: the commits between the running
//! commit and the target (a branch's latest commits, newest first), and the changes the audit log
//! recorded on the service, and on the variables of its environment and project, since a moment
//! (the running deployment's start). A secret is named, never valued.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::audit::{diff, EventType, FieldChange, OrganizationEvent, SubTargetType, TargetType};
use crate::history::Commit;
use crate::variable::{EnvironmentVariable, VariableScope};

/// How the target's code stands against the running code.
#[derive(Clone, Debug, PartialEq)]
pub enum CodeChange {
    /// The target is the running commit.
    Same,
    /// The commits the target adds, newest first.
    Ahead(Vec<Commit>),
    /// The commits going back to the target takes away, newest first.
    Back(Vec<Commit>),
    /// One of the two is not among the commits read (older, or on another branch).
    Unknown,
}

/// The code change from `running` to `target` along `commits` (newest first).
pub fn code_change(commits: &[Commit], running: &str, target: &str) -> CodeChange {
    if running == target {
        return CodeChange::Same;
    }
    let at = |id: &str| commits.iter().position(|commit| commit.git_commit_id == id);
    match (at(running), at(target)) {
        (Some(running), Some(target)) if target < running => {
            CodeChange::Ahead(commits[target..running].to_vec())
        }
        (Some(running), Some(target)) => CodeChange::Back(commits[running..target].to_vec()),
        _ => CodeChange::Unknown,
    }
}

/// What became of a variable (or a secret) over the changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariableFate {
    Added,
    Changed,
    Removed,
}

impl VariableFate {
    pub fn label(self) -> &'static str {
        match self {
            VariableFate::Added => "added",
            VariableFate::Changed => "changed",
            VariableFate::Removed => "removed",
        }
    }
}

/// A variable or secret added, changed or removed at one scope.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableChange {
    /// Where it is defined: the project, the environment or the service (its kind).
    pub scope: TargetType,
    pub key: String,
    pub secret: bool,
    pub fate: VariableFate,
    /// The value before and after, for a variable; never a secret's.
    pub before: Option<String>,
    pub after: Option<String>,
}

/// One field of the service's configuration, from its value before the first change to its
/// value after the last.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingChange {
    /// What holds the field, where it is not the service's own record (advanced settings, a
    /// custom domain).
    pub part: Option<SubTargetType>,
    pub change: FieldChange,
}

/// What the audit log says changed, net of changes undone, and when and by whom the latest was.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigurationChanges {
    pub settings: Vec<SettingChange>,
    pub variables: Vec<VariableChange>,
    pub latest: Option<(DateTime<Utc>, String)>,
    /// Older changes were left unread (too many): the values before may be later ones.
    pub incomplete: bool,
}

impl ConfigurationChanges {
    /// Reads `events` (any order; of the service, its environment and its project): the
    /// service's own changes, and the variables of every scope.
    pub fn from_events(events: &[OrganizationEvent]) -> Self {
        let mut events: Vec<&OrganizationEvent> = events
            .iter()
            .filter(|event| {
                matches!(
                    event.event_type,
                    EventType::Create | EventType::Update | EventType::Delete
                )
            })
            .collect();
        events.sort_by_key(|event| event.timestamp);
        // By where they are and their name, in the order a person reads them.
        let mut settings: BTreeMap<(&str, String), SettingChange> = BTreeMap::new();
        let mut variables: BTreeMap<(&str, String), VariableHistory> = BTreeMap::new();
        let mut latest = None;
        for event in events {
            let counted = match event.sub_target_type {
                Some(SubTargetType::Variable | SubTargetType::Secret) => {
                    VariableHistory::add(&mut variables, event)
                }
                part if is_service(event.target_type) => {
                    for change in event.field_changes() {
                        settings
                            .entry((part.map_or("", |part| part.as_str()), change.path.clone()))
                            .and_modify(|kept| kept.change.after = change.after.clone())
                            .or_insert(SettingChange { part, change });
                    }
                    true
                }
                _ => false,
            };
            if counted {
                latest = Some((event.timestamp, event.triggered_by.clone()));
            }
        }
        ConfigurationChanges {
            settings: settings
                .into_values()
                .filter(|setting| setting.change.before != setting.change.after)
                .collect(),
            variables: variables
                .into_iter()
                .filter_map(|((_, key), history)| history.change(key))
                .collect(),
            latest,
            incomplete: false,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.settings.is_empty() && self.variables.is_empty()
    }
}

fn is_service(target: TargetType) -> bool {
    matches!(
        target,
        TargetType::Application
            | TargetType::Container
            | TargetType::Database
            | TargetType::Job
            | TargetType::Helm
            | TargetType::Terraform
    )
}

/// Where a variable's scope comes, the service's own first (the nearest wins).
fn scope_order(scope: TargetType) -> &'static str {
    match scope {
        TargetType::Project => "3",
        TargetType::Environment => "2",
        _ => "1",
    }
}

/// The first and last of a variable's changes.
struct VariableHistory {
    scope: TargetType,
    existed: bool,
    exists: bool,
    secret: bool,
    before: Option<String>,
    after: Option<String>,
}

impl VariableHistory {
    /// Adds the variable change `event` made; whether it was one.
    fn add(into: &mut BTreeMap<(&str, String), Self>, event: &OrganizationEvent) -> bool {
        let read = |text: Option<&str>| {
            text.filter(|text| !text.is_empty())
                .and_then(|text| serde_json::from_str::<Value>(text).ok())
        };
        let (before, after) = (
            read(event.original_change.as_deref()),
            read(Some(&event.change)),
        );
        let key_of = |shape: &Option<Value>| shape.as_ref()?["key"].as_str().map(str::to_string);
        let Some(key) = key_of(&after).or_else(|| key_of(&before)) else {
            return false;
        };
        let secret = event.sub_target_type == Some(SubTargetType::Secret);
        let value = |shape: &Option<Value>| {
            shape
                .as_ref()
                .filter(|_| !secret)
                .and_then(|shape| shape["value"].as_str())
                .map(str::to_string)
        };
        let exists = event.event_type != EventType::Delete;
        into.entry((scope_order(event.target_type), key))
            .and_modify(|history| {
                history.exists = exists;
                history.after = value(&after);
            })
            .or_insert(VariableHistory {
                scope: event.target_type,
                existed: event.event_type != EventType::Create,
                exists,
                secret,
                before: value(&before),
                after: value(&after),
            });
        true
    }

    fn change(self, key: String) -> Option<VariableChange> {
        let fate = match (self.existed, self.exists) {
            (false, true) => VariableFate::Added,
            (true, false) => VariableFate::Removed,
            (true, true) if self.secret || self.before != self.after => VariableFate::Changed,
            _ => return None,
        };
        Some(VariableChange {
            scope: self.scope,
            key,
            secret: self.secret,
            fate,
            before: self.before.filter(|_| fate != VariableFate::Added),
            after: self.after.filter(|_| fate != VariableFate::Removed),
        })
    }
}

/// The fields that say which record this is, or what it runs, rather than how it is configured:
/// left out when two environments' services are compared (what runs is compared apart).
const IDENTITY: &[&str] = &[
    "id",
    "created_at",
    "updated_at",
    "environment",
    "name",
    "service_type",
    "git_repository.deployed_commit_id",
    "git_repository.deployed_commit_date",
    "git_repository.has_access",
];

/// The configuration fields of two services (their records, as JSON) that differ: `before` is the
/// left one's value, `after` the right one's.
pub fn compare_configurations(left: &Value, right: &Value) -> Vec<FieldChange> {
    diff(Some(left), Some(right))
        .into_iter()
        .filter(|change| {
            !IDENTITY.iter().any(|identity| {
                change.path == *identity
                    || change.path.starts_with(&format!("{identity}."))
                    || change.path.starts_with(&format!("{identity}["))
            })
        })
        .collect()
}

/// A variable as one side of a comparison shows it: a secret by whether it is set, never by value.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableSide {
    pub scope: VariableScope,
    pub secret: bool,
    pub value: Option<String>,
}

/// One key seen by either service, and whether the two sides differ.
#[derive(Clone, Debug, PartialEq)]
pub struct VariablePair {
    pub key: String,
    pub left: Option<VariableSide>,
    pub right: Option<VariableSide>,
}

impl VariablePair {
    /// Present on one side only, a secret on one side only, or two variables of different values.
    pub fn differs(&self) -> bool {
        match (&self.left, &self.right) {
            (Some(left), Some(right)) => {
                left.secret != right.secret || (!left.secret && left.value != right.value)
            }
            _ => true,
        }
    }
}

/// The variables and secrets two services see, by key (each side's nearest definition).
pub fn compare_variables(
    left: &[EnvironmentVariable],
    right: &[EnvironmentVariable],
) -> Vec<VariablePair> {
    fn sides(variables: &[EnvironmentVariable]) -> BTreeMap<String, VariableSide> {
        let mut seen: BTreeMap<String, VariableSide> = BTreeMap::new();
        for variable in variables {
            let side = VariableSide {
                scope: variable.scope,
                secret: variable.is_secret,
                value: variable.value.clone().filter(|_| !variable.is_secret),
            };
            // The deepest scope is what the service runs with.
            match seen.get(&variable.key) {
                Some(kept) if kept.scope.depth() >= side.scope.depth() => {}
                _ => {
                    seen.insert(variable.key.clone(), side);
                }
            }
        }
        seen
    }
    let (mut left, mut right) = (sides(left), sides(right));
    let keys: std::collections::BTreeSet<String> =
        left.keys().chain(right.keys()).cloned().collect();
    keys.into_iter()
        .map(|key| VariablePair {
            left: left.remove(&key),
            right: right.remove(&key),
            key,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;
    use uuid::Uuid;

    fn commit(id: &str) -> Commit {
        Commit {
            created_at: Utc::now(),
            git_commit_id: id.into(),
            tag: String::new(),
            message: format!("commit {id}"),
            author_name: "Ada".into(),
            author_avatar_url: None,
            commit_page_url: None,
        }
    }

    fn ids(commits: &[Commit]) -> Vec<&str> {
        commits.iter().map(|c| c.git_commit_id.as_str()).collect()
    }

    #[test]
    fn two_services_differ_by_their_configuration_not_by_who_they_are() {
        let left = json!({"id": "a", "name": "web", "memory": 512, "cpu": 500,
            "environment": {"id": "e1"}, "git_repository": {"branch": "main", "deployed_commit_id": "x"}});
        let right = json!({"id": "b", "name": "web", "memory": 1024, "cpu": 500,
            "environment": {"id": "e2"}, "git_repository": {"branch": "staging", "deployed_commit_id": "y"}});
        let paths: Vec<String> = compare_configurations(&left, &right)
            .into_iter()
            .map(|change| change.path)
            .collect();
        assert_eq!(paths, ["git_repository.branch", "memory"]);
    }

    fn variable(
        key: &str,
        scope: VariableScope,
        value: Option<&str>,
        secret: bool,
    ) -> EnvironmentVariable {
        serde_json::from_value(json!({
            "id": Uuid::new_v4(), "created_at": "2026-11-01T00:00:00Z", "key": key,
            "value": value, "scope": scope.as_str(), "variable_type": "VALUE", "is_secret": secret,
        }))
        .unwrap()
    }

    #[test]
    fn variables_are_compared_by_key_and_secrets_by_whether_they_are_set() {
        let left = [
            variable("MODE", VariableScope::Environment, Some("slow"), false),
            variable("MODE", VariableScope::Application, Some("fast"), false),
            variable("TOKEN", VariableScope::Project, None, true),
            variable("ONLY_LEFT", VariableScope::Application, Some("1"), false),
        ];
        let right = [
            variable("MODE", VariableScope::Environment, Some("fast"), false),
            variable("TOKEN", VariableScope::Environment, None, true),
        ];
        let pairs = compare_variables(&left, &right);
        let differing: Vec<(&str, bool)> = pairs
            .iter()
            .map(|p| (p.key.as_str(), p.differs()))
            .collect();
        assert_eq!(
            differing,
            [("MODE", false), ("ONLY_LEFT", true), ("TOKEN", false)]
        );
        assert_eq!(
            pairs[0].left.as_ref().unwrap().scope,
            VariableScope::Application
        );
        assert_eq!(pairs[2].right.as_ref().unwrap().value, None);
    }

    #[test]
    fn the_code_goes_ahead_back_or_stays() {
        let commits: Vec<Commit> = ["e", "d", "c", "b", "a"].map(commit).to_vec();
        match code_change(&commits, "b", "e") {
            CodeChange::Ahead(ahead) => assert_eq!(ids(&ahead), ["e", "d", "c"]),
            other => panic!("{other:?}"),
        }
        match code_change(&commits, "d", "b") {
            CodeChange::Back(back) => assert_eq!(ids(&back), ["d", "c"]),
            other => panic!("{other:?}"),
        }
        assert_eq!(code_change(&commits, "c", "c"), CodeChange::Same);
        assert_eq!(code_change(&commits, "z", "e"), CodeChange::Unknown);
    }

    fn event(
        second: u32,
        event_type: EventType,
        (target_type, sub): (TargetType, Option<SubTargetType>),
        before: Option<Value>,
        after: Value,
    ) -> OrganizationEvent {
        OrganizationEvent {
            id: Uuid::new_v4(),
            timestamp: Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, second).unwrap(),
            event_type,
            target_id: Some(Uuid::nil()),
            target_name: "web".into(),
            target_type,
            sub_target_type: sub,
            change: after.to_string(),
            origin: crate::audit::Origin::Console,
            triggered_by: format!("user {second}"),
            project_id: None,
            project_name: String::new(),
            environment_id: None,
            environment_name: String::new(),
            user_agent: None,
            original_change: before.map(|before| before.to_string()),
            changed_secrets: Vec::new(),
        }
    }

    #[test]
    fn changes_are_net_of_what_was_undone_and_secrets_keep_their_values_hidden() {
        let app = (TargetType::Application, None);
        let events = [
            event(
                3,
                EventType::Update,
                app,
                Some(json!({"memory": 1024, "cpu": 500})),
                json!({"memory": 2048, "cpu": 500}),
            ),
            event(
                1,
                EventType::Update,
                app,
                Some(json!({"memory": 512, "cpu": 250})),
                json!({"memory": 1024, "cpu": 500}),
            ),
            event(
                2,
                EventType::Update,
                app,
                Some(json!({"cpu": 500, "min_running_instances": 1})),
                json!({"cpu": 250, "min_running_instances": 1}),
            ),
            event(
                4,
                EventType::Create,
                (TargetType::Environment, Some(SubTargetType::Secret)),
                None,
                json!({"key": "TOKEN", "value": null}),
            ),
            event(
                5,
                EventType::Create,
                (TargetType::Project, Some(SubTargetType::Variable)),
                None,
                json!({"key": "TEMP", "value": "1"}),
            ),
            event(
                6,
                EventType::Delete,
                (TargetType::Project, Some(SubTargetType::Variable)),
                Some(json!({"key": "TEMP", "value": "1"})),
                json!({}),
            ),
            event(
                7,
                EventType::Update,
                (TargetType::Application, Some(SubTargetType::Variable)),
                Some(json!({"key": "MODE", "value": "a"})),
                json!({"key": "MODE", "value": "b"}),
            ),
            event(
                8,
                EventType::DeployQueued,
                app,
                None,
                json!({"git_commit_id": "x"}),
            ),
            event(
                9,
                EventType::Update,
                (TargetType::Environment, None),
                Some(json!({"name": "a"})),
                json!({"name": "b"}),
            ),
        ];
        let changes = ConfigurationChanges::from_events(&events);
        let fields: Vec<_> = changes
            .settings
            .iter()
            .map(|s| {
                (
                    s.change.path.as_str(),
                    s.change.before.clone(),
                    s.change.after.clone(),
                )
            })
            .collect();
        // cpu went 250 → 500 → 250: nothing to say.
        assert_eq!(fields, [("memory", Some(json!(512)), Some(json!(2048)))]);
        assert_eq!(
            changes.variables,
            [
                VariableChange {
                    scope: TargetType::Application,
                    key: "MODE".into(),
                    secret: false,
                    fate: VariableFate::Changed,
                    before: Some("a".into()),
                    after: Some("b".into()),
                },
                VariableChange {
                    scope: TargetType::Environment,
                    key: "TOKEN".into(),
                    secret: true,
                    fate: VariableFate::Added,
                    before: None,
                    after: None,
                },
            ]
        );
        assert_eq!(changes.latest.unwrap().1, "user 7");
        assert!(ConfigurationChanges::from_events(&events[7..]).is_empty());
    }
}
