//! Environment variables (spec 2.2) and secrets (spec 2.3) at every scope, with aliases,
//! overrides, file variables and built-in variables.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;

wire_enum!(
    /// Where a variable is defined (spec 2.1).
    VariableScope {
        Application = "APPLICATION",
        BuiltIn = "BUILT_IN",
        Environment = "ENVIRONMENT",
        Project = "PROJECT",
        Container = "CONTAINER",
        Job = "JOB",
        Helm = "HELM",
        Terraform = "TERRAFORM",
    }
);

impl VariableScope {
    /// How deep in the hierarchy the scope is: a variable is overridden or aliased only at a
    /// deeper scope than its own.
    pub fn depth(self) -> u8 {
        match self {
            VariableScope::Project => 0,
            VariableScope::Environment => 1,
            VariableScope::BuiltIn => 1,
            _ => 2,
        }
    }

    /// The kind of service a service scope belongs to.
    pub fn service_type(self) -> Option<ServiceType> {
        match self {
            VariableScope::Application => Some(ServiceType::Application),
            VariableScope::Container => Some(ServiceType::Container),
            VariableScope::Job => Some(ServiceType::Job),
            VariableScope::Helm => Some(ServiceType::Helm),
            VariableScope::Terraform => Some(ServiceType::Terraform),
            _ => None,
        }
    }

    pub fn of_service(service_type: ServiceType) -> Option<VariableScope> {
        VariableScope::ALL
            .iter()
            .copied()
            .find(|scope| scope.service_type() == Some(service_type))
    }
}

wire_enum!(
    VariableType {
        Value = "VALUE",
        Alias = "ALIAS",
        Override = "OVERRIDE",
        BuiltIn = "BUILT_IN",
        File = "FILE",
        ExternalSecret = "EXTERNAL_SECRET",
        FileExternalSecret = "FILE_EXTERNAL_SECRET",
    }
);

/// The variable an alias or an override points at.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableReference {
    pub id: Uuid,
    pub key: String,
    /// `null` when the variable is a secret.
    #[serialize_always]
    pub value: Option<String>,
    /// Empty unless the variable is a file.
    #[serde(default)]
    pub mount_path: String,
    pub scope: VariableScope,
    pub variable_type: VariableType,
}

/// An environment variable (spec 2.2). A secret's `value` is always `null`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentVariable {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub key: String,
    #[serialize_always]
    pub value: Option<String>,
    pub scope: VariableScope,
    pub variable_type: VariableType,
    #[serde(default)]
    pub is_secret: bool,
    pub mount_path: Option<String>,
    pub description: Option<String>,
    #[serde(default)]
    pub enable_interpolation_in_file: bool,
    pub overridden_variable: Option<VariableReference>,
    pub aliased_variable: Option<VariableReference>,
    pub service_id: Option<Uuid>,
    pub service_name: Option<String>,
    pub service_type: Option<ServiceType>,
    #[serde(default)]
    pub owned_by: String,
}

/// What a secret says of the secret it aliases or overrides: never a value.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SecretReference {
    pub id: Uuid,
    pub key: String,
    /// Empty unless the secret is a file.
    #[serde(default)]
    pub mount_path: String,
    pub scope: VariableScope,
    pub variable_type: VariableType,
    pub description: Option<String>,
    pub enable_interpolation_in_file: bool,
}

/// A secret (spec 2.3): no `value` field at all.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Secret {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub key: String,
    pub scope: VariableScope,
    pub variable_type: VariableType,
    pub mount_path: Option<String>,
    pub service_id: Option<Uuid>,
    pub service_name: Option<String>,
    pub service_type: Option<ServiceType>,
    pub owned_by: String,
    pub description: Option<String>,
    pub enable_interpolation_in_file: bool,
    pub overridden_secret: Option<SecretReference>,
    pub aliased_secret: Option<SecretReference>,
}

impl From<EnvironmentVariable> for Secret {
    fn from(variable: EnvironmentVariable) -> Self {
        let reference = |reference: VariableReference| SecretReference {
            id: reference.id,
            key: reference.key,
            mount_path: reference.mount_path,
            scope: reference.scope,
            variable_type: reference.variable_type,
            description: None,
            enable_interpolation_in_file: false,
        };
        Secret {
            id: variable.id,
            created_at: variable.created_at,
            updated_at: variable.updated_at,
            key: variable.key,
            scope: variable.scope,
            variable_type: variable.variable_type,
            mount_path: variable.mount_path,
            service_id: variable.service_id,
            service_name: variable.service_name,
            service_type: variable.service_type,
            owned_by: variable.owned_by,
            description: variable.description,
            enable_interpolation_in_file: variable.enable_interpolation_in_file,
            overridden_secret: variable.overridden_variable.map(reference),
            aliased_secret: variable.aliased_variable.map(reference),
        }
    }
}

