//! A small button that opens and closes a part of a record (its form, its deliveries), saying
//! which it does and whether the part is open.

use leptos::prelude::*;

/// Shows `label` while `open` is false and `open_label` while it is true; `name` is its
/// accessible name when the label alone does not say which record it is of.
#[component]
pub fn ToggleButton(
    open: RwSignal<bool>,
    label: &'static str,
    open_label: &'static str,
    #[prop(optional, into)] name: Option<String>,
    #[prop(optional)] disabled: bool,
) -> impl IntoView {
    view! {
        <button type="button" class="button button--small button--secondary"
            aria-expanded=move || open.get().to_string() aria-label=name disabled=disabled
            on:click=move |_| open.update(|open| *open = !*open)>
            {move || if open.get() { open_label } else { label }}
        </button>
    }
}
