//! Alert rules (`/alert-rules`): a PromQL expression over a cluster's series, a comparison with a
//! threshold, how long it must hold, and who is told. The presets a service offers ("CPU above
//! 80% of its request for 5 minutes", …) are written here once, for the console that offers them
//! and the tests that check them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::history::iso_duration_seconds;
use crate::monitoring::{Quantile, Workload};
use crate::rules::{self, Violations};
use crate::status::StateTone;

wire_enum!(
    /// How bad it is when the rule fires.
    AlertSeverity {
        Low = "LOW" => "Low",
        Medium = "MEDIUM" => "Medium",
        High = "HIGH" => "High",
        Critical = "CRITICAL" => "Critical",
    }
);

wire_enum!(
    /// Where a rule stands: not yet evaluated, its condition false, holding for less than its
    /// duration, firing, firing and its receivers told, silenced, or firing with nobody to tell.
    AlertRuleState {
        Undeployed = "UNDEPLOYED" => "Not evaluated yet",
        Ok = "OK" => "OK",
        Triggered = "TRIGGERED" => "Triggered",
        PendingNotification = "PENDING_NOTIFICATION" => "Pending",
        Notified = "NOTIFIED" => "Notified",
        Suppressed = "SUPPRESSED" => "Suppressed",
        Unrouted = "UNROUTED" => "No receiver",
    }
);

impl AlertRuleState {
    /// How a badge shows it: firing as a failure, pending as work under way.
    pub fn tone(self) -> StateTone {
        match self {
            AlertRuleState::Ok => StateTone::Success,
            AlertRuleState::PendingNotification => StateTone::Progress,
            AlertRuleState::Triggered | AlertRuleState::Notified | AlertRuleState::Unrouted => {
                StateTone::Failure
            }
            _ => StateTone::Neutral,
        }
    }

    /// Whether the rule calls for attention.
    pub fn is_firing(self) -> bool {
        matches!(
            self,
            AlertRuleState::Triggered | AlertRuleState::Notified | AlertRuleState::Unrouted
        )
    }
}

wire_enum!(
    /// Where a rule comes from: managed through the API, or left in the alerting system after its
    /// deletion.
    AlertRuleSource {
        Managed = "MANAGED" => "Managed",
        Ghost = "GHOST" => "Ghost",
    }
);

wire_enum!(
    /// What a rule watches.
    AlertTargetType {
        Cluster = "CLUSTER" => "Cluster",
        Environment = "ENVIRONMENT" => "Environment",
        Application = "APPLICATION" => "Application",
        Container = "CONTAINER" => "Container",
        Job = "JOB" => "Job",
        Cronjob = "CRONJOB" => "Cron job",
        Helm = "HELM" => "Helm",
        Terraform = "TERRAFORM" => "Terraform",
    }
);

wire_enum!(
    AlertRuleConditionKind {
        Custom = "CUSTOM" => "Custom",
        Built = "BUILT" => "Built",
    }
);

wire_enum!(
    AlertRuleConditionOperator {
        None = "NONE" => "Holds when the expression gives a value",
        Above = "ABOVE" => "Above",
        Below = "BELOW" => "Below",
        AboveOrEqual = "ABOVE_OR_EQUAL" => "At or above",
        BelowOrEqual = "BELOW_OR_EQUAL" => "At or below",
        Equal = "EQUAL" => "Equal to",
    }
);

wire_enum!(
    AlertRuleConditionFunction {
        None = "NONE" => "Each series",
        Avg = "AVG" => "Average",
        Max = "MAX" => "Highest",
        Min = "MIN" => "Lowest",
        Sum = "SUM" => "Sum",
        Count = "COUNT" => "Count",
    }
);