/// Body of `POST /{scope}/{id}/environmentVariable` and `/secret`, and of their updates. With a
/// `mount_path` the variable is a file mounted there.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableRequest {
    pub key: String,
    /// Required; an update of a secret may leave it out to keep the value.
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub mount_path: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub enable_interpolation_in_file: bool,
}

impl VariableRequest {
    /// `value_kept` is true when the stored value stands in for a missing one.
    pub fn validate(&self, value_kept: bool) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::variable_key("key", &self.key));
        if self.value.is_none() && !value_kept {
            violations.check(Some(FieldError::new("value", "is required")));
        }
        if let Some(path) = &self.mount_path {
            violations.check(rules::mount_point("mount_path", path));
        }
        violations.check(rules::value("value", self.value.as_deref()));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.into_result()
    }
}

/// The most variables and secrets one project, environment or service defines.
pub const VARIABLES_PER_SCOPE_MAX: i64 = 1000;

/// The most variables a page of a variable list holds (`PageQuery`).
pub const VARIABLE_PAGE_SIZE_MAX: i64 = 100;

/// Body of `POST /variable`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VariableCreation {
    #[serde(flatten, deserialize_with = "crate::flat::strictly")]
    pub variable: VariableRequest,
    #[serde(default)]
    pub is_secret: bool,
    pub variable_scope: VariableScope,
    pub variable_parent_id: Uuid,
}

/// Body of `POST /variable/{id}/override` (spec 4.1).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OverrideRequest {
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub override_scope: Option<VariableScope>,
    #[serde(default)]
    pub override_parent_id: Option<Uuid>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub enable_interpolation_in_file: Option<bool>,
}

impl OverrideRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        for (field, missing) in [
            ("value", self.value.is_none()),
            ("override_scope", self.override_scope.is_none()),
            ("override_parent_id", self.override_parent_id.is_none()),
        ] {
            if missing {
                violations.check(Some(FieldError::new(field, "is required")));
            }
        }
        violations.check(rules::value("value", self.value.as_deref()));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.into_result()
    }
}

/// Body of `POST /environment/{id}/environmentVariable/{id}/override` (spec 4.1): the scope and
/// parent are in the path.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScopedOverrideRequest {
    /// The document does not require it: an override without one overrides with "".
    #[serde(default)]
    pub value: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub enable_interpolation_in_file: bool,
}

impl ScopedOverrideRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::value("value", Some(&self.value)));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.into_result()
    }
}

/// Body of `POST /{scope}/{id}/environmentVariable/{id}/alias` (and `…/secret/{id}/alias`): the
/// scope and parent are in the path.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScopedAliasRequest {
    pub key: String,
    #[serde(default)]
    pub description: Option<String>,
}

impl ScopedAliasRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        alias_rules(&self.key, self.description.as_deref())
    }
}

/// The rules of an alias, wherever its scope is named: a variable's key, a description.
fn alias_rules(key: &str, description: Option<&str>) -> Result<(), Vec<FieldError>> {
    let mut violations = Violations::default();
    violations.check(rules::variable_key("key", key));
    violations.check(rules::description("description", description));
    violations.into_result()
}

/// Body of `POST /variable/{id}/alias`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AliasRequest {
    pub key: String,
    pub alias_scope: VariableScope,
    pub alias_parent_id: Uuid,
    #[serde(default)]
    pub description: Option<String>,
}

impl AliasRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        alias_rules(&self.key, self.description.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn override_needs_value_scope_and_parent() {
        let fields = refused_fields(OverrideRequest::default().validate());
        assert_eq!(fields, ["value", "override_scope", "override_parent_id"]);
    }

    #[test]
    fn keys_are_variable_names_and_files_absolute() {
        let request = VariableRequest {
            key: "1BAD-KEY".into(),
            value: None,
            mount_path: Some("etc/app.conf".into()),
            description: None,
            enable_interpolation_in_file: false,
        };
        let fields = refused_fields(request.validate(false));
        assert_eq!(fields, ["key", "value", "mount_path"]);
    }

    #[test]
    fn scopes_know_their_depth_and_service() {
        assert!(VariableScope::Project.depth() < VariableScope::Environment.depth());
        assert!(VariableScope::Environment.depth() < VariableScope::Job.depth());
        assert_eq!(
            VariableScope::of_service(ServiceType::Helm),
            Some(VariableScope::Helm)
        );
        assert_eq!(VariableScope::of_service(ServiceType::Database), None);
    }
}
