//! Whether a person reviews what a deploy changes before it runs: yes, unless they ticked "Deploy
//! without reviewing" in a review, which this browser remembers (`localStorage`).

use leptos::prelude::*;

const STORAGE_KEY: &str = "platform-console:deploy-without-review";

/// The choice, shared by every deploy button of the page.
#[derive(Clone, Copy)]
pub struct ReviewChoice(RwSignal<bool>);

impl ReviewChoice {
    /// The choice as this browser remembers it.
    pub fn remembered() -> Self {
        let skipped = storage()
            .and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten())
            .is_some();
        Self(RwSignal::new(skipped))
    }

    /// Whether deploys run at once, without a review.
    pub fn skipped(self) -> bool {
        self.0.get_untracked()
    }

    pub fn signal(self) -> RwSignal<bool> {
        self.0
    }

    /// Keeps the current choice for the next visits.
    pub fn remember(self) {
        let Some(storage) = storage() else {
            return;
        };
        let _ = if self.0.get_untracked() {
            storage.set_item(STORAGE_KEY, "1")
        } else {
            storage.remove_item(STORAGE_KEY)
        };
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}
