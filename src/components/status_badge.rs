use leptos::prelude::*;
use platform_api::{ClusterState, ServiceState, StateTone};

/// A state a badge can show: a service's or a cluster's.
trait BadgeState: Copy + Send + Sync + 'static {
    fn tone(self) -> StateTone;
    /// The API's word for it, for `data-state`.
    fn wire(self) -> &'static str;
}

impl BadgeState for ServiceState {
    fn tone(self) -> StateTone {
        ServiceState::tone(self)
    }
    fn wire(self) -> &'static str {
        self.as_str()
    }
}

impl BadgeState for ClusterState {
    fn tone(self) -> StateTone {
        ClusterState::tone(self)
    }
    fn wire(self) -> &'static str {
        self.as_str()
    }
}

/// A service's state as colour *and* text, so that it reads without colour too. A service that
/// was never deployed is READY to be: it reads "Not deployed", not "Ready". `live` makes it a
/// live region, its changes read out: for the one status a page is about, not for a list's
/// rows (a thousand live regions would talk over each other).
#[component]
pub fn StatusBadge(
    #[prop(into)] state: Signal<ServiceState>,
    #[prop(optional, into)] never_deployed: Signal<bool>,
    #[prop(optional)] live: bool,
) -> impl IntoView {
    let label = move || match state.get() {
        ServiceState::Ready if never_deployed.get() => "Not deployed".to_string(),
        other => other.label(),
    };
    badge(state, label, live)
}

/// A cluster's state, the same way.
#[component]
pub fn ClusterStatusBadge(
    #[prop(into)] state: Signal<ClusterState>,
    #[prop(optional)] live: bool,
) -> impl IntoView {
    badge(state, move || state.get().label(), live)
}

fn badge<S: BadgeState>(
    state: Signal<S>,
    label: impl Fn() -> String + Send + Sync + 'static,
    live: bool,
) -> impl IntoView {
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
            role=live.then_some("status")
        >
            <span class="badge__dot" aria-hidden="true"></span>
            {label}
        </span>
    }
}
