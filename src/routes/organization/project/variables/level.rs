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

impl Level {
    /// How a person names this level on its own page.
    pub(super) fn here(self) -> &'static str {
        match self.scope {
            VariableScope::Project => "this project",
            VariableScope::Environment => "this environment",
            _ => "this service",
        }
    }

    /// What an override here leaves alone.
    pub(super) fn others_keep(self) -> &'static str {
        match self.scope {
            VariableScope::Project => "The other projects keep the inherited value.",
            VariableScope::Environment => "The other environments keep the inherited value.",
            _ => "The other services keep the inherited value.",
        }
    }

    /// Where a first variable may be added from this level's page.
    pub(super) fn add_hint(self) -> &'static str {
        match self.scope {
            VariableScope::Project => "Add one with the form below.",
            VariableScope::Environment => {
                "Add one with the form below, for this environment or its project."
            }
            _ => "Add one with the form below, for this service, its environment or its project.",
        }
    }
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
