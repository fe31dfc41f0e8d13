use leptos::prelude::*;

/// Grey bars in the shape of what is loading.
#[component]
pub fn Skeleton(#[prop(default = 3)] lines: usize) -> impl IntoView {
    view! {
        <div class="skeleton" aria-busy="true" aria-label="Loading">
            {(0..lines).map(|_| view! { <div class="skeleton__line"></div> }).collect_view()}
        </div>
    }
}
