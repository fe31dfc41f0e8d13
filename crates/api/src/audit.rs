//! The audit log: every change made through the API, as the production document's
//! `OrganizationEventResponse` (`GET /organization/{id}/events`), and what a change did to the
//! fields of its target.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::Violations;

wire_enum! {
    /// What was done. Every value of the production document, so that its events read here.
    EventType {
        Create = "CREATE" => "Created",
        Update = "UPDATE" => "Updated",
        Delete = "DELETE" => "Deleted",
        Accept = "ACCEPT" => "Accepted",
        Export = "EXPORT" => "Exported",
        Clone = "CLONE" => "Cloned",
        DeployQueued = "DEPLOY_QUEUED" => "Deploy queued",
        StopQueued = "STOP_QUEUED" => "Stop queued",
        RestartQueued = "RESTART_QUEUED" => "Restart queued",
        DeleteQueued = "DELETE_QUEUED" => "Delete queued",
        UninstallQueued = "UNINSTALL_QUEUED" => "Uninstall queued",
        Maintenance = "MAINTENANCE" => "Maintenance",
        DryRun = "DRY_RUN" => "Dry run",
        TriggerRedeploy = "TRIGGER_REDEPLOY" => "Redeploy asked",
        TriggerCancel = "TRIGGER_CANCEL" => "Cancel asked",
        ForceRunQueued = "FORCE_RUN_QUEUED" => "Force run queued",
        ForceRunQueuedDeploy = "FORCE_RUN_QUEUED_DEPLOY" => "Force run queued deploy",
        ForceRunQueuedStop = "FORCE_RUN_QUEUED_STOP" => "Force run queued stop",
        ForceRunQueuedDelete = "FORCE_RUN_QUEUED_DELETE" => "Force run queued delete",
        TriggerDeploy = "TRIGGER_DEPLOY" => "Deploy asked",
        TriggerStop = "TRIGGER_STOP" => "Stop asked",
        TriggerRestart = "TRIGGER_RESTART" => "Restart asked",
        TriggerDelete = "TRIGGER_DELETE" => "Deletion asked",
        TriggerUninstall = "TRIGGER_UNINSTALL" => "Uninstall asked",
        TriggerDeployDryRun = "TRIGGER_DEPLOY_DRY_RUN" => "Trigger deploy dry run",
        TriggerTerraformForceUnlock = "TRIGGER_TERRAFORM_FORCE_UNLOCK" => "Trigger terraform force unlock",
        TriggerTerraformMigrateState = "TRIGGER_TERRAFORM_MIGRATE_STATE" => "Trigger terraform migrate state",
        TriggerForceRun = "TRIGGER_FORCE_RUN" => "Trigger force run",
        TriggerForceRunDeploy = "TRIGGER_FORCE_RUN_DEPLOY" => "Trigger force run deploy",
        TriggerForceRunStop = "TRIGGER_FORCE_RUN_STOP" => "Trigger force run stop",
        TriggerForceRunDelete = "TRIGGER_FORCE_RUN_DELETE" => "Trigger force run delete",
        Deployed = "DEPLOYED" => "Deployed",
        Stopped = "STOPPED" => "Stopped",
        Deleted = "DELETED" => "Deleted",
        Uninstalled = "UNINSTALLED" => "Uninstalled",
        Restarted = "RESTARTED" => "Restarted",
        DeployedDryRun = "DEPLOYED_DRY_RUN" => "Deployed dry run",
        ForceRunSucceeded = "FORCE_RUN_SUCCEEDED" => "Force run succeeded",
        TerraformForceUnlockSucceeded = "TERRAFORM_FORCE_UNLOCK_SUCCEEDED" => "Terraform force unlock succeeded",
        TerraformMigrateStateSucceeded = "TERRAFORM_MIGRATE_STATE_SUCCEEDED" => "Terraform migrate state succeeded",
        DeployFailed = "DEPLOY_FAILED" => "Deploy failed",
        StopFailed = "STOP_FAILED" => "Stop failed",
        DeleteFailed = "DELETE_FAILED" => "Delete failed",
        UninstallFailed = "UNINSTALL_FAILED" => "Uninstall failed",
        RestartFailed = "RESTART_FAILED" => "Restart failed",
        DeployedDryRunFailed = "DEPLOYED_DRY_RUN_FAILED" => "Deployed dry run failed",
        ForceRunFailed = "FORCE_RUN_FAILED" => "Force run failed",
        TerraformForceUnlockFailed = "TERRAFORM_FORCE_UNLOCK_FAILED" => "Terraform force unlock failed",
        TerraformMigrateStateFailed = "TERRAFORM_MIGRATE_STATE_FAILED" => "Terraform migrate state failed",
        Shell = "SHELL" => "Shell",
        PortForward = "PORT_FORWARD" => "Port forward",
        RemoteDebug = "REMOTE_DEBUG" => "Remote debug",
        Mcp = "MCP" => "MCP",
        Import = "IMPORT" => "Imported",
        Lock = "LOCK" => "Locked",
        Unlock = "UNLOCK" => "Unlocked",
        PolicyFailed = "POLICY_FAILED" => "Policy failed",
        // Ours: an API token refused because it was deleted or has expired.
        AccessRefused = "ACCESS_REFUSED" => "Access refused",
        // Ours: an alert rule's receivers told that it fired, or that it was resolved.
        AlertNotified = "ALERT_NOTIFIED" => "Alert sent",
    }
}

