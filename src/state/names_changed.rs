//! Names given by renaming, for what shows them elsewhere (the breadcrumb) without reading the
//! records again.

use std::collections::HashMap;

use leptos::prelude::*;
use uuid::Uuid;

/// The names pages gave by renaming what the breadcrumb names: the breadcrumb shows them without
/// reading the records again. Provided with the app's other services rather than by the shell:
/// the shell is a page of its own (fetched when first shown), whose values the router may drop
/// while a page still reads them.
#[derive(Clone, Copy)]
pub struct NamesChanged(RwSignal<HashMap<Uuid, String>>);

pub fn provide_names_changed() {
    provide_context(NamesChanged(RwSignal::new(HashMap::new())));
}

impl NamesChanged {
    /// `id` is now named `name` (the answer of its rename).
    pub fn renamed(&self, id: Uuid, name: String) {
        self.0.update(|names| {
            names.insert(id, name);
        });
    }

    pub fn name_of(&self, id: Uuid) -> Option<String> {
        self.0.with(|names| names.get(&id).cloned())
    }
}

pub fn use_names_changed() -> Option<NamesChanged> {
    use_context::<NamesChanged>()
}
