//! Global services as `provide_*`/`use_*` context pairs.

pub mod check;
pub mod config;
pub mod connection;
pub mod deploy_review;
pub mod embed;
pub mod polling;
pub mod prefetch;
pub mod rate_limit;
pub mod resource;
pub mod role;
pub mod service_kinds;
pub mod session;
pub mod theme;
pub mod time_zones;
pub mod toasts;

/// Provides every global service; called once by the app.
pub fn provide_all() {
    config::provide_config();
    let embedded = embed::provide_embed();
    session::provide_session(embedded);
    theme::provide_theme(embedded);
    toasts::provide_toasts();
    connection::provide_connection();
    rate_limit::provide_rate_limit();
    polling::provide_page_visibility();
    service_kinds::provide_service_kinds();
    role::provide_current_role();
    crate::components::shell::provide_names_changed();
}