wire_enum! {
    /// What kind of resource the change was made to. Every value of the production document, so that its events read here.
    TargetType {
        AgenticWorkflow = "AGENTIC_WORKFLOW" => "Agentic workflow",
        Application = "APPLICATION" => "Application",
        Cluster = "CLUSTER" => "Cluster",
        Container = "CONTAINER" => "Container",
        ContainerRegistry = "CONTAINER_REGISTRY" => "Container registry",
        Database = "DATABASE" => "Database",
        EnterpriseConnection = "ENTERPRISE_CONNECTION" => "Enterprise connection",
        Environment = "ENVIRONMENT" => "Environment",
        Job = "JOB" => "Job",
        Helm = "HELM" => "Helm chart",
        HelmRepository = "HELM_REPOSITORY" => "Helm repository",
        MembersAndRoles = "MEMBERS_AND_ROLES" => "Members and roles",
        Organization = "ORGANIZATION" => "Organization",
        Project = "PROJECT" => "Project",
        Webhook = "WEBHOOK" => "Webhook",
        Terraform = "TERRAFORM" => "Terraform service",
    }
}

wire_enum! {
    /// The part of the target the change was made to, when not the target itself. Every value of the production document, so that its events read here.
    SubTargetType {
        AdvancedSettings = "ADVANCED_SETTINGS" => "Advanced settings",
        AlertReceiver = "ALERT_RECEIVER" => "Alert receiver",
        AlertRule = "ALERT_RULE" => "Alert rule",
        AnnotationsGroup = "ANNOTATIONS_GROUP" => "Annotations group",
        ApiToken = "API_TOKEN" => "API token",
        ArgocdClusterMapping = "ARGOCD_CLUSTER_MAPPING" => "Argo CD cluster mapping",
        ArgocdConfiguration = "ARGOCD_CONFIGURATION" => "Argo CD configuration",
        BillingInfo = "BILLING_INFO" => "Billing info",
        BillingUsageReport = "BILLING_USAGE_REPORT" => "Billing usage report",
        BlueprintMigration = "BLUEPRINT_MIGRATION" => "Blueprint migration",
        CloudProviderCredentials = "CLOUD_PROVIDER_CREDENTIALS" => "Cloud provider credentials",
        ClusterCredentials = "CLUSTER_CREDENTIALS" => "Cluster credentials",
        ClusterRoutingTable = "CLUSTER_ROUTING_TABLE" => "Cluster routing table",
        Config = "CONFIG" => "Config",
        CreditCard = "CREDIT_CARD" => "Credit card",
        CreditCode = "CREDIT_CODE" => "Credit code",
        CustomDomain = "CUSTOM_DOMAIN" => "Custom domain",
        CustomRole = "CUSTOM_ROLE" => "Custom role",
        DeploymentRule = "DEPLOYMENT_RULE" => "Deployment rule",
        DeploymentStage = "DEPLOYMENT_STAGE" => "Deployment stage",
        DnsProvider = "DNS_PROVIDER" => "DNS provider",
        GithubApp = "GITHUB_APP" => "GitHub app",
        GitRepository = "GIT_REPOSITORY" => "Git repository",
        GitToken = "GIT_TOKEN" => "Git token",
        Invitation = "INVITATION" => "Invitation",
        JwtTokenForged = "JWT_TOKEN_FORGED" => "JWT token forged",
        KubernetesConfiguration = "KUBERNETES_CONFIGURATION" => "Kubernetes configuration",
        KubernetesCredentials = "KUBERNETES_CREDENTIALS" => "Kubernetes credentials",
        LabelsGroup = "LABELS_GROUP" => "Labels group",
        McpServer = "MCP_SERVER" => "MCP server",
        MemberRole = "MEMBER_ROLE" => "Member role",
        Plan = "PLAN" => "Plan",
        PolicyApiToken = "POLICY_API_TOKEN" => "Policy API token",
        RemoteAccess = "REMOTE_ACCESS" => "Remote access",
        Secret = "SECRET" => "Secret",
        Sso = "SSO" => "SSO",
        Terraform = "TERRAFORM" => "Terraform",
        ToolCall = "TOOL_CALL" => "Tool call",
        TransferOwnership = "TRANSFER_OWNERSHIP" => "Transfer ownership",
        Variable = "VARIABLE" => "Variable",
    }
}

