//! Signing in through the identity provider, the two halves of one round trip: `start` sends
//! the browser to the provider with a PKCE challenge, a `state` and a `nonce`, kept for this tab
//! (`sessionStorage`) with the page to come back to; `finish`, on `/sign-in/callback`, checks the
//! `state`, exchanges the code with the verifier and checks the ID token's `nonce`.

use leptos::prelude::*;
use platform_api::console_config::OidcConfig;
use serde::{Deserialize, Serialize};

use crate::api::oidc::{self, Endpoints};
use crate::api::session::{Credentials, ProviderSession, TokenKind};
use crate::paths;

const PENDING_KEY: &str = "platform-console.sign-in-pending";

/// A sign-in on its way through the provider.
#[derive(Serialize, Deserialize)]
struct Pending {
    state: String,
    nonce: String,
    verifier: String,
    base_url: String,
    client_id: String,
    endpoints: Endpoints,
    /// The page first asked for.
    next: String,
    /// Signing in again in a window of its own, for the page that opened it
    /// (`routes/sign_in/again.rs`).
    #[serde(default)]
    again: bool,
}

/// What the window signing in again tells the page that opened it.
#[derive(Serialize, Deserialize)]
pub struct SignedInAgain {
    #[serde(rename = "type")]
    kind: String,
    pub credentials: Credentials,
}

const SIGNED_IN_AGAIN: &str = "platform-console:signed-in-again";

impl SignedInAgain {
    /// Read from a message's data; `None` for any other message.
    pub fn read(data: &str) -> Option<Credentials> {
        serde_json::from_str::<SignedInAgain>(data)
            .ok()
            .filter(|message| message.kind == SIGNED_IN_AGAIN)
            .map(|message| message.credentials)
    }
}

/// How a round trip ends: signed in for this tab and on to `next`, or, signing in again, the
/// credentials handed to the page that opened this window.
pub enum Finished {
    Here {
        credentials: Credentials,
        next: String,
    },
    Again(Credentials),
}

/// This console's callback address, to be registered with the provider.
pub fn redirect_uri() -> String {
    let origin = window().location().origin().unwrap_or_default();
    format!("{origin}{}", paths::SIGN_IN_CALLBACK.at(&[]))
}

/// Sends the browser to the provider's sign-in; returns only when it could not.
pub async fn start(
    provider: &OidcConfig,
    base_url: String,
    next: String,
    prompt: Option<&str>,
    again: bool,
) -> Result<(), String> {
    let endpoints = oidc::discover(&provider.issuer).await?;
    let pending = Pending {
        state: oidc::random_text(),
        nonce: oidc::random_text(),
        verifier: oidc::random_text(),
        base_url,
        client_id: provider.client_id.clone(),
        endpoints,
        next,
        again,
    };
    let challenge = oidc::challenge(&pending.verifier).await?;
    let redirect_uri = redirect_uri();
    let mut query = vec![
        ("response_type", "code"),
        ("client_id", pending.client_id.as_str()),
        ("redirect_uri", redirect_uri.as_str()),
        ("scope", provider.scopes()),
        ("state", pending.state.as_str()),
        ("nonce", pending.nonce.as_str()),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
    ];
    if let Some(audience) = &provider.audience {
        query.push(("audience", audience));
    }
    if let Some(prompt) = prompt {
        query.push(("prompt", prompt));
    }
    let address = format!(
        "{}?{}",
        pending.endpoints.authorization_endpoint,
        oidc::form_body(&query)
    );
    let storage =
        window().session_storage().ok().flatten().ok_or(
            "This browser keeps nothing for the tab (sessionStorage): sign in with a token.",
        )?;
    let json = serde_json::to_string(&pending).map_err(|error| error.to_string())?;
    storage
        .set_item(PENDING_KEY, &json)
        .map_err(|_| "This browser refused to keep the sign-in for the tab.".to_string())?;
    window()
        .location()
        .assign(&address)
        .map_err(|_| "The browser did not open the identity provider's page.".to_string())
}

