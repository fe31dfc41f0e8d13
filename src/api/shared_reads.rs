//! Reads of one address asked while another is on its way, or just after it landed, take its
//! answer rather than asking again: a page's frame, its layout and its sections each read the
//! record they show (the breadcrumb's name, the page's title, the cluster it runs on), and one
//! load asks for it once. Only an answer is shared once it has landed, never an error (the next
//! read asks again); any write forgets every answer kept, so that nothing read after a change
//! predates it.

use std::cell::RefCell;

use futures::future::{FutureExt, LocalBoxFuture, Shared};

use super::ApiError;

/// How long an answer is shared after it was asked for (and for as long as it is on its way).
const SHARED_MS: f64 = 1_000.0;

pub(super) type Answer = Shared<LocalBoxFuture<'static, Result<Vec<u8>, ApiError>>>;

struct Asked {
    key: String,
    asked_at: f64,
    answer: Answer,
}

thread_local! {
    static ASKED: RefCell<Vec<Asked>> = const { RefCell::new(Vec::new()) };
}

/// The answer of the read `key` (credentials and address) asked just before or still on its
/// way, else the one `ask` starts, shared with the same reads that follow it.
pub(super) fn read(
    key: &str,
    ask: impl FnOnce() -> LocalBoxFuture<'static, Result<Vec<u8>, ApiError>>,
) -> Answer {
    ASKED.with_borrow_mut(|asked| {
        let now = js_sys::Date::now();
        asked.retain(|read| match read.answer.peek() {
            None => true,
            Some(Ok(_)) => now - read.asked_at < SHARED_MS,
            Some(Err(_)) => false,
        });
        if let Some(read) = asked.iter().find(|read| read.key == key) {
            return read.answer.clone();
        }
        let answer = ask().shared();
        asked.push(Asked {
            key: key.to_string(),
            asked_at: now,
            answer: answer.clone(),
        });
        answer
    })
}

/// A write was sent: no answer read before it is given again.
pub(super) fn forget_all() {
    ASKED.with_borrow_mut(Vec::clear);
}
