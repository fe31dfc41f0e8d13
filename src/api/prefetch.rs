//! Answers asked for as soon as the router knows the page, while the page's code is still on its
//! way (each group of pages is a module of its own, fetched when first shown): the page's first
//! read of the same address takes that answer rather than asking again once its code runs.

use std::cell::RefCell;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use gloo_net::http::Method;

use super::{Api, ApiError};

/// How long an answer waits for its page: after this the page asks again (the person went
/// elsewhere before the page showed, and came back later).
const FRESH_MS: f64 = 10_000.0;

type Answer = Shared<LocalBoxFuture<'static, Result<Vec<u8>, ApiError>>>;

struct Prefetched {
    path: String,
    asked_at: f64,
    answer: Answer,
}

thread_local! {
    static WAITING: RefCell<Vec<Prefetched>> = const { RefCell::new(Vec::new()) };
}

impl Api {
    /// Asks for `path` now, for the page about to show.
    pub fn prefetch(&self, path: String) {
        let api = *self;
        let answer = {
            let path = path.clone();
            async move { api.call(Method::GET, &path, None).await }
        }
        .boxed_local()
        .shared();
        // Polled here, so that the request leaves now rather than after the work of this task
        // (the router goes on to build the page's frame), and then driven to its end.
        let _ = answer.clone().now_or_never();
        leptos::task::spawn_local(answer.clone().map(drop));
        WAITING.with_borrow_mut(|waiting| {
            waiting.retain(|prefetched| prefetched.path != path);
            waiting.push(Prefetched {
                path,
                asked_at: js_sys::Date::now(),
                answer,
            });
        });
    }
}

/// The answer asked for `path` beforehand, if it is fresh; taken, so a later read asks again.
pub(super) fn take(path: &str) -> Option<Answer> {
    WAITING.with_borrow_mut(|waiting| {
        let now = js_sys::Date::now();
        waiting.retain(|prefetched| now - prefetched.asked_at < FRESH_MS);
        let at = waiting
            .iter()
            .position(|prefetched| prefetched.path == path)?;
        Some(waiting.swap_remove(at).answer)
    })
}
