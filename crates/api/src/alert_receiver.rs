//! Alert receivers (spec 2.13): where alerts go, a Slack channel (its webhook URL) or an e-mail
//! address (through an SMTP relay). The webhook URL often embeds a credential and the SMTP
//! password is one: both are input only, never returned.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::member::email;
use crate::rules::{self, Violations};

wire_enum!(
    AlertReceiverType {
        Slack = "SLACK" => "Slack",
        Email = "EMAIL" => "Email",
    }
);

/// What an e-mail receiver sends through, as answered (its password never is); none of it for a
/// Slack receiver.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailRelay {
    /// The recipient.
    #[serde(default)]
    pub to: Option<String>,
    /// The sender.
    #[serde(default)]
    pub from: Option<String>,
    /// The SMTP server, `host:port`.
    #[serde(default)]
    pub smarthost: Option<String>,
    /// Who signs in to the server: `from` when not given.
    #[serde(default)]
    pub auth_username: Option<String>,
    /// Whether the connection must be encrypted (STARTTLS).
    #[serde(default)]
    pub require_tls: Option<bool>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiver {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub description: String,
    #[serde(rename = "type")]
    pub receiver_type: AlertReceiverType,
    pub send_resolved: bool,
    pub owner: Option<String>,
    pub severity: Option<String>,
    #[serde(flatten, default)]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub email: EmailRelay,
}

/// An e-mail receiver's relay as sent, its password too.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmailRelayRequest {
    #[serde(flatten, default)]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub relay: EmailRelay,
    /// Required on creation; left out (or `null`) on an update, the one kept is kept.
    #[serde(default)]
    pub auth_password: Option<String>,
}

/// Body of `POST /alert-receivers`: a SLACK receiver's `webhook_url`, or an EMAIL receiver's
/// relay.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiverCreation {
    pub organization_id: Uuid,
    #[serde(flatten, deserialize_with = "crate::flat::strictly")]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub receiver: AlertReceiverUpdate,
}

/// Body of `PUT /alert-receivers/{id}`; a `webhook_url` or `auth_password` left out is kept.
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
    #[serde(flatten, default, deserialize_with = "crate::flat::strictly")]
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub email: EmailRelayRequest,
}

/// Body of `POST /alert-receivers/{id}/validate`: the test message's text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiverValidation {
    #[serde(default)]
    pub message: Option<String>,
}

/// Body of `POST /alert-receivers/validate`: a receiver not yet saved, and the message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertReceiverCreationValidation {
    pub alert_receiver: AlertReceiverCreation,
    #[serde(default)]
    pub message: Option<String>,
}

/// The message a test sends when none is given.
pub const TEST_MESSAGE: &str = "A test from the platform console: this receiver gets its alerts.";

impl AlertReceiverCreation {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        self.receiver.check(true)
    }
}

impl AlertReceiverUpdate {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        self.check(false)
    }

    /// The rules of the receiver's kind; `creating`, its secrets are required.
    fn check(&self, creating: bool) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description("description", Some(&self.description)));
        match self.receiver_type {
            AlertReceiverType::Email => self.email.check(creating, &mut violations),
            _ => match &self.webhook_url {
                Some(url) => violations.check(rules::uri("webhook_url", url)),
                None if creating => {
                    violations.check(Some(FieldError::new("webhook_url", "is required")))
                }
                None => {}
            },
        }
        violations.into_result()
    }
}

impl EmailRelayRequest {
    fn check(&self, creating: bool, violations: &mut Violations) {
        let relay = &self.relay;
        violations.check(email("to", relay.to.as_deref().unwrap_or_default()));
        violations.check(email("from", relay.from.as_deref().unwrap_or_default()));
        violations.check(smarthost(
            "smarthost",
            relay.smarthost.as_deref().unwrap_or_default(),
        ));
        if let Some(user) = &relay.auth_username {
            violations.check(rules::line("auth_username", user, rules::NAME_MAX_CHARS));
        }
        match &self.auth_password {
            Some(password) => violations.check(rules::line("auth_password", password, 1024)),
            None if creating => {
                violations.check(Some(FieldError::new("auth_password", "is required")))
            }
            None => {}
        }
        if relay.require_tls.is_none() {
            violations.check(Some(FieldError::new("require_tls", "is required")));
        }
    }

