mod deployment_rules;
pub mod environment;
pub mod overview;
pub mod variables;
