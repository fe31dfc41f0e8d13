//! The server's integration tests, in one binary (one link instead of one per file): each
//! module drives a server on a temporary database through the HTTP API; `kill_restart` runs the
//! real process.

mod common;

mod actions;
mod alert_receivers;
mod api;
mod audit;
mod audit_access;
mod auth;
mod backups;
mod bounds;
mod clones;
mod clusters;
mod commits;
mod console;
mod contract;
mod contract_writes;
mod credentials;
mod custom_domains;
mod data_folder;
mod demo;
mod engine;
mod forward;
mod fuzz;
mod git_tokens;
mod history;
mod imports;
mod kill_restart;
mod links;
mod load;
mod members;
mod openapi;
mod overload;
mod own_document;
mod queries;
mod queue;
mod registries;
mod rollback;
mod schema;
mod secrets;
mod selected_services;
mod services;
mod settings;
mod state_machine;
mod stored_shapes;
mod tenants;
mod terraform;
mod tokens;
mod upkeep;
mod variable_bulk;
mod variable_import;
mod variables;
mod webhook_deliveries;
mod webhooks;
mod writes;
