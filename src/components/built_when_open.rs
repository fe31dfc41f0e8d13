//! A disclosure whose content is built when it is first opened, not before: a long list (a
//! thousand services) that few people open costs the page nothing until then. Which ones are
//! open is kept by key in `KeptOpen`, so that one drawn again (its list read anew, at a poll or
//! after a change) stays as the person left it.

use std::collections::HashSet;

use leptos::prelude::*;

/// The disclosures left open, by key, across their being drawn again.
#[derive(Clone, Copy)]
pub struct KeptOpen(StoredValue<HashSet<String>>);

impl Default for KeptOpen {
    fn default() -> Self {
        Self(StoredValue::new(HashSet::new()))
    }
}

impl KeptOpen {
    fn contains(self, key: &str) -> bool {
        self.0.with_value(|opened| opened.contains(key))
    }

    fn set(self, key: &str, open: bool) {
        self.0.update_value(|opened| {
            if open {
                opened.insert(key.to_string());
            } else {
                opened.remove(key);
            }
        });
    }
}

#[component]
pub fn BuiltWhenOpen(
    /// What the closed disclosure says.
    summary: String,
    /// Which one this is, among those `opened` keeps.
    key: String,
    opened: KeptOpen,
    children: ChildrenFn,
) -> impl IntoView {
    let open = opened.contains(&key);
    let built = RwSignal::new(open);
    let toggle = move |event: leptos::ev::Event| {
        let now_open = event_target::<web_sys::Element>(&event).has_attribute("open");
        opened.set(&key, now_open);
        if now_open {
            built.set(true);
        }
    };
    view! {
        <details class="built-when-open" open=open on:toggle=toggle>
            <summary>{summary}</summary>
            {move || built.get().then(|| children())}
        </details>
    }
}
