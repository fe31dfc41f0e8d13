//! The code of every page, fetched once a signed-in person's first page is shown and the browser
//! is idle, so that moving around afterwards waits for no code: after the page's `load`, a quiet
//! moment, and an idle period of the browser's (`requestIdleCallback`; a timer where it has
//! none), one page group after another. Never when the browser says the person saves data or is
//! on a 2G connection. `html[data-prefetched]` says when it is done (the tests and the first-load
//! bench wait for it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::future::LocalBoxFuture;
use js_sys::{Function, Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Fetches the code of every page, one group after another: the route table's (`app.rs`).
#[derive(Clone, Copy)]
pub struct PreloadEveryPage(pub fn() -> LocalBoxFuture<'static, ()>);

/// How long after the page's `load` the prefetch waits before asking for idle time: the page's
/// own reads go first.
const QUIET: Duration = Duration::from_secs(3);

/// The longest the prefetch waits for idle time once asked for it.
const IDLE_TIMEOUT_MS: u32 = 10_000;

/// Once per page load: a person who signs out and in again has the code already.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Fetches every page's code when the browser is idle, unless it says to save data.
pub fn prefetch_when_idle() {
    let Some(PreloadEveryPage(preload)) = use_context::<PreloadEveryPage>() else {
        return;
    };
    if saves_data() || STARTED.swap(true, Ordering::Relaxed) {
        return;
    }
    after_load(move || {
        set_timeout(
            move || {
                when_idle(move || {
                    leptos::task::spawn_local(async move {
                        preload().await;
                        if let Some(root) = document().document_element() {
                            let _ = root.set_attribute("data-prefetched", "true");
                        }
                    })
                })
            },
            QUIET,
        )
    });
}

/// Whether the browser says the person saves data, or is on a 2G connection
/// (`navigator.connection`, where the browser has it).
fn saves_data() -> bool {
    let Ok(connection) = Reflect::get(&window().navigator(), &"connection".into()) else {
        return false;
    };
    if connection.is_undefined() || connection.is_null() {
        return false;
    }
    let save_data = Reflect::get(&connection, &"saveData".into())
        .ok()
        .and_then(|value| value.as_bool())
        .unwrap_or(false);
    let slow = Reflect::get(&connection, &"effectiveType".into())
        .ok()
        .and_then(|value| value.as_string())
        .is_some_and(|kind| kind.ends_with("2g"));
    save_data || slow
}

/// Runs `then` once the page has loaded (now, if it has).
fn after_load(then: impl FnOnce() + 'static) {
    if document().ready_state() == "complete" {
        then();
        return;
    }
    let then = std::cell::Cell::new(Some(then));
    let handle = window_event_listener(leptos::ev::load, move |_| {
        if let Some(then) = then.take() {
            then();
        }
    });
    // The listener lives as long as the page: `load` comes once.
    std::mem::forget(handle);
}

/// Runs `then` in the browser's next idle period (at most `IDLE_TIMEOUT_MS` away).
fn when_idle(then: impl FnOnce() + 'static) {
    let callback = Closure::once_into_js(then);
    let request_idle = Reflect::get(&window(), &"requestIdleCallback".into())
        .ok()
        .and_then(|value| value.dyn_into::<Function>().ok());
    match request_idle {
        Some(request_idle) => {
            let options = Object::new();
            let _ = Reflect::set(&options, &"timeout".into(), &JsValue::from(IDLE_TIMEOUT_MS));
            let _ = request_idle.call2(&window(), &callback, &options);
        }
        None => {
            let _ = window().set_timeout_with_callback(callback.unchecked_ref::<Function>());
        }
    }
}
