//! Copies of an environment or of one service (the production document's `CloneEnvironmentRequest`
//! and `CloneServiceRequest`): the configuration, variables and secrets, nothing started.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::environment::EnvironmentMode;
use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::variable::{VariableScope, VariableType};

/// The answer of a clone: the copy, in the document's shape, and (ours) the variables of the
/// original that the copy could not take along. Absent when nothing was left out: the platform's
/// answer reads as one that left nothing out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cloned<T> {
    #[serde(flatten)]
    pub copy: T,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out_variables: Vec<LeftOutVariable>,
}

/// An alias or an override of the original that the copy does not have: its target is defined
/// where the copy does not see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeftOutVariable {
    pub key: String,
    pub scope: VariableScope,
    pub variable_type: VariableType,
    /// Why, in a sentence.
    pub reason: String,
}

impl<T> Cloned<T> {
    /// What the copy left out, in a sentence; `None` when nothing.
    pub fn left_out_sentence(&self) -> Option<String> {
        let left_out = &self.left_out_variables;
        if left_out.is_empty() {
            return None;
        }
        let keys: Vec<String> = left_out
            .iter()
            .map(|variable| {
                format!(
                    "{} ({})",
                    variable.key,
                    variable.variable_type.as_str().to_lowercase()
                )
            })
            .collect();
        Some(format!(
            "Left out {} alias{} or override{} whose variable the copy does not see: {}.",
            left_out.len(),
            if left_out.len() == 1 { "" } else { "es" },
            if left_out.len() == 1 { "" } else { "s" },
            keys.join(", ")
        ))
    }
}

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
    fn a_clone_says_what_it_left_out_and_the_platforms_answer_left_nothing() {
        let platform: Cloned<serde_json::Value> =
            serde_json::from_str(r#"{"id": "x", "name": "copy"}"#).unwrap();
        assert_eq!(platform.left_out_sentence(), None);
        assert_eq!(platform.copy["name"], "copy");
        let ours: Cloned<serde_json::Value> = serde_json::from_str(
            r#"{"id": "x", "left_out_variables": [{"key": "API_URL", "scope": "APPLICATION",
                "variable_type": "ALIAS", "reason": "its variable is defined where the copy does not see it"}]}"#,
        )
        .unwrap();
        assert_eq!(
            ours.left_out_sentence().unwrap(),
            "Left out 1 alias or override whose variable the copy does not see: API_URL (alias)."
        );
    }

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
