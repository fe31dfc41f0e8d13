//! Deleting a record from its row: confirmed first, then the call, a toast saying how it went,
//! and the list refreshed.

use std::future::Future;

use leptos::prelude::*;

use super::confirm_button::ConfirmButton;
use crate::api::ApiError;
use crate::state::toasts::use_toasts;

/// A small "Delete" that asks `question` (what happens: `consequence`), then runs `delete`; on
/// success it toasts `done` and runs `on_deleted`, on failure it toasts why.
#[component]
pub fn DeleteButton<F, Fut>(
    question: &'static str,
    consequence: &'static str,
    done: &'static str,
    delete: F,
    on_deleted: Callback<()>,
    /// The name of what it deletes, when a page lists several.
    #[prop(optional, into)]
    item: Option<String>,
) -> impl IntoView
where
    F: Fn() -> Fut + 'static,
    Fut: Future<Output = Result<(), ApiError>> + 'static,
{
    let toasts = use_toasts();
    let action = Action::new_local(move |_: &()| {
        let deleted = delete();
        async move {
            match deleted.await {
                Ok(()) => {
                    toasts.success(done);
                    on_deleted.run(());
                }
                Err(error) => toasts.error(error.to_string()),
            }
        }
    });
    view! {
        <ConfirmButton label="Delete" question consequence target=item
            class="button button--small button--ghost button--danger"
            disabled=Signal::derive(move || action.pending().get())
            on_confirm=move |()| { action.dispatch_local(()); }/>
    }
}

/// How many services use a record, in words.
pub fn services_using(count: i64) -> String {
    match count {
        0 => "No service".to_string(),
        1 => "1 service".to_string(),
        count => format!("{count} services"),
    }
}
