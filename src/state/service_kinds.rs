//! The kind of each service the console has seen listed or made. A service's address carries no
//! kind and the platform reads a service only by its kind's path, so a service page reached from
//! a list, a creation or a copy knows its kind at once; only an address opened cold reads its
//! environment's list of services (once: it teaches the kinds of all of them).

use std::collections::HashMap;

use leptos::prelude::*;
use platform_api::ServiceType;
use uuid::Uuid;

#[derive(Clone, Copy)]
pub struct ServiceKinds(StoredValue<HashMap<Uuid, ServiceType>>);

pub fn provide_service_kinds() {
    provide_context(ServiceKinds(StoredValue::new(HashMap::new())));
}

pub fn use_service_kinds() -> ServiceKinds {
    expect_context()
}

impl ServiceKinds {
    pub fn learn(&self, id: Uuid, kind: ServiceType) {
        self.0.update_value(|kinds| {
            kinds.insert(id, kind);
        });
    }

    pub fn of(&self, id: Uuid) -> Option<ServiceType> {
        self.0.with_value(|kinds| kinds.get(&id).cloned())
    }
}
