//! Organization webhooks (spec 2.12) and the events they deliver (spec 6).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::environment::EnvironmentMode;
use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;
use crate::status::{ServiceState, StatusAction};

wire_enum!(
    WebhookKind {
        Standard = "STANDARD" => "Standard (signed JSON)",
        Slack = "SLACK" => "Slack (chat message)",
    }
);

/// What a webhook whose kind the platform left out is read as: a plain JSON POST.
impl Default for WebhookKind {
    fn default() -> Self {
        WebhookKind::Standard
    }
}

wire_enum!(
    /// The four events of spec 6; no other value is accepted.
    sentence_case WebhookEvent {
        DeploymentStarted = "DEPLOYMENT_STARTED",
        DeploymentCancelled = "DEPLOYMENT_CANCELLED",
        DeploymentFailure = "DEPLOYMENT_FAILURE",
        DeploymentSuccessful = "DEPLOYMENT_SUCCESSFUL",
    }
);

/// Where SLACK webhooks post: a chat endpoint of this form.
pub const SLACK_URL_PREFIX: &str = "https://hooks.slack.com/";

/// A webhook as returned: its secret is never, only whether one is set.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Webhook {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    /// STANDARD when the platform leaves it out.
    #[serde(default)]
    pub kind: WebhookKind,
    #[serde(default)]
    pub target_url: String,
    #[serde(default)]
    pub target_secret_set: bool,
    pub description: Option<String>,
    #[serde(default)]
    pub enabled: bool,
    #[serde(default)]
    pub events: Vec<WebhookEvent>,
    #[serde(default)]
    pub project_names_filter: Vec<String>,
    #[serde(default)]
    pub environment_types_filter: Vec<EnvironmentMode>,
}

impl Webhook {
    /// The request that saves this webhook as it is; its secret left out, so kept.
    pub fn to_request(&self) -> WebhookRequest {
        WebhookRequest {
            kind: self.kind,
            target_url: self.target_url.clone(),
            target_secret: None,
            description: self.description.clone(),
            enabled: self.enabled,
            events: self.events.clone(),
            project_names_filter: self.project_names_filter.clone(),
            environment_types_filter: self.environment_types_filter.clone(),
        }
    }

    /// Whether an event of `event` from a project named `project_name` in an environment of
    /// `mode` goes to this webhook (spec 6, rules 1 and 2).
    pub fn wants(&self, event: WebhookEvent, project_name: &str, mode: EnvironmentMode) -> bool {
        self.enabled
            && self.events.contains(&event)
            && (self.project_names_filter.is_empty()
                || self
                    .project_names_filter
                    .iter()
                    .any(|pattern| crate::glob::matches(pattern, project_name)))
            && (self.environment_types_filter.is_empty()
                || self.environment_types_filter.contains(&mode))
    }
}

/// Body of `POST /organization/{id}/webhook` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookRequest {
    #[serde(default = "standard")]
    pub kind: WebhookKind,
    pub target_url: String,
    /// Signs deliveries; never returned. An update that leaves it out keeps the one set; an empty
    /// one removes it.
    #[serde(default)]
    pub target_secret: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default = "enabled")]
    pub enabled: bool,
    pub events: Vec<WebhookEvent>,
    #[serde(default)]
    pub project_names_filter: Vec<String>,
    #[serde(default)]
    pub environment_types_filter: Vec<EnvironmentMode>,
}

impl WebhookRequest {
    /// What a new webhook starts as: enabled, signed JSON, every event, no filter.
    pub fn new_webhook() -> Self {
        WebhookRequest {
            kind: standard(),
            target_url: String::new(),
            target_secret: None,
            description: None,
            enabled: enabled(),
            events: WebhookEvent::ALL.to_vec(),
            project_names_filter: Vec::new(),
            environment_types_filter: Vec::new(),
        }
    }
}

fn standard() -> WebhookKind {
    WebhookKind::Standard
}

fn enabled() -> bool {
    true
}

impl WebhookRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        let url = self.target_url.trim();
        if let Some(broken) = rules::uri("target_url", url) {
            violations.check(Some(broken));
        } else if self.kind == WebhookKind::Slack && !url.starts_with(SLACK_URL_PREFIX) {
            violations.check(Some(FieldError::new(
                "target_url",
                format!(
                    "must be a chat endpoint starting with {SLACK_URL_PREFIX} for a Slack webhook"
                ),
            )));
        }
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        if self.events.is_empty() {
            violations.check(Some(FieldError::new(
                "events",
                "must name at least one event: DEPLOYMENT_STARTED, DEPLOYMENT_CANCELLED, DEPLOYMENT_FAILURE or DEPLOYMENT_SUCCESSFUL",
            )));
        }
        for (index, pattern) in self.project_names_filter.iter().enumerate() {
            let field = format!("project_names_filter[{index}]");
            if pattern.trim().is_empty() {
                violations.check(Some(FieldError::new(field, "must not be empty")));
            } else {
                violations.check(crate::glob::pattern(&field, pattern));
            }
        }
        violations.into_result()
    }
}

/// Where an event comes from and what happened, as delivered in `payload`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventPayload {
    pub organization_id: Uuid,
    pub organization_name: String,
    pub project_id: Uuid,
    pub project_name: String,
    pub environment_id: Uuid,
    pub environment_name: String,
    pub environment_mode: EnvironmentMode,
    pub service_id: Uuid,
    pub service_name: String,
    pub service_type: ServiceType,
    /// The service's id again when it is an application (spec 6, rule 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application_id: Option<Uuid>,
    /// What was run: DEPLOY, RESTART, STOP or DELETE.
    pub action: StatusAction,
    /// The service's state when the event fired.
    pub state: ServiceState,
    pub execution_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_commit_id: Option<String>,
}