wire_enum! {
    /// Where the change came from: the console (a browser) or another client of the API. Every value of the production document, so that its events read here.
    Origin {
        Api = "API" => "API",
        Cli = "CLI" => "CLI",
        Console = "CONSOLE" => "Console",
        Git = "GIT" => "Git",
        PlatformInternal = "QOVERY_INTERNAL" => "Platform internal",
        Skill = "SKILL" => "Skill",
        TerraformProvider = "TERRAFORM_PROVIDER" => "Terraform provider",
    }
}

/// One change, as `GET /organization/{id}/events` lists it. `change` is the target as the change
/// left it and `original_change` as it was before (JSON text, secret values never in either);
/// `changed_secrets` (ours) names the secret fields whose value the change set.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationEvent {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub timestamp: DateTime<Utc>,
    pub event_type: EventType,
    pub target_id: Option<Uuid>,
    pub target_name: String,
    pub target_type: TargetType,
    pub sub_target_type: Option<SubTargetType>,
    #[serde(default)]
    pub change: String,
    pub origin: Origin,
    pub triggered_by: String,
    pub project_id: Option<Uuid>,
    #[serde(default)]
    pub project_name: String,
    pub environment_id: Option<Uuid>,
    #[serde(default)]
    pub environment_name: String,
    pub user_agent: Option<String>,
    pub original_change: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed_secrets: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventLinks {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// A page of changes, newest first; `links` lead to the older (`next`) and newer (`previous`)
/// pages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OrganizationEventList {
    #[serde(default)]
    pub links: EventLinks,
    #[serde(default)]
    pub organization_max_limit_reached: bool,
    pub events: Vec<OrganizationEvent>,
}

pub const EVENT_PAGE_SIZE_DEFAULT: i64 = 10;
pub const EVENT_PAGE_SIZE_MAX: i64 = 100;