/// What the provider sent back, read from the callback's address.
pub struct Callback {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// The signed-in credentials and where they go, once the code is exchanged.
pub async fn finish(callback: Callback) -> Result<Finished, String> {
    let storage = window().session_storage().ok().flatten();
    let pending = storage
        .as_ref()
        .and_then(|storage| storage.get_item(PENDING_KEY).ok().flatten())
        .and_then(|json| serde_json::from_str::<Pending>(&json).ok());
    // Used once, whatever comes of it.
    if let Some(storage) = &storage {
        let _ = storage.remove_item(PENDING_KEY);
    }
    if let Some(error) = callback.error {
        return Err(format!(
            "The identity provider did not sign you in: {error}."
        ));
    }
    let pending = pending
        .ok_or("This sign-in was not started in this tab (or was already used): start it again.")?;
    if callback.state.as_deref() != Some(pending.state.as_str()) {
        return Err(
            "This sign-in's answer does not match the one asked for: start it again.".into(),
        );
    }
    let code = callback.code.ok_or("The identity provider sent no code.")?;
    let tokens = oidc::exchange_code(
        &pending.endpoints.token_endpoint,
        &pending.client_id,
        &code,
        &pending.verifier,
        &redirect_uri(),
    )
    .await?;
    let id_claims = tokens
        .id_token
        .as_deref()
        .and_then(oidc::claims::<oidc::IdClaims>);
    if let Some(claims) = &id_claims {
        if claims.nonce.as_deref() != Some(pending.nonce.as_str()) {
            return Err("The identity provider's ID token is not this sign-in's (nonce).".into());
        }
    }
    let session = ProviderSession {
        client_id: pending.client_id,
        endpoints: pending.endpoints,
        refresh_token: None,
        id_token: None,
        expires_at: None,
        person: id_claims.and_then(|claims| claims.name.or(claims.email)),
    }
    .renewed(&tokens);
    let credentials = Credentials {
        base_url: pending.base_url,
        kind: TokenKind::AccessToken,
        token: tokens.access_token,
        provider: Some(session),
    };
    if pending.again {
        return Ok(Finished::Again(credentials));
    }
    let next = Some(pending.next)
        .filter(|next| paths::is_local(next))
        .unwrap_or_else(|| "/".to_string());
    Ok(Finished::Here { credentials, next })
}

/// Hands the credentials to the page that opened this window, on this origin only, and closes
/// it; `false` when there is no such page (it was closed meanwhile).
pub fn hand_to_opener(credentials: Credentials) -> bool {
    let Some(opener) = window()
        .opener()
        .ok()
        .filter(|opener| !opener.is_null() && !opener.is_undefined())
    else {
        return false;
    };
    let message = SignedInAgain {
        kind: SIGNED_IN_AGAIN.to_string(),
        credentials,
    };
    let (Ok(json), Ok(origin)) = (
        serde_json::to_string(&message),
        window().location().origin(),
    ) else {
        return false;
    };
    let opener: web_sys::Window = wasm_bindgen::JsCast::unchecked_into(opener);
    if opener
        .post_message(&wasm_bindgen::JsValue::from_str(&json), &origin)
        .is_err()
    {
        return false;
    }
    let _ = window().close();
    true
}

/// A step of the round trip as a page: what is under way (`status`), or why it stopped and the
/// way back to the sign-in page.
#[component]
pub fn RoundTrip(status: Signal<String>, failure: RwSignal<Option<String>>) -> impl IntoView {
    view! {
        <main class="sign-in">
            <div class="card sign-in__card">
                <h1>"Signing in"</h1>
                {move || match failure.get() {
                    None => view! { <p role="status">{move || status.get()}</p> }.into_any(),
                    Some(message) => view! {
                        <p class="notice notice--error" role="alert">{message}</p>
                        <a class="button button--primary" href=paths::sign_in(None)>"Back to sign-in"</a>
                    }.into_any(),
                }}
            </div>
        </main>
    }
}
