//! The SQL of the API's resources, below the routes and beside the engine: each resource's rows
//! as its handlers and the engine read and write them.

pub mod action;
pub mod advanced_settings;
pub mod alert_rules;
pub mod associated;
pub mod auto_deploy;
pub mod backups;
pub mod clones;
pub mod cluster_credentials;
pub mod cluster_network;
pub mod cluster_runs;
pub mod cluster_statuses;
pub mod custom_domains;
pub mod deployment_queue;
pub mod deployment_rules;
pub mod deployment_stages;
pub mod environments;
pub mod fleet;
pub mod members;
pub mod organization_resources;
pub mod organizations;
pub mod people;
pub mod previews;
pub mod projects;
pub mod roles;
pub mod runs;
pub mod scope;
pub mod services;
pub mod stats;
pub mod tokens;
pub mod variables;
pub mod webhook_deliveries;
