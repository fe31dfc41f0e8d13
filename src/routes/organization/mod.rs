//! `/organization/:org/...`: the organization's pages.

pub mod audit_log;
pub mod cluster;
pub mod clusters;
pub mod overview;
pub mod project;
pub mod settings;

use std::future::Future;

use leptos::prelude::*;
use uuid::Uuid;

use crate::api::{use_api, Api, ApiError};
use crate::routes::param_id;

/// The error of a page whose address names no organization.
pub fn no_organization() -> ApiError {
    ApiError::NotFound("The address names no organization.".into())
}

/// The records of the organization the address names that a page lists (`fetch` reads them),
/// with the organization's id.
pub fn organization_records<T, Fut>(
    fetch: impl Fn(Api, Uuid) -> Fut + 'static,
) -> LocalResource<Result<(Uuid, Vec<T>), ApiError>>
where
    T: 'static,
    Fut: Future<Output = Result<Vec<T>, ApiError>> + 'static,
{
    let api = use_api();
    let org = param_id("org");
    LocalResource::new(move || {
        let asked = org.get().map(|org| (org, fetch(api, org)));
        async move {
            let (org, records) = asked.ok_or_else(no_organization)?;
            records.await.map(|list| (org, list))
        }
    })
}