impl AlertTargetType {
    /// How a rule names a service of `kind` as its target; none for the kinds the platform's
    /// rules do not watch (databases, and the services that run nothing of their own).
    pub fn of_service(
        kind: crate::service_type::ServiceType,
        job_type: Option<crate::job::JobType>,
    ) -> Option<AlertTargetType> {
        use crate::service_type::ServiceType;
        match kind {
            ServiceType::Application => Some(AlertTargetType::Application),
            ServiceType::Container => Some(AlertTargetType::Container),
            ServiceType::Job => match job_type {
                Some(crate::job::JobType::Cron) => Some(AlertTargetType::Cronjob),
                _ => Some(AlertTargetType::Job),
            },
            _ => None,
        }
    }
}

/// A rule's condition: its PromQL without the comparison, and the comparison beside it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertRuleCondition {
    pub kind: AlertRuleConditionKind,
    pub promql: String,
    #[serde(default)]
    pub operator: Option<AlertRuleConditionOperator>,
    #[serde(default)]
    pub threshold: Option<f64>,
    #[serde(default)]
    pub function: Option<AlertRuleConditionFunction>,
}

/// The most a condition's PromQL holds.
pub const PROMQL_MAX_CHARS: usize = 4096;

impl AlertRuleCondition {
    /// The whole expression a rule evaluates: the function over the PromQL, compared with the
    /// threshold. It holds while it gives a series.
    pub fn expression(&self) -> String {
        let inner = format!("({})", self.promql.trim());
        let applied = match self.function.unwrap_or(AlertRuleConditionFunction::None) {
            AlertRuleConditionFunction::Avg => format!("avg({inner})"),
            AlertRuleConditionFunction::Max => format!("max({inner})"),
            AlertRuleConditionFunction::Min => format!("min({inner})"),
            AlertRuleConditionFunction::Sum => format!("sum({inner})"),
            AlertRuleConditionFunction::Count => format!("count({inner})"),
            _ => inner,
        };
        let threshold = self.threshold.unwrap_or(0.0);
        let comparison = match self.operator.unwrap_or(AlertRuleConditionOperator::None) {
            AlertRuleConditionOperator::Above => ">",
            AlertRuleConditionOperator::Below => "<",
            AlertRuleConditionOperator::AboveOrEqual => ">=",
            AlertRuleConditionOperator::BelowOrEqual => "<=",
            AlertRuleConditionOperator::Equal => "==",
            _ => return applied,
        };
        format!("{applied} {comparison} {threshold}")
    }

    fn check(&self, violations: &mut Violations) {
        if self.promql.trim().is_empty() {
            violations.check(Some(FieldError::new("condition.promql", "is required")));
        } else {
            violations.check(rules::line(
                "condition.promql",
                &self.promql,
                PROMQL_MAX_CHARS,
            ));
        }
        let compares = !matches!(self.operator, None | Some(AlertRuleConditionOperator::None));
        match self.threshold {
            Some(threshold) if !threshold.is_finite() => violations.check(Some(FieldError::new(
                "condition.threshold",
                "must be a number",
            ))),
            None if compares => violations.check(Some(FieldError::new(
                "condition.threshold",
                "is required with an operator",
            ))),
            _ => {}
        }
    }
}

/// What a rule watches: a service, an environment or a cluster.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertTarget {
    pub target_type: AlertTargetType,
    pub target_id: Uuid,
    /// The service, when it watches one (answers only).
    #[serde(default)]
    pub service: Option<crate::fleet::ServiceLight>,
}

/// What a notification says besides the rule's name.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertPresentation {
    #[serde(default)]
    #[serialize_always]
    pub summary: Option<String>,
    #[serde(default)]
    #[serialize_always]
    pub runbook_url: Option<String>,
}

/// Body of `PUT /alert-rules/{id}`: the rule's definition.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertRuleEditRequest {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tag: String,
    pub condition: AlertRuleCondition,
    /// ISO 8601 (`PT5M`).
    pub for_duration: String,
    pub severity: AlertSeverity,
    #[serde(default)]
    pub enabled: bool,
    pub alert_receiver_ids: Vec<Uuid>,
    #[serde(default)]
    pub presentation: AlertPresentation,
}

