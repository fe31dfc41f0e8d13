use leptos::prelude::*;
use platform_api::WireEnum;
use platform_api::{AlertRuleState, ClusterState, ServiceState, StateTone};

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

impl BadgeState for AlertRuleState {
    fn tone(self) -> StateTone {
        AlertRuleState::tone(self)
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
    let label = move || service_label(state.get(), never_deployed.get());
    badge(state, label, live)
}

/// A service's badge as HTML, for rows written as HTML (which change by being written again):
/// the markup of `badge` below, with nothing to follow.
pub fn service_badge_html(state: ServiceState, never_deployed: bool) -> String {
    format!(
        r#"<span class="{}" data-state="{}"><span class="badge__dot" aria-hidden="true"></span>{}</span>"#,
        badge_class(state),
        state.wire(),
        html_escape::encode_text(service_label(state, never_deployed)),
    )
}

/// Changes a badge written by `service_badge_html` to show `state`: its class, state and words,
/// without writing it again.
pub fn set_service_badge(badge: &web_sys::Element, state: ServiceState, never_deployed: bool) {
    badge.set_class_name(badge_class(state));
    let _ = badge.set_attribute("data-state", state.wire());
    if let Some(words) = badge.last_child() {
        words.set_text_content(Some(service_label(state, never_deployed)));
    }
}

fn service_label(state: ServiceState, never_deployed: bool) -> &'static str {
    match state {
        ServiceState::Ready if never_deployed => "Not deployed",
        other => other.label(),
    }
}

fn badge_class(state: impl BadgeState) -> &'static str {
    match state.tone() {
        StateTone::Progress => "badge badge--progress",
        StateTone::Success => "badge badge--success",
        StateTone::Failure => "badge badge--failure",
        StateTone::Neutral => "badge badge--neutral",
    }
}

/// A cluster's state, the same way.
#[component]
pub fn ClusterStatusBadge(
    #[prop(into)] state: Signal<ClusterState>,
    #[prop(optional)] live: bool,
) -> impl IntoView {
    badge(state, move || state.get().label(), live)
}

/// An alert rule's state, the same way.
#[component]
pub fn AlertStateBadge(#[prop(into)] state: Signal<AlertRuleState>) -> impl IntoView {
    badge(state, move || state.get().label(), false)
}

fn badge<S: BadgeState>(
    state: Signal<S>,
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    live: bool,
) -> impl IntoView {
    view! {
        <span
            class=move || badge_class(state.get())
            data-state=move || state.get().wire()
            role=live.then_some("status")
        >
            <span class="badge__dot" aria-hidden="true"></span>
            {label}
        </span>
    }
}
