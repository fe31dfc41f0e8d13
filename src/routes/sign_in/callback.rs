//! `/sign-in/callback`: where the identity provider sends the browser back. The code and state
//! leave the address bar and the history at once; the code is exchanged for tokens, kept for the
//! tab, and the person lands on the page they first asked for; signing in again (a window of
//! its own), the page that opened it is given them.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::provider::{finish, hand_to_opener, Callback, Finished, RoundTrip};
use crate::api::session::use_session;
use crate::paths;

#[component]
pub fn SignInCallback() -> impl IntoView {
    let session = use_session();
    let navigate = use_navigate();
    let failure = RwSignal::new(None::<String>);
    let callback = take_callback();
    leptos::task::spawn_local(async move {
        match finish(callback).await {
            Ok(Finished::Again(credentials)) => {
                if !hand_to_opener(credentials) {
                    failure.set(Some(
                        "The page that asked to sign in again was closed: sign in from the \
                         sign-in page."
                            .into(),
                    ));
                }
            }
            Ok(Finished::Here { credentials, next }) => {
                session.sign_in(credentials, false);
                navigate(
                    &next,
                    NavigateOptions {
                        replace: true,
                        ..NavigateOptions::default()
                    },
                );
            }
            Err(message) => failure.set(Some(message)),
        }
    });
    let status = Signal::derive(|| "Checking the identity provider's answer.".to_string());
    view! { <RoundTrip status failure/> }
}

/// The provider's answer, read from the address, which is then replaced by the bare callback
/// path: the code is in neither the address bar nor the history.
fn take_callback() -> Callback {
    let search = window().location().search().unwrap_or_default();
    let query = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let read = |name: &str| query.as_ref().and_then(|query| query.get(name));
    let callback = Callback {
        code: read("code"),
        state: read("state"),
        error: read("error_description").or_else(|| read("error")),
    };
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&paths::SIGN_IN_CALLBACK.at(&[])),
        );
    }
    callback
}
