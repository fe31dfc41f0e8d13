//! `/organization/:org/settings/...`: the organization's settings.

pub mod api_tokens;
pub mod webhooks;