    /// The relay as answered: trimmed, who signs in defaulting to the sender.
    pub fn answered(&self) -> EmailRelay {
        let trimmed = |text: &Option<String>| text.as_deref().map(|text| text.trim().to_string());
        let relay = &self.relay;
        EmailRelay {
            to: trimmed(&relay.to),
            from: trimmed(&relay.from),
            smarthost: trimmed(&relay.smarthost),
            auth_username: trimmed(&relay.auth_username)
                .filter(|user| !user.is_empty())
                .or_else(|| trimmed(&relay.from)),
            require_tls: relay.require_tls,
        }
    }
}

/// An SMTP server as `host:port`: a host name or address and a port from 1 to 65535.
pub fn smarthost(field: &str, value: &str) -> Option<FieldError> {
    let value = value.trim();
    let well_formed = value.rsplit_once(':').is_some_and(|(host, port)| {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        !host.is_empty()
            && host.len() <= 253
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
            && port.parse::<u16>().is_ok_and(|port| port > 0)
    });
    (!well_formed).then(|| {
        FieldError::new(
            field,
            "must be an SMTP server as host:port, e.g. smtp.example.com:587",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    fn slack() -> AlertReceiverUpdate {
        AlertReceiverUpdate {
            name: "oncall".into(),
            description: String::new(),
            receiver_type: AlertReceiverType::Slack,
            send_resolved: true,
            webhook_url: Some("https://hooks.slack.com/services/T/B/X".into()),
            owner: None,
            severity: None,
            email: EmailRelayRequest::default(),
        }
    }

    #[test]
    fn a_receiver_reads_in_the_documents_two_shapes() {
        let slack: AlertReceiverCreation = serde_json::from_str(
            r#"{"organization_id": "00000000-0000-0000-0000-000000000001", "name": "oncall",
                "description": "", "type": "SLACK", "send_resolved": true,
                "webhook_url": "https://hooks.slack.com/services/T/B/X"}"#,
        )
        .unwrap();
        assert!(slack.validate().is_ok());
        let email: AlertReceiverCreation = serde_json::from_str(
            r#"{"organization_id": "00000000-0000-0000-0000-000000000001", "name": "ops",
                "description": "", "type": "EMAIL", "send_resolved": false,
                "to": "ops@example.com", "from": "alerts@example.com",
                "smarthost": "smtp.example.com:587", "auth_password": "s3cret", "require_tls": true}"#,
        )
        .unwrap();
        assert!(email.validate().is_ok(), "{:?}", email.validate());
        let relay = email.receiver.email.answered();
        assert_eq!(relay.auth_username.as_deref(), Some("alerts@example.com"));
    }

    #[test]
    fn each_kind_needs_its_own_fields() {
        let mut update = slack();
        update.webhook_url = None;
        assert!(update.validate().is_ok(), "an update keeps the URL");
        let creation = AlertReceiverCreation {
            organization_id: Uuid::nil(),
            receiver: update.clone(),
        };
        assert_eq!(creation.validate().unwrap_err()[0].field, "webhook_url");
        update.receiver_type = AlertReceiverType::Email;
        update.email = EmailRelayRequest {
            relay: EmailRelay {
                to: Some("not an address".into()),
                from: Some("alerts@example.com".into()),
                smarthost: Some("smtp.example.com".into()),
                auth_username: None,
                require_tls: Some(true),
            },
            auth_password: None,
        };
        let fields = refused_fields(update.validate());
        assert_eq!(fields, ["to", "smarthost"]);
    }
}
