//! The organization of the page shown (its address's), for what belongs to the app rather than
//! to a page: the role read for it, the command palette's index. A person may be in several
//! organizations; the shell says which one the address names.

use leptos::prelude::*;
use uuid::Uuid;

#[derive(Clone, Copy)]
pub struct ShownOrganization(RwSignal<Option<Uuid>>);

pub fn provide_shown_organization() {
    provide_context(ShownOrganization(RwSignal::new(None)));
}

pub fn use_shown_organization() -> ShownOrganization {
    expect_context()
}

impl ShownOrganization {
    /// The organization last shown; `None` before any.
    pub fn get(&self) -> Option<Uuid> {
        self.0.get()
    }

    pub fn get_untracked(&self) -> Option<Uuid> {
        self.0.get_untracked()
    }

    /// The address names `organization`: told only when it changes.
    pub fn show(&self, organization: Uuid) {
        if self.0.get_untracked() != Some(organization) {
            self.0.set(Some(organization));
        }
    }
}
