use leptos::prelude::*;

/// Says that a list is empty and what to do next.
#[component]
pub fn EmptyState(title: &'static str, hint: &'static str) -> impl IntoView {
    view! {
        <div class="empty">
            <p class="empty__title">{title}</p>
            <p class="empty__hint">{hint}</p>
        </div>
    }
}
