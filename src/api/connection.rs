//! Whether the API can be reached. A call that cannot reach it raises a banner; while the banner
//! shows, the console tries again every few seconds, and once the API answers, every resource on
//! the page refreshes (`components/loaded.rs`), so that no panel stays on its error.

use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct Connection {
    /// The API address that could not be reached, while it cannot.
    unreachable: RwSignal<Option<String>>,
    /// Calls that could not reach the API: each one arms the next try.
    failures: RwSignal<u32>,
    /// Times the API answered again after being unreachable.
    restored: RwSignal<u32>,
}

pub fn provide_connection() {
    provide_context(Connection {
        unreachable: RwSignal::new(None),
        failures: RwSignal::new(0),
        restored: RwSignal::new(0),
    });
}

pub fn use_connection() -> Connection {
    expect_context()
}

impl Connection {
    pub fn unreachable(&self) -> Option<String> {
        self.unreachable.get()
    }

    pub fn failures(&self) -> u32 {
        self.failures.get()
    }

    pub fn restored(&self) -> u32 {
        self.restored.get()
    }

    /// A call could not reach the API at `base_url`.
    pub fn failed(&self, base_url: &str) {
        self.unreachable.set(Some(base_url.to_string()));
        self.failures.update(|count| *count += 1);
    }

    /// The API answered (whatever it said).
    pub fn reached(&self) {
        if self.unreachable.with_untracked(Option::is_some) {
            self.unreachable.set(None);
            self.restored.update(|count| *count += 1);
        }
    }
}
