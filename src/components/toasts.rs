use leptos::prelude::*;

use crate::state::toasts::{use_toasts, ToastKind};

/// Where toasts appear; announced to screen readers.
#[component]
pub fn ToastHost() -> impl IntoView {
    let toasts = use_toasts();
    view! {
        <div class="toasts" role="status" aria-live="polite">
            <For each=move || toasts.list() key=|toast| toast.id let(toast)>
                <div class=match toast.kind {
                    ToastKind::Success => "toast toast--success",
                    ToastKind::Error => "toast toast--error",
                }>
                    <span>{toast.message.clone()}</span>
                    <button type="button" class="toast__close" aria-label="Dismiss"
                        on:click=move |_| toasts.dismiss(toast.id)>"×"</button>
                </div>
            </For>
        </div>
    }
}
