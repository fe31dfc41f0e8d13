//! A check before create, asked as a person types: once what a field names has not changed for a
//! moment, the API is asked whether it exists, and the answer is kept for the field's note. An
//! answer to an older value is dropped; an API without the check leaves the note empty.

use std::future::Future;

use leptos::prelude::*;

use crate::api::ApiError;

/// How long a value must stay unchanged before it is checked.
const QUIET_MS: u64 = 600;

/// Where a check stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Checked {
    /// Nothing to check (the field is empty or breaks a rule), or no answer to give.
    Nothing,
    Checking,
    Found,
    /// Not found, as the API says it.
    Missing(String),
}

/// Checks `subject()` (once it has not changed for a moment) with `check`, and says where it
/// stands.
pub fn checked<T, F, Fut, A>(
    subject: impl Fn() -> Option<T> + 'static,
    check: F,
) -> ReadSignal<Checked>
where
    T: Clone + PartialEq + 'static,
    F: Fn(T) -> Fut + Clone + 'static,
    Fut: Future<Output = Result<A, ApiError>> + 'static,
{
    let state = RwSignal::new(Checked::Nothing);
    let asked = StoredValue::new(0u64);
    Effect::new(move |before: Option<Option<T>>| {
        let now = subject();
        if before.as_ref() == Some(&now) {
            return now;
        }
        asked.update_value(|count| *count += 1);
        let number = asked.get_value();
        let Some(value) = now.clone() else {
            state.set(Checked::Nothing);
            return now;
        };
        state.set(Checked::Checking);
        let check = check.clone();
        // A later value (or the field gone) makes this one's answer pointless.
        let current = move || asked.try_get_value() == Some(number);
        let ask = move || {
            if !current() {
                return;
            }
            leptos::task::spawn_local(async move {
                let answer = check(value).await;
                if !current() {
                    return;
                }
                state.try_set(match answer {
                    Ok(_) => Checked::Found,
                    Err(ApiError::Invalid { message, fields }) => Checked::Missing(
                        fields
                            .first()
                            .map(|field| field.message.clone())
                            .unwrap_or(message),
                    ),
                    // An API without this check, or one that failed: the form goes on without.
                    Err(_) => Checked::Nothing,
                });
            });
        };
        set_timeout(ask, std::time::Duration::from_millis(QUIET_MS));
        now
    });
    state.read_only()
}
