//! The API answered 429: a visible countdown from `X-RateLimit-Reset`, then the call is retried.

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct RateLimit {
    /// Seconds until the retry, while waiting.
    seconds_left: RwSignal<Option<u32>>,
}

pub fn provide_rate_limit() {
    provide_context(RateLimit {
        seconds_left: RwSignal::new(None),
    });
}

pub fn use_rate_limit() -> RateLimit {
    expect_context()
}

impl RateLimit {
    pub fn seconds_left(&self) -> Option<u32> {
        self.seconds_left.get()
    }

    /// Waits `seconds` (at least one), counting down where the person can see it.
    pub async fn wait(&self, seconds: u32) {
        for left in (1..=seconds.max(1)).rev() {
            self.seconds_left.set(Some(left));
            TimeoutFuture::new(1_000).await;
        }
        self.seconds_left.set(None);
    }
}