/// The filters and cursor of `GET /organization/{id}/events`, with the document's names.
/// Timestamps and tokens are nanoseconds since the Unix epoch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventQuery {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_timestamp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_timestamp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continue_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_back_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<EventType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_type: Option<TargetType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_id: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_target_type: Option<SubTargetType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triggered_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_project_id: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_environment_id: Option<Uuid>,
}

wire_enum!(
    /// What `GET /organization/{id}/targets` lists: the projects or the environments the entries
    /// belong to, rather than their targets.
    TargetLevel {
        Project = "PROJECT" => "Projects",
        Environment = "ENVIRONMENT" => "Environments",
    }
);

/// The filters of `GET /organization/{id}/targets`, with the document's names: those of the
/// events, and which level to list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetsQuery {
    #[serde(default)]
    pub from_timestamp: Option<String>,
    #[serde(default)]
    pub to_timestamp: Option<String>,
    #[serde(default)]
    pub event_type: Option<EventType>,
    #[serde(default)]
    pub target_type: Option<TargetType>,
    #[serde(default)]
    pub triggered_by: Option<String>,
    #[serde(default)]
    pub origin: Option<Origin>,
    #[serde(default)]
    pub project_id: Option<Uuid>,
    #[serde(default)]
    pub environment_id: Option<Uuid>,
    #[serde(default)]
    pub target_level_to_fetch: Option<TargetLevel>,
}

impl TargetsQuery {
    /// The same filters, as the events' query names them.
    pub fn events(&self) -> EventQuery {
        EventQuery {
            from_timestamp: self.from_timestamp.clone(),
            to_timestamp: self.to_timestamp.clone(),
            event_type: self.event_type,
            target_type: self.target_type,
            triggered_by: self.triggered_by.clone(),
            origin: self.origin,
            service_project_id: self.project_id,
            service_environment_id: self.environment_id,
            ..EventQuery::default()
        }
    }
}

/// A target (or a project, an environment) the audit log's entries name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventTarget {
    pub id: Uuid,
    pub name: String,
}

/// `GET /organization/{id}/targets`: what the entries name, for the log's filters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventTargets {
    pub targets: Vec<EventTarget>,
}

/// The query's timestamps and tokens, read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventWindow {
    pub page_size: i64,
    pub from_nanos: Option<i64>,
    pub to_nanos: Option<i64>,
    /// Older than this event (the next page).
    pub before_nanos: Option<i64>,
    /// Newer than this event (the previous page).
    pub after_nanos: Option<i64>,
}

impl EventQuery {
    /// The page asked for, or every rule the query breaks, by parameter.
    pub fn window(&self) -> Result<EventWindow, Vec<FieldError>> {
        let mut violations = Violations::default();
        let page_size = self.page_size.unwrap_or(EVENT_PAGE_SIZE_DEFAULT);
        if !(1..=EVENT_PAGE_SIZE_MAX).contains(&page_size) {
            violations.check(Some(FieldError::new(
                "pageSize",
                format!("must be from 1 to {EVENT_PAGE_SIZE_MAX}"),
            )));
        }
        let mut nanos = |field: &str, value: &Option<String>| {
            let read = value.as_deref().map(read_nanos).transpose();
            read.unwrap_or_else(|message| {
                violations.check(Some(FieldError::new(field, message)));
                None
            })
        };
        let window = EventWindow {
            page_size,
            from_nanos: nanos("fromTimestamp", &self.from_timestamp),
            to_nanos: nanos("toTimestamp", &self.to_timestamp),
            before_nanos: nanos("continueToken", &self.continue_token),
            after_nanos: nanos("stepBackToken", &self.step_back_token),
        };
        if window.before_nanos.is_some() && window.after_nanos.is_some() {
            violations.check(Some(FieldError::new(
                "stepBackToken",
                "cannot be given with continueToken",
            )));
        }
        violations.into_result().map(|()| window)
    }

