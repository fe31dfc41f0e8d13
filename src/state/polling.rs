//! Polling that is polite: one timer per view, paused while the tab is hidden, stopped when the
//! view unmounts or when there is nothing left to wait for.

use std::time::Duration;

use leptos::ev;
use leptos::prelude::*;

#[derive(Clone, Copy)]
struct PageVisible(RwSignal<bool>);

pub fn provide_page_visibility() {
    let visible = RwSignal::new(!document().hidden());
    let handle = window_event_listener(ev::visibilitychange, move |_| {
        visible.set(!document().hidden());
    });
    on_cleanup(move || handle.remove());
    provide_context(PageVisible(visible));
}

/// Whether the page is shown (its tab not hidden); shown where the page's visibility is not
/// followed (a component test).
pub fn page_visible() -> Signal<bool> {
    match use_context::<PageVisible>() {
        Some(PageVisible(visible)) => visible.into(),
        None => Signal::stored(true),
    }
}

/// Calls `refetch` once `delay()` has passed, again each time the signals read by `delay` change
/// (that is, each time the polled resource answers). `delay` returning `None` stops polling until
/// it returns a delay again (after a new action, say).
pub fn poll(delay: impl Fn() -> Option<Duration> + 'static, refetch: impl Fn() + Clone + 'static) {
    let visible = use_context::<PageVisible>().map(|PageVisible(visible)| visible);
    Effect::new(move |_| {
        let visible = visible.map(|visible| visible.get()).unwrap_or(true);
        let Some(delay) = delay() else { return };
        if !visible {
            return;
        }
        let refetch = refetch.clone();
        if let Ok(handle) = set_timeout_with_handle(refetch, delay) {
            on_cleanup(move || handle.clear());
        }
    });
}
