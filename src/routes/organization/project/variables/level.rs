//! The levels a service's variables come from: the service, its environment, its project, the
//! platform's built-in ones.

use platform_api::VariableScope;
use uuid::Uuid;

/// Where a variable is defined: a scope and the id of the project, environment or service.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub scope: VariableScope,
    pub parent: Uuid,
}

/// The levels a person may filter the variables by, as (value, label).
pub(super) const LEVELS: [(&str, &str); 5] = [
    ("", "Every level"),
    ("service", "This service"),
    ("environment", "Environment"),
    ("project", "Project"),
    ("built-in", "Built-in"),
];

/// The `LEVELS` value of a scope.
pub(super) fn level_value(scope: VariableScope) -> &'static str {
    match scope {
        VariableScope::Project => "project",
        VariableScope::Environment => "environment",
        VariableScope::BuiltIn => "built-in",
        _ => "service",
    }
}

/// How a person names the level a variable comes from.
pub(super) fn level_label(scope: VariableScope) -> &'static str {
    match scope {
        VariableScope::Project => "Project",
        VariableScope::Environment => "Environment",
        VariableScope::BuiltIn => "Built-in",
        _ => "This service",
    }
}