    /// The query string of this query (without `?`), parameters in the document's names.
    pub fn to_query_string(&self) -> String {
        crate::query::to_query_string(self)
    }
}

impl EventQuery {
    /// The query a page's address carries, read parameter by parameter (`get` gives one by its
    /// name in the document); a value that does not read is left out.
    pub fn from_parameters(get: impl Fn(&str) -> Option<String>) -> Self {
        fn read<T: std::str::FromStr>(value: Option<String>) -> Option<T> {
            value.and_then(|value| value.trim().parse().ok())
        }
        let text = |name: &str| get(name).filter(|value| !value.trim().is_empty());
        EventQuery {
            page_size: read(get("pageSize")),
            from_timestamp: text("fromTimestamp"),
            to_timestamp: text("toTimestamp"),
            continue_token: text("continueToken"),
            step_back_token: text("stepBackToken"),
            event_type: read(get("eventType")),
            target_type: read(get("targetType")),
            target_id: read(get("targetId")),
            sub_target_type: read(get("subTargetType")),
            triggered_by: text("triggeredBy"),
            origin: read(get("origin")),
            service_project_id: read(get("serviceProjectId")),
            service_environment_id: read(get("serviceEnvironmentId")),
        }
    }

    /// `path` with this query.
    pub fn on(&self, path: &str) -> String {
        match self.to_query_string() {
            query if query.is_empty() => path.to_string(),
            query => format!("{path}?{query}"),
        }
    }

    /// The same filters, from the newest change on.
    pub fn first_page(&self) -> Self {
        EventQuery {
            continue_token: None,
            step_back_token: None,
            ..self.clone()
        }
    }
}