/// Body of `POST /alert-rules`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertRuleCreationRequest {
    pub organization_id: Uuid,
    pub cluster_id: Uuid,
    pub target: AlertTarget,
    #[serde(flatten)]
    pub rule: AlertRuleEditRequest,
}

/// The longest a condition may have to hold.
pub const FOR_DURATION_MAX_SECONDS: i64 = 7 * 24 * 3600;

impl AlertRuleEditRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description("description", Some(&self.description)));
        violations.check(rules::line("tag", &self.tag, rules::NAME_MAX_CHARS));
        self.condition.check(&mut violations);
        match iso_duration_seconds(&self.for_duration) {
            Some(seconds) if seconds <= FOR_DURATION_MAX_SECONDS => {}
            Some(_) => violations.check(Some(FieldError::new(
                "for_duration",
                "must be at most 7 days (P7D)",
            ))),
            None => violations.check(Some(FieldError::new(
                "for_duration",
                "must be an ISO 8601 duration such as PT5M",
            ))),
        }
        if self.alert_receiver_ids.is_empty() {
            violations.check(Some(FieldError::new(
                "alert_receiver_ids",
                "must name at least one alert receiver: create one in the organization's settings",
            )));
        }
        if let Some(summary) = &self.presentation.summary {
            violations.check(rules::description("presentation.summary", Some(summary)));
        }
        if let Some(url) = &self.presentation.runbook_url {
            violations.check(rules::uri("presentation.runbook_url", url));
        }
        violations.into_result()
    }
}

impl AlertRuleCreationRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        self.rule.validate()
    }
}

/// A rule as answered.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertRuleResponse {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub source: AlertRuleSource,
    pub state: AlertRuleState,
    pub organization_id: Uuid,
    pub cluster_id: Uuid,
    pub target: AlertTarget,
    #[serde(flatten)]
    pub rule: AlertRuleEditRequest,
    /// Whether its latest edit has been evaluated.
    pub is_up_to_date: bool,
    /// When it began to fire.
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub starts_at: Option<DateTime<Utc>>,
}

/// What a preset watches a service for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Cpu,
    Memory,
    Errors,
    Latency,
    InstanceMissing,
    InstanceRestarted,
}

/// The window the restart preset counts restarts over.
const RESTARTS_WINDOW: &str = "10m";

impl Preset {
    pub const ALL: [Preset; 6] = [
        Preset::Cpu,
        Preset::Memory,
        Preset::Errors,
        Preset::Latency,
        Preset::InstanceMissing,
        Preset::InstanceRestarted,
    ];

