use leptos::prelude::*;
use platform_api::{ServiceState, StateTone};

/// A service state as colour *and* text, so that it reads without colour too.
#[component]
pub fn StatusBadge(#[prop(into)] state: Signal<ServiceState>) -> impl IntoView {
    let tone = move || match state.get().tone() {
        StateTone::Progress => "progress",
        StateTone::Success => "success",
        StateTone::Failure => "failure",
        StateTone::Neutral => "neutral",
    };
    view! {
        <span
            class=move || format!("badge badge--{}", tone())
            data-state=move || state.get().as_str()
            role="status"
        >
            <span class="badge__dot" aria-hidden="true"></span>
            {move || state.get().label()}
        </span>
    }
}