/// The value of the parameter `name` in a link of a page of events (`links.next`), as the
/// platform wrote it: the token of the page it leads to.
pub fn link_token(link: &str, name: &str) -> Option<String> {
    let query = link.split_once('?')?.1;
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == name).then(|| percent_decode(value))
    })
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                at += 3;
            }
            (b'+', _) => {
                decoded.push(b' ');
                at += 1;
            }
            (byte, _) => {
                decoded.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// A timestamp as the document takes it: nanoseconds since the Unix epoch, or RFC 3339.
fn read_nanos(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if let Ok(nanos) = text.parse::<i64>() {
        return Ok(nanos);
    }
    crate::timestamp::read(text)
        .ok()
        .and_then(|at| at.timestamp_nanos_opt())
        .ok_or_else(|| {
            "must be nanoseconds since the Unix epoch or an RFC 3339 date and time".to_string()
        })
}

/// Fields the audit log does not show as changed: they change with every write.
const UNCOMPARED: &[&str] = &["updated_at"];

/// One field a change set: its path in the target (`ports[0].external_port`), and its value
/// before and after (`None` where it was absent).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldChange {
    pub path: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

impl OrganizationEvent {
    /// What the change did to each field of its target, in the order of their paths: every field
    /// of a creation, every field of a deletion, the fields an update changed.
    pub fn field_changes(&self) -> Vec<FieldChange> {
        let read = |text: Option<&str>| {
            text.filter(|text| !text.is_empty())
                .and_then(|text| serde_json::from_str::<Value>(text).ok())
        };
        diff(
            read(self.original_change.as_deref()).as_ref(),
            read(Some(&self.change)).as_ref(),
        )
    }
}

/// The leaves of `before` and `after` that differ, by path.
pub fn diff(before: Option<&Value>, after: Option<&Value>) -> Vec<FieldChange> {
    let mut old = BTreeMap::new();
    let mut new = BTreeMap::new();
    if let Some(before) = before {
        flatten("", before, &mut old);
    }
    if let Some(after) = after {
        flatten("", after, &mut new);
    }
    let paths: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    paths
        .into_iter()
        .filter(|path| !UNCOMPARED.contains(&path.as_str()))
        .filter(|path| old.get(*path) != new.get(*path))
        .map(|path| FieldChange {
            path: path.clone(),
            before: old.get(path).cloned(),
            after: new.get(path).cloned(),
        })
        .collect()
}

fn flatten(path: &str, value: &Value, into: &mut BTreeMap<String, Value>) {
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            for (name, value) in fields {
                let inner = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                flatten(&inner, value, into);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (index, value) in items.iter().enumerate() {
                flatten(&format!("{path}[{index}]"), value, into);
            }
        }
        // Nothing, or an empty request (`{}`) as a whole: no field to show.
        Value::Null => {}
        _ if path.is_empty() => {}
        leaf => {
            into.insert(path.to_string(), leaf.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_diff_names_each_changed_leaf_and_skips_the_update_time() {
        let before = json!({"name": "web", "cpu": 500, "ports": [{"internal_port": 80}], "updated_at": "a", "gone": true});
        let after = json!({"name": "web", "cpu": 1000, "ports": [{"internal_port": 80}, {"internal_port": 443}], "updated_at": "b"});
        let changes = diff(Some(&before), Some(&after));
        let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["cpu", "gone", "ports[1].internal_port"]);
        assert_eq!(changes[0].before, Some(json!(500)));
        assert_eq!(changes[0].after, Some(json!(1000)));
        assert_eq!(changes[1].after, None);
        assert_eq!(changes[2].before, None);
    }

    #[test]
    fn a_creation_shows_every_field() {
        let after = json!({"name": "web", "description": null});
        let changes = diff(None, Some(&after));
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, "name");
        assert!(diff(None, Some(&json!({}))).is_empty());
        let empty_values = diff(None, Some(&json!({"values_override": {}})));
        assert_eq!(empty_values[0].after, Some(json!({})));
    }

    #[test]
    fn the_window_reads_tokens_and_names_bad_parameters() {
        let query = EventQuery {
            page_size: Some(0),
            continue_token: Some("12".into()),
            from_timestamp: Some("2026-11-23T10:00:00Z".into()),
            to_timestamp: Some("yesterday".into()),
            ..EventQuery::default()
        };
        let errors = query.window().unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["pageSize", "toTimestamp"]);
        let query = EventQuery {
            continue_token: Some("12".into()),
            from_timestamp: Some("2026-11-23T10:00:00Z".into()),
            ..EventQuery::default()
        };
        let window = query.window().unwrap();
        assert_eq!(window.before_nanos, Some(12));
        assert_eq!(window.from_nanos, Some(1_795_428_000_000_000_000));
        assert_eq!(window.page_size, EVENT_PAGE_SIZE_DEFAULT);
    }

    #[test]
    fn an_address_reads_back_as_the_query_it_was_made_from() {
        let query = EventQuery {
            target_type: Some(TargetType::Application),
            target_id: Some(Uuid::nil()),
            triggered_by: Some("API token ci & co".into()),
            continue_token: Some("1795428000000000000".into()),
            ..EventQuery::default()
        };
        let link = format!("https://api.example/events?{}", query.to_query_string());
        let pairs: Vec<(String, String)> = link
            .split_once('?')
            .unwrap()
            .1
            .split('&')
            .map(|pair| {
                let (key, _) = pair.split_once('=').unwrap();
                (key.to_string(), link_token(&link, key).unwrap())
            })
            .collect();
        let read = EventQuery::from_parameters(|name| {
            pairs
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, v)| v.clone())
        });
        assert_eq!(read, query);
        assert_eq!(read.first_page().continue_token, None);
        assert_eq!(link_token(&link, "stepBackToken"), None);
    }

    #[test]
    fn a_query_string_uses_the_documents_names() {
        let query = EventQuery {
            target_type: Some(TargetType::Project),
            triggered_by: Some("API token ci".into()),
            ..EventQuery::default()
        };
        assert_eq!(
            query.to_query_string(),
            "targetType=PROJECT&triggeredBy=API%20token%20ci"
        );
    }
}
