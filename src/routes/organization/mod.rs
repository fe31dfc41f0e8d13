//! `/organization/:org/...`: the organization's pages.

pub mod alerts;
pub mod audit_log;
pub mod cluster;
pub mod clusters;
pub mod fleet;
pub mod new;
pub mod overview;
pub mod project;
pub mod settings;
pub mod timeline;

use std::future::Future;

use leptos::prelude::*;
use uuid::Uuid;

use crate::api::{use_api, Api, ApiError};
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::state::resource::resource;

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
    let org = current_id(|a: &OrganizationAddress| a.org);
    resource(move || {
        let asked = org.get().map(|org| (org, fetch(api, org)));
        async move {
            let (org, records) = asked.ok_or_else(no_organization)?;
            records.await.map(|list| (org, list))
        }
    })
}

/// A record as its update answered it, in the place of the one it replaces in `records` (the
/// same `id`): the list shows it without being read again.
pub fn replace_record<T: 'static>(
    records: LocalResource<Result<(Uuid, Vec<T>), ApiError>>,
    saved: T,
    id: impl Fn(&T) -> Uuid,
) {
    records.update(|loaded| {
        if let Some(Ok((_, records))) = loaded {
            if let Some(kept) = records.iter_mut().find(|kept| id(kept) == id(&saved)) {
                *kept = saved;
            }
        }
    });
}
