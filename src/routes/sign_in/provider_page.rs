//! `/sign-in/provider?next=…`: opens the identity provider's sign-in at once (a portal may link
//! here to sign people in with one click); says why when it cannot. `?again=1`: in a window
//! opened by a page whose session ended, to hand it the new one.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::provider::{start, RoundTrip};
use crate::paths;
use crate::state::config::use_config;

#[component]
pub fn SignInThroughProvider() -> impl IntoView {
    let config = use_config();
    let query = use_query_map();
    let failure = RwSignal::new(None::<String>);
    let label = move || {
        config
            .get()
            .and_then(|config| config.oidc)
            .map_or_else(|| "the identity provider".to_string(), |oidc| oidc.label())
    };
    // Once config.json is read, once.
    Effect::new(move |started: Option<bool>| {
        if started == Some(true) {
            return true;
        }
        let Some(loaded) = config.get() else {
            return false;
        };
        let query = query.get_untracked();
        let Some(provider) = loaded.oidc else {
            failure.set(Some(
                "This console names no identity provider (config.json): sign in with a token."
                    .into(),
            ));
            return true;
        };
        let Some(base_url) = loaded.api_base_url.or_else(|| query.get("api")) else {
            failure.set(Some(
                "The API's address is not known: type it on the sign-in page.".into(),
            ));
            return true;
        };
        let next = query
            .get("next")
            .filter(|next| paths::is_local(next))
            .unwrap_or_else(|| "/".to_string());
        let again = query.get("again").is_some();
        leptos::task::spawn_local(async move {
            if let Err(message) = start(&provider, base_url, next, None, again).await {
                failure.set(Some(message));
            }
        });
        true
    });
    let status = Signal::derive(move || format!("Opening {}…", label()));
    view! { <RoundTrip status failure/> }
}
