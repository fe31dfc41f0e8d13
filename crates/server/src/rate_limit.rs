//! Rate limit per token: a fixed one-minute window. Every authenticated answer carries
//! `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window
//! resets); over the limit the answer is 429 with `Retry-After`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderMap, HeaderValue};

use crate::error::ApiError;

const WINDOW: Duration = Duration::from_secs(60);

pub struct RateLimiter {
    per_minute: u32,
    windows: Mutex<HashMap<String, Window>>,
}

struct Window {
    started: Instant,
    count: u32,
}

/// Where a caller stands after one more request.
#[derive(Clone, Copy, Debug)]
pub struct Quota {
    limit: u32,
    used: u32,
    reset_seconds: u64,
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request of `key` and tells where it stands.
    pub fn hit(&self, key: &str) -> Quota {
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        // Forget windows that ended, so that the map does not grow with every token ever seen.
        if windows.len() > 10_000 {
            windows.retain(|_, window| now.duration_since(window.started) < WINDOW);
        }
        let window = windows.entry(key.to_string()).or_insert(Window {
            started: now,
            count: 0,
        });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window {
                started: now,
                count: 0,
            };
        }
        window.count = window.count.saturating_add(1);
        let left = WINDOW.saturating_sub(now.duration_since(window.started));
        Quota {
            limit: self.per_minute,
            used: window.count,
            reset_seconds: left.as_secs_f64().ceil() as u64,
        }
    }
}

impl Quota {
    /// 429 once the window's requests exceed the limit.
    pub fn check(&self) -> Result<(), ApiError> {
        if self.used > self.limit {
            Err(ApiError::rate_limited(self.limit, self.reset_seconds))
        } else {
            Ok(())
        }
    }

    pub fn write_headers(&self, headers: &mut HeaderMap) {
        let remaining = self.limit.saturating_sub(self.used);
        headers.insert("x-ratelimit-limit", HeaderValue::from(self.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(remaining));
        headers.insert("x-ratelimit-reset", HeaderValue::from(self.reset_seconds));
        if self.used > self.limit {
            headers.insert(RETRY_AFTER, HeaderValue::from(self.reset_seconds));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_applies_per_key() {
        let limiter = RateLimiter::new(2);
        assert!(limiter.hit("a").check().is_ok());
        assert!(limiter.hit("a").check().is_ok());
        let over = limiter.hit("a");
        assert!(over.check().is_err());
        assert!(over.reset_seconds >= 1 && over.reset_seconds <= 60);
        assert!(limiter.hit("b").check().is_ok());
    }

    #[test]
    fn headers_count_down_and_say_when_to_retry() {
        let limiter = RateLimiter::new(1);
        let mut headers = HeaderMap::new();
        limiter.hit("a").write_headers(&mut headers);
        assert_eq!(headers["x-ratelimit-limit"], "1");
        assert_eq!(headers["x-ratelimit-remaining"], "0");
        assert!(headers.get(RETRY_AFTER).is_none());
        let mut headers = HeaderMap::new();
        limiter.hit("a").write_headers(&mut headers);
        assert!(headers.get(RETRY_AFTER).is_some());
    }
}
