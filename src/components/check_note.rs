//! What a check before create says beside its field (`state::check`): checking, found, or not
//! found with the API's words; nothing when there is nothing to say.

use leptos::prelude::*;

use crate::state::check::Checked;

#[component]
pub fn CheckNote(checked: ReadSignal<Checked>) -> impl IntoView {
    view! {
        <p class="field__check" role="status" aria-live="polite">
            {move || match checked.get() {
                Checked::Nothing => None,
                Checked::Checking => Some(view! { <span class="muted">"Checking…"</span> }.into_any()),
                Checked::Found => Some(view! { <span class="field__found">"✓ Found"</span> }.into_any()),
                Checked::Missing(why) => Some(view! {
                    <span class="field__missing">{format!("✗ {}", capitalized(&why))}</span>
                }.into_any()),
            }}
        </p>
    }
}

/// The API's words start a sentence here.
fn capitalized(words: &str) -> String {
    let mut letters = words.chars();
    match letters.next() {
        Some(first) => first.to_uppercase().chain(letters).collect(),
        None => String::new(),
    }
}
