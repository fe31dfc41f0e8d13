//! Copies of an environment or of one service (the production document's `CloneEnvironmentRequest`
//! and `CloneServiceRequest`): the configuration, variables and secrets, nothing started.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::environment::EnvironmentMode;
use crate::error::FieldError;
use crate::rules::{self, Violations};

/// Body of `POST /environment/{id}/clone`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CloneEnvironmentRequest {
    /// The copy's name, free in its project (compared without case).
    pub name: String,
    /// The copy's cluster; the original's when left out.
    #[serde(default)]
    pub cluster_id: Option<Uuid>,
    /// The copy's mode; the original's when left out.
    #[serde(default)]
    pub mode: Option<EnvironmentMode>,
    /// Read and left alone: this server has no deployment rules.
    #[serde(default)]
    pub apply_deployment_rule: Option<bool>,
    /// The project the copy goes to; the original's when left out.
    #[serde(default)]
    pub project_id: Option<Uuid>,
}

impl CloneEnvironmentRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::environment_name("name", &self.name));
        violations.into_result()
    }
}

/// Body of `POST /{kind}/{id}/clone`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CloneServiceRequest {
    /// The copy's name, free in its environment.
    pub name: String,
    /// The environment the copy goes to (the original's own, or another of the organization).
    pub environment_id: Uuid,
}

impl CloneServiceRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_needs_a_good_name() {
        let environment = |name: &str| CloneEnvironmentRequest {
            name: name.into(),
            cluster_id: None,
            mode: None,
            apply_deployment_rule: None,
            project_id: None,
        };
        assert!(environment("preview-7").validate().is_ok());
        assert_eq!(
            environment("no spaces").validate().unwrap_err()[0].field,
            "name"
        );
        let service = CloneServiceRequest {
            name: " ".into(),
            environment_id: Uuid::nil(),
        };
        assert_eq!(service.validate().unwrap_err()[0].field, "name");
    }
}
