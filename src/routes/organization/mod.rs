//! `/organization/:org/...`: the organization's pages.

pub mod cluster;
pub mod clusters;
pub mod overview;
pub mod project;
pub mod settings;

use crate::api::ApiError;

/// The error of a page whose address names no organization.
pub fn no_organization() -> ApiError {
    ApiError::NotFound("The address names no organization.".into())
}
