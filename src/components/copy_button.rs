use leptos::prelude::*;

/// Copies `text` (an id, say) to the clipboard.
#[component]
pub fn CopyButton(#[prop(into)] text: String, label: &'static str) -> impl IntoView {
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let clipboard = window().navigator().clipboard();
        let _ = clipboard.write_text(&text);
        copied.set(true);
        set_timeout(move || copied.set(false), std::time::Duration::from_secs(2));
    };
    view! {
        <button type="button" class="button button--ghost button--small" on:click=copy aria-label=label>
            {move || if copied.get() { "Copied" } else { "Copy" }}
        </button>
    }
}
