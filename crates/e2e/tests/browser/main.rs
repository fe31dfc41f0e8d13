//! The console's end-to-end tests, in one binary: each module runs the reference server with the
//! built console and drives it in headless Chromium as a person would.

mod api_tokens;
mod application_settings;
mod audit_log;
mod clone;
mod clusters;
mod command_palette;
mod commits;
mod connection;
mod database_connection;
mod deploy_journey;
mod embed;
mod environment_actions;
mod every_kind;
mod every_page;
mod failure_view;
mod helm_settings;
mod job_settings;
mod new_service;
mod queue;
mod read_only;
mod registries;
mod rename_delete;
mod rollback;
mod selection;
mod service_settings;
mod session;
mod settings;
mod stand_in;
mod status_refresh;
mod switchers;
mod terraform_settings;
mod theme;
mod variable_import;
mod variables;
mod webhooks;
