//! Autoscaling (spec 2.7): a KEDA policy and its scalers, as a record has it and a request sets it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};

/// Autoscaling policy (spec 2.7).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Autoscaling {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub service_id: Uuid,
    pub mode: String,
    pub polling_interval_seconds: i64,
    pub cooldown_period_seconds: i64,
    pub scalers: Vec<Scaler>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Scaler {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub scaler_type: String,
    pub enabled: bool,
    pub role: String,
    pub config_json: serde_json::Value,
    pub config_yaml: Option<String>,
    pub trigger_authentication: Option<TriggerAuthentication>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TriggerAuthentication {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub organization_id: String,
    pub name: String,
    pub config_yaml: Option<String>,
}

wire_enum!(
    /// What a scaler is for: the one that scales, or a safety net beside it.
    ScalerRole {
        Primary = "PRIMARY" => "Primary",
        Safety = "SAFETY" => "Safety",
    }
);

/// The only autoscaling mode of the platform.
pub const KEDA: &str = "KEDA";

/// Autoscaling as a request sets it (the production document's `KedaAutoscalingRequest`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutoscalingRequest {
    pub mode: String,
    #[serde(default)]
    pub polling_interval_seconds: Option<i64>,
    #[serde(default)]
    pub cooldown_period_seconds: Option<i64>,
    pub scalers: Vec<ScalerRequest>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScalerRequest {
    pub scaler_type: String,
    #[serde(default)]
    pub enabled: Option<bool>,
    pub role: ScalerRole,
    #[serde(default)]
    pub config_json: Option<serde_json::Value>,
    #[serde(default)]
    pub config_yaml: Option<String>,
}

/// How often KEDA polls and how long it waits before scaling down, when a request leaves them out.
pub mod autoscaling_defaults {
    pub const POLLING_INTERVAL_SECONDS: i64 = 30;
    pub const COOLDOWN_PERIOD_SECONDS: i64 = 300;
}

impl AutoscalingRequest {
    pub fn check(&self, violations: &mut Violations) {
        if self.mode != KEDA {
            violations.check(Some(FieldError::new("autoscaling.mode", "must be KEDA")));
        }
        if let Some(polling) = self.polling_interval_seconds {
            violations.check(rules::positive(
                "autoscaling.polling_interval_seconds",
                polling,
            ));
        }
        if let Some(cooldown) = self.cooldown_period_seconds {
            violations.check(rules::not_negative(
                "autoscaling.cooldown_period_seconds",
                cooldown,
            ));
        }
        if self.scalers.is_empty() {
            violations.check(Some(FieldError::new(
                "autoscaling.scalers",
                "must have at least one scaler",
            )));
        }
        for (index, scaler) in self.scalers.iter().enumerate() {
            if scaler.scaler_type.trim().is_empty() {
                violations.check(Some(FieldError::new(
                    format!("autoscaling.scalers[{index}].scaler_type"),
                    "is required, e.g. cpu or prometheus",
                )));
            }
        }
    }
}

impl From<&Autoscaling> for AutoscalingRequest {
    fn from(autoscaling: &Autoscaling) -> Self {
        Self {
            mode: autoscaling.mode.clone(),
            polling_interval_seconds: Some(autoscaling.polling_interval_seconds),
            cooldown_period_seconds: Some(autoscaling.cooldown_period_seconds),
            scalers: autoscaling
                .scalers
                .iter()
                .map(|scaler| ScalerRequest {
                    scaler_type: scaler.scaler_type.clone(),
                    enabled: Some(scaler.enabled),
                    role: scaler.role.parse().unwrap_or(ScalerRole::Primary),
                    config_json: Some(scaler.config_json.clone()),
                    config_yaml: scaler.config_yaml.clone(),
                })
                .collect(),
        }
    }
}
