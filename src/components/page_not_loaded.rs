//! What shows in place of a page whose code could not be fetched. The console's code is split by
//! page and fetched as pages are first opened, so the network can drop between two pages: the
//! person is told, the connection banner rises (its probe tries the API again every few seconds),
//! and the page is loaded again once the connection is back, or when the person asks.

use leptos::prelude::*;

use crate::api::connection::use_connection;
use crate::api::session::use_session;

/// `what` names what is missing: the page, or a part of it fetched later (a form).
#[component]
pub fn PageNotLoaded(#[prop(default = "This page")] what: &'static str) -> impl IntoView {
    let connection = use_connection();
    let base_url = use_session()
        .credentials_untracked()
        .map(|credentials| credentials.base_url)
        .unwrap_or_default();
    connection.failed(&base_url);
    // Loading again is loading the address again: the code of the page comes with it.
    let reload = || {
        let _ = window().location().reload();
    };
    Effect::new(move |seen: Option<u32>| {
        let restored = connection.restored();
        if seen.is_some_and(|seen| seen != restored) {
            reload();
        }
        restored
    });
    view! {
        <div class="notice notice--error" role="alert">
            <p>{what}" could not be loaded: the console could not fetch its code. Check the \
                connection; the page loads again as soon as it is back."</p>
            <button type="button" class="button button--secondary" on:click=move |_| reload()>
                "Try again"
            </button>
        </div>
    }
}