/// The body POSTed to a STANDARD webhook; `X-Platform-Signature` signs it.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EventBody {
    pub event_type: WebhookEvent,
    #[serde(with = "crate::timestamp")]
    pub delivered_at: DateTime<Utc>,
    pub payload: EventPayload,
}

wire_enum!(
    /// Where a delivery stands: retried while PENDING, then DELIVERED or FAILED for good.
    DeliveryStatus {
        Pending = "PENDING",
        Delivered = "DELIVERED",
        Failed = "FAILED",
    }
);

/// One event sent (or to be sent) to one webhook, with every attempt made.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDelivery {
    pub id: Uuid,
    pub webhook_id: Uuid,
    pub event_type: WebhookEvent,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    pub status: DeliveryStatus,
    /// When the next attempt is due, while PENDING.
    #[serde(default, with = "crate::timestamp::option")]
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// How it ended, in words, once it has.
    pub outcome: Option<String>,
    pub payload: EventPayload,
    /// Oldest first.
    pub attempts: Vec<DeliveryAttempt>,
}

/// An event sent to a webhook's target, as the production document lists them
/// (`GET /organization/{id}/webhook/{id}/event`): the event, the payload and the target's
/// answer to its latest attempt.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookEventSent {
    /// The delivery's id.
    pub id: Uuid,
    /// When the latest attempt was made.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    pub kind: WebhookKind,
    pub matched_event: WebhookEvent,
    /// The webhook's target (its address now: a changed address is not kept per attempt).
    pub target_url_used: String,
    /// What was sent: this server's `EventPayload`; the platform's own shape elsewhere.
    #[cfg_attr(feature = "openapi", schema(value_type = EventPayload))]
    pub request: serde_json::Value,
    /// 0 when the target could not be reached.
    pub target_response_status_code: i32,
    /// Why the target could not be reached; the server keeps no response body.
    #[serialize_always]
    pub target_response_body: Option<String>,
}

/// One POST to the webhook's target.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeliveryAttempt {
    /// 1 for the first.
    pub attempt: u32,
    #[serde(with = "crate::timestamp")]
    pub attempted_at: DateTime<Utc>,
    /// The receiver's answer; none when it could not be reached.
    pub status_code: Option<u16>,
    pub duration_ms: u64,
    /// Why the attempt failed, when it did.
    pub error: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    fn request(kind: WebhookKind, url: &str) -> WebhookRequest {
        WebhookRequest {
            kind,
            target_url: url.into(),
            target_secret: None,
            description: None,
            enabled: true,
            events: vec![WebhookEvent::DeploymentSuccessful],
            project_names_filter: vec![],
            environment_types_filter: vec![],
        }
    }

    #[test]
    fn target_urls_are_http_and_slack_ones_chat_endpoints() {
        assert!(request(WebhookKind::Standard, "https://example.com/hook")
            .validate()
            .is_ok());
        assert!(request(WebhookKind::Standard, "http://127.0.0.1:9000/")
            .validate()
            .is_ok());
        assert_eq!(
            refused_fields(request(WebhookKind::Standard, "ftp://x").validate()),
            ["target_url"]
        );
        assert_eq!(
            refused_fields(request(WebhookKind::Standard, "https://").validate()),
            ["target_url"]
        );
        // Left empty, it is missing, not malformed.
        let empty = request(WebhookKind::Standard, "").validate().unwrap_err();
        assert_eq!(empty[0].message, "is required");
        assert_eq!(
            refused_fields(request(WebhookKind::Slack, "https://example.com/hook").validate()),
            ["target_url"]
        );
        assert!(
            request(WebhookKind::Slack, "https://hooks.slack.com/services/T/B/X")
                .validate()
                .is_ok()
        );
    }

    #[test]
    fn events_are_required_and_filters_not_blank() {
        let mut none = request(WebhookKind::Standard, "https://e.example");
        none.events.clear();
        none.project_names_filter = vec!["shop".into(), " ".into()];
        assert_eq!(
            refused_fields(none.validate()),
            ["events", "project_names_filter[1]"]
        );
        let unknown: Result<WebhookRequest, _> = serde_json::from_str(
            r#"{"target_url": "https://e.example", "events": ["DEPLOYMENT_SUCCESS"]}"#,
        );
        assert!(unknown.is_err());
    }

    #[test]
    fn a_webhook_wants_enabled_matching_events_only() {
        let mut hook = Webhook {
            id: Uuid::nil(),
            created_at: Utc::now(),
            updated_at: None,
            kind: WebhookKind::Standard,
            target_url: "https://e.example".into(),
            target_secret_set: false,
            description: None,
            enabled: true,
            events: vec![WebhookEvent::DeploymentFailure],
            project_names_filter: vec!["shop*".into()],
            environment_types_filter: vec![EnvironmentMode::Production],
        };
        let prod = EnvironmentMode::Production;
        assert!(hook.wants(WebhookEvent::DeploymentFailure, "Shop-Front", prod));
        assert!(!hook.wants(WebhookEvent::DeploymentStarted, "shop", prod));
        assert!(!hook.wants(WebhookEvent::DeploymentFailure, "api", prod));
        assert!(!hook.wants(
            WebhookEvent::DeploymentFailure,
            "shop",
            EnvironmentMode::Staging
        ));
        hook.enabled = false;
        assert!(!hook.wants(WebhookEvent::DeploymentFailure, "shop", prod));
    }
}
