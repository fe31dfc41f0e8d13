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

/// The ticks of a page's one poll, for the sections of the page that read at a slower rhythm of
/// their own (`every`): they read at a tick rather than on a timer of their own.
#[derive(Clone, Copy)]
struct PageBeat(ReadSignal<u64>);

/// `poll` for a whole page: the sections below it that read now and then follow its ticks.
pub fn poll_for_page(delay: impl Fn() -> Option<Duration> + 'static, refetch: impl Fn() + 'static) {
    let beat = RwSignal::new(0u64);
    provide_context(PageBeat(beat.read_only()));
    let refetch = std::rc::Rc::new(refetch);
    poll(delay, move || {
        refetch();
        beat.update(|ticks| *ticks += 1);
    });
}

/// Calls `read` again once `at_least` has passed since the last time, while `answered()` (the
/// last read answered): at a tick of the page's poll where the page has one (`poll_for_page`), on
/// a timer of its own where it has none.
pub fn every(
    at_least: Duration,
    answered: impl Fn() -> bool + 'static,
    read: impl Fn() + Clone + 'static,
) {
    match use_context::<PageBeat>() {
        Some(PageBeat(beat)) => {
            let last = StoredValue::new(js_sys::Date::now());
            Effect::new(move |_| {
                beat.track();
                let now = js_sys::Date::now();
                let due = now - last.get_value() >= at_least.as_millis() as f64;
                if due && untrack(&answered) {
                    last.set_value(now);
                    read();
                }
            });
        }
        None => poll(move || answered().then_some(at_least), read),
    }
}
