//! The dialog a signed-in page shows when its session through the identity provider ends under
//! it (a renewal refused, a token refused): signing in again in a window of the provider's
//! keeps the page, and what is typed in it. Fetched with the provider's round trip, when shown.

use leptos::html::Dialog;
use leptos::prelude::*;

use super::provider::SignedInAgain;
use crate::api::session::use_session;
use crate::paths;

#[component]
pub fn SignInAgain() -> impl IntoView {
    let session = use_session();
    let dialog = NodeRef::<Dialog>::new();
    let problem = RwSignal::new(None::<&'static str>);
    Effect::new(move |_| {
        if let Some(dialog) = dialog.get() {
            if !dialog.open() {
                let _ = dialog.show_modal();
            }
        }
    });
    // The window signing in again hands over the new session, from this origin only.
    let handed_over = window_event_listener(leptos::ev::message, move |event| {
        if Some(event.origin()) != window().location().origin().ok() {
            return;
        }
        if let Some(credentials) = event
            .data()
            .as_string()
            .and_then(|data| SignedInAgain::read(&data))
        {
            session.resume(credentials);
        }
    });
    on_cleanup(move || handed_over.remove());
    let open = move |_| {
        let here = window().location();
        let page = format!(
            "{}{}",
            here.pathname().unwrap_or_default(),
            here.search().unwrap_or_default()
        );
        let base_url = session
            .credentials_untracked()
            .map(|credentials| credentials.base_url)
            .unwrap_or_default();
        let address = format!(
            "{}&again=1",
            paths::sign_in_through_provider(&page, &base_url)
        );
        let opened = window().open_with_url_and_target_and_features(
            &address,
            "platform-console-sign-in",
            "popup,width=520,height=680",
        );
        problem.set(match opened {
            Ok(Some(_)) => None,
            _ => Some(
                "The browser did not open the sign-in window (a pop-up blocker?): allow it, or \
                 go to the sign-in page.",
            ),
        });
    };
    view! {
        // Escape does not close it: the page behind cannot be used until signed in again.
        <dialog node_ref=dialog class="confirm" aria-labelledby="sign-in-again-title"
            on:cancel=|event: leptos::ev::Event| event.prevent_default()>
            <h2 id="sign-in-again-title" class="confirm__question">"Your session has ended"</h2>
            <p class="confirm__consequence">
                "Sign in again to go on where you are: this page, and what you typed in it, stay."
            </p>
            {move || problem.get().map(|problem| view! {
                <p class="notice notice--warning" role="alert">{problem}</p>
            })}
            <div class="confirm__actions">
                <button type="button" class="button button--secondary" on:click=move |_| session.end()>
                    "Go to the sign-in page"
                </button>
                <button type="button" class="button button--primary" on:click=open>"Sign in again"</button>
            </div>
        </dialog>
    }
}
