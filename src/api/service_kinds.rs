//! The kind of each service the console has seen listed or made. A service's address carries no
//! kind and the platform reads a service only by its kind's path, so a service page reached from
//! a list, a creation or a copy knows its kind at once; only an address opened cold reads its
//! environment's list of services, once however many parts of the page ask (the breadcrumb, the
//! record, the status), and the list teaches the kinds of all of them.

use std::collections::HashMap;

use futures::future::{LocalBoxFuture, Shared};
use leptos::prelude::*;
use platform_api::ServiceType;
use uuid::Uuid;

use super::error::ApiError;

/// A read of an environment's list of services (teaching the kinds of its services) that several
/// callers may wait on.
pub type Listing = Shared<LocalBoxFuture<'static, Result<(), ApiError>>>;

#[derive(Clone, Copy)]
pub struct ServiceKinds {
    known: StoredValue<HashMap<Uuid, ServiceType>>,
    /// The lists being read, by environment.
    reading: StoredValue<HashMap<Uuid, Listing>, LocalStorage>,
}

pub fn provide_service_kinds() {
    provide_context(ServiceKinds {
        known: StoredValue::new(HashMap::new()),
        reading: StoredValue::new_local(HashMap::new()),
    });
}

pub fn use_service_kinds() -> ServiceKinds {
    expect_context()
}

impl ServiceKinds {
    pub fn learn(&self, id: Uuid, kind: ServiceType) {
        self.known.update_value(|kinds| {
            kinds.insert(id, kind);
        });
    }

    pub fn of(&self, id: Uuid) -> Option<ServiceType> {
        self.known.with_value(|kinds| kinds.get(&id).cloned())
    }

    /// Waits for the environment's list as being read, or as `read` starts reading it: one
    /// request for every caller that asks while it runs; the next one after it reads again.
    pub async fn listing(
        &self,
        environment: Uuid,
        read: impl FnOnce() -> Listing,
    ) -> Result<(), ApiError> {
        let listing = self
            .reading
            .try_update_value(|reading| reading.entry(environment).or_insert_with(read).clone());
        let Some(listing) = listing else {
            return Err(ApiError::NotFound("The page was closed.".into()));
        };
        let listed = listing.await;
        self.reading.update_value(|reading| {
            reading.remove(&environment);
        });
        listed
    }
}
