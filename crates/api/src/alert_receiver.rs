//! Alert receivers (spec 2.13): where alerts go. `webhook_url` is input only: it often embeds a
//! credential, so it is never returned.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    AlertReceiverType {
        Slack = "SLACK" => "Slack",
        Email = "EMAIL" => "Email",
    }
);

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiver {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub description: String,
    #[serde(rename = "type")]
    pub receiver_type: AlertReceiverType,
    pub send_resolved: bool,
    pub owner: Option<String>,
    pub severity: Option<String>,
}

/// Body of `POST /alert-receivers`: every field but `owner` and `severity` is required.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiverCreation {
    pub organization_id: Uuid,
    pub name: String,
    pub description: String,
    #[serde(rename = "type")]
    pub receiver_type: AlertReceiverType,
    pub send_resolved: bool,
    pub webhook_url: String,
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub severity: Option<String>,
}

/// Body of `PUT /alert-receivers/{id}`; a `webhook_url` left out is kept.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiverUpdate {
    pub name: String,
    pub description: String,
    #[serde(rename = "type")]
    pub receiver_type: AlertReceiverType,
    pub send_resolved: bool,
    #[serde(default)]
    pub webhook_url: Option<String>,
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default)]
    pub severity: Option<String>,
}

impl AlertReceiverCreation {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description("description", Some(&self.description)));
        violations.check(rules::uri("webhook_url", &self.webhook_url));
        violations.into_result()
    }

    /// The same receiver as an update carries it.
    pub fn into_update(self) -> AlertReceiverUpdate {
        AlertReceiverUpdate {
            name: self.name,
            description: self.description,
            receiver_type: self.receiver_type,
            send_resolved: self.send_resolved,
            webhook_url: Some(self.webhook_url),
            owner: self.owner,
            severity: self.severity,
        }
    }
}

impl AlertReceiverUpdate {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description("description", Some(&self.description)));
        if let Some(url) = &self.webhook_url {
            violations.check(rules::uri("webhook_url", url));
        }
        violations.into_result()
    }
}
