//! `/organization/:org/settings/...`: the organization's settings.

pub mod webhooks;
