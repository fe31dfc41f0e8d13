use leptos::prelude::*;
use platform_api::{ClusterState, ServiceState, StateTone};

/// A state a badge can show: a service's or a cluster's.
trait BadgeState: Copy + Send + Sync + 'static {
    fn tone(self) -> StateTone;
    fn label(self) -> String;
    /// The API's word for it, for `data-state`.
    fn wire(self) -> &'static str;
}

impl BadgeState for ServiceState {
    fn tone(self) -> StateTone {
        ServiceState::tone(self)
    }
    fn label(self) -> String {
        ServiceState::label(self)
    }
    fn wire(self) -> &'static str {
        self.as_str()
    }
}

impl BadgeState for ClusterState {
    fn tone(self) -> StateTone {
        ClusterState::tone(self)
    }
    fn label(self) -> String {
        ClusterState::label(self)
    }
    fn wire(self) -> &'static str {
        self.as_str()
    }
}

/// A service's state as colour *and* text, so that it reads without colour too.
#[component]
pub fn StatusBadge(#[prop(into)] state: Signal<ServiceState>) -> impl IntoView {
    badge(state)
}

/// A cluster's state, the same way.
#[component]
pub fn ClusterStatusBadge(#[prop(into)] state: Signal<ClusterState>) -> impl IntoView {
    badge(state)
}

fn badge<S: BadgeState>(state: Signal<S>) -> impl IntoView {
    let tone = move || match state.get().tone() {
        StateTone::Progress => "progress",
        StateTone::Success => "success",
        StateTone::Failure => "failure",
        StateTone::Neutral => "neutral",
    };
    view! {
        <span
            class=move || format!("badge badge--{}", tone())
            data-state=move || state.get().wire()
            role="status"
        >
            <span class="badge__dot" aria-hidden="true"></span>
            {move || state.get().label()}
        </span>
    }
}
