use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::common::Reference;
use crate::error::FieldError;
use crate::rules::{self, Violations};

wire_enum!(
    /// Environment mode (spec 2.1).
    EnvironmentMode {
        Development = "DEVELOPMENT",
        Preview = "PREVIEW",
        Production = "PRODUCTION",
        Staging = "STAGING",
    }
);

impl EnvironmentMode {
    /// "Production", "Staging", ...
    pub fn label(self) -> String {
        crate::status::sentence_case(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Environment {
    pub id: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub name: String,
    pub mode: EnvironmentMode,
    pub project: Reference,
    pub organization: Reference,
    pub cluster_id: Option<Uuid>,
}

/// Body of `POST /project/{id}/environment`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentRequest {
    pub name: String,
    pub mode: EnvironmentMode,
    #[serde(default)]
    pub cluster_id: Option<Uuid>,
}

impl EnvironmentRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.into_result()
    }
}