    /// What a person picks from.
    pub fn label(self) -> &'static str {
        match self {
            Preset::Cpu => "CPU above 80% of its request for 5 minutes",
            Preset::Memory => "Memory above 80% of its limit for 5 minutes",
            Preset::Errors => "HTTP 5xx above 5% of requests for 5 minutes",
            Preset::Latency => "p99 latency above 250 ms for 5 minutes",
            Preset::InstanceMissing => "An instance missing (available below wanted)",
            Preset::InstanceRestarted => "An instance restarted",
        }
    }

    /// Whether the preset applies to the workload (requests need an ingress).
    /// What the threshold is measured in, for the person who changes it.
    pub fn threshold_hint(self) -> &'static str {
        match self {
            Preset::Cpu => "A share of its CPU request: 0.8 is 80%.",
            Preset::Memory => "A share of its memory limit: 0.8 is 80%.",
            Preset::Errors => "A share of its requests: 0.05 is 5%.",
            Preset::Latency => "Seconds: 0.25 is 250 ms.",
            Preset::InstanceMissing => {
                "Instances ready over instances wanted: below 1, one is missing."
            }
            Preset::InstanceRestarted => "Restarts in the last 10 minutes.",
        }
    }

    pub fn applies_to(self, workload: &Workload) -> bool {
        !matches!(self, Preset::Errors | Preset::Latency) || workload.ingress.is_some()
    }

    /// The rule the preset gives for the workload, sent to `receivers`.
    pub fn rule(self, workload: &Workload, receivers: Vec<Uuid>) -> AlertRuleEditRequest {
        use AlertRuleConditionOperator::{Above, Below};
        let window = "5m";
        let (name, promql, operator, threshold, for_duration, severity) = match self {
            Preset::Cpu => (
                "High CPU",
                format!("{} / {}", workload.cpu(window), workload.cpu_request()),
                Above,
                0.8,
                "PT5M",
                AlertSeverity::Medium,
            ),
            Preset::Memory => (
                "High memory",
                format!(
                    "max({}) / {}",
                    workload.memory_by_instance(),
                    workload.memory_limit()
                ),
                Above,
                0.8,
                "PT5M",
                AlertSeverity::High,
            ),
            Preset::Errors => (
                "HTTP errors",
                workload.error_share(window),
                Above,
                0.05,
                "PT5M",
                AlertSeverity::High,
            ),
            Preset::Latency => (
                "Slow responses",
                format!("max({})", workload.latency(Quantile::P99)),
                Above,
                0.25,
                "PT5M",
                AlertSeverity::Medium,
            ),
            Preset::InstanceMissing => (
                "Instance missing",
                format!(
                    "{} / {}",
                    workload.instances_ready(),
                    workload.instances_wanted()
                ),
                Below,
                1.0,
                "PT2M",
                AlertSeverity::High,
            ),
            Preset::InstanceRestarted => (
                "Instance restarted",
                // Longer than the kubelet's longest back-off (5 minutes), so that an instance in
                // a crash loop keeps the alert firing rather than resolving between restarts.
                workload.restarts(RESTARTS_WINDOW),
                Above,
                0.0,
                "PT0S",
                AlertSeverity::Medium,
            ),
        };
        let function = AlertRuleConditionFunction::None;
        AlertRuleEditRequest {
            name: name.to_string(),
            description: self.label().to_string(),
            tag: "preset".to_string(),
            condition: AlertRuleCondition {
                kind: AlertRuleConditionKind::Built,
                promql,
                operator: Some(operator),
                threshold: Some(threshold),
                function: Some(function),
            },
            for_duration: for_duration.to_string(),
            severity,
            enabled: true,
            alert_receiver_ids: receivers,
            presentation: AlertPresentation::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The production document spells it ` CLUSTER`: both are read, `CLUSTER` is written.
    #[test]
    fn a_cluster_target_is_read_with_or_without_the_documents_space() {
        for sent in ["\"CLUSTER\"", "\" CLUSTER\""] {
            let read: AlertTargetType = serde_json::from_str(sent).unwrap();
            assert_eq!(read, AlertTargetType::Cluster, "{sent}");
        }
        assert_eq!(
            serde_json::to_string(&AlertTargetType::Cluster).unwrap(),
            "\"CLUSTER\""
        );
    }

    #[test]
    fn a_condition_is_its_function_and_comparison_around_its_promql() {
        let condition = AlertRuleCondition {
            kind: AlertRuleConditionKind::Custom,
            promql: "rate(x[5m])".into(),
            operator: Some(AlertRuleConditionOperator::Above),
            threshold: Some(0.8),
            function: Some(AlertRuleConditionFunction::Avg),
        };
        assert_eq!(condition.expression(), "avg((rate(x[5m]))) > 0.8");
    }

    #[test]
    fn every_preset_gives_a_rule_the_rules_accept() {
        let workload = Workload {
            service_id: Uuid::nil(),
            name: Some("app-z1234".into()),
            namespace: None,
            ingress: Some("app-z1234-ingress".into()),
            stateful: false,
        };
        for preset in Preset::ALL {
            let rule = preset.rule(&workload, vec![Uuid::nil()]);
            assert!(rule.validate().is_ok(), "{preset:?}: {:?}", rule.validate());
            assert!(rule.condition.promql.contains("app-z1234"));
        }
        let rule = Preset::Cpu.rule(&workload, vec![]);
        assert_eq!(rule.validate().unwrap_err()[0].field, "alert_receiver_ids");
    }
}
