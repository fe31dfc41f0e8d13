//! Global services as `provide_*`/`use_*` context pairs.

pub mod check;
pub mod config;
pub mod deploy_review;
pub mod embed;
pub mod names_changed;
pub mod polling;
pub mod prefetch;
pub mod resource;
pub mod role;
pub mod shown_organization;
pub mod theme;
pub mod time_zones;
pub mod toasts;

/// Provides every global service; called once by the app.
pub fn provide_all() {
    config::provide_config();
    let embedded = embed::provide_embed();
    crate::api::session::provide_session(embedded);
    theme::provide_theme(embedded);
    toasts::provide_toasts();
    crate::api::connection::provide_connection();
    crate::api::rate_limit::provide_rate_limit();
    polling::provide_page_visibility();
    crate::api::service_kinds::provide_service_kinds();
    shown_organization::provide_shown_organization();
    role::provide_current_role();
    names_changed::provide_names_changed();
}
