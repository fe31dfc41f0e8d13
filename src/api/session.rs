//! The signed-in session: API base URL and token. Kept in `sessionStorage`, or in `localStorage`
//! when the person ticks "remember on this device"; never in a URL. Embedded in a host page, the
//! console keeps the host's token in memory only, and ignores any token stored by the full console.
//! Signed in through the identity provider, the access token is renewed before it ends with the
//! refresh token, and signing out ends the provider's session too; signing out in one tab signs
//! out every tab of the console. A renewal refused (or the API refusing the token) keeps the
//! page: the person signs in again in a window of the provider's, and goes on where they were.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::oidc;

/// Also read by the script that starts the console (scripts/build-wasm.sh writes it from this
/// line): a stored session has it fetch the signed-in pages' frame early.
const STORAGE_KEY: &str = "platform-console.session";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenKind {
    /// An organization API token: `Authorization: Token ...`.
    ApiToken,
    /// An access token (JWT) from the identity provider: `Authorization: Bearer ...`.
    AccessToken,
}

#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct Credentials {
    pub base_url: String,
    pub kind: TokenKind,
    pub token: String,
    /// Where an access token signed in through the identity provider came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderSession>,
}

/// A sign-in through the identity provider: what renewing the access token and signing out
/// need, and who signed in.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderSession {
    pub client_id: String,
    pub endpoints: oidc::Endpoints,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
    /// When the access token ends, in milliseconds since 1970 (`Date.now()`'s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<f64>,
    /// The person's name or e-mail address, as the ID token gives them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<String>,
}

impl ProviderSession {
    /// The session `tokens` renew: the refresh and ID tokens kept when not answered anew.
    pub fn renewed(&self, tokens: &oidc::Tokens) -> Self {
        ProviderSession {
            client_id: self.client_id.clone(),
            endpoints: self.endpoints.clone(),
            refresh_token: tokens.refresh_token.clone().or(self.refresh_token.clone()),
            id_token: tokens.id_token.clone().or(self.id_token.clone()),
            expires_at: tokens
                .expires_in
                .map(|seconds| js_sys::Date::now() + seconds * 1000.0),
            person: self.person.clone(),
        }
    }
}

impl Credentials {
    pub fn authorization_header(&self) -> String {
        match self.kind {
            TokenKind::ApiToken => format!("Token {}", self.token),
            TokenKind::AccessToken => format!("Bearer {}", self.token),
        }
    }
}

/// Never print the token, even in a debug log.
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("base_url", &self.base_url)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Copy)]
pub struct Session {
    credentials: RwSignal<Option<Credentials>>,
    /// Set when the API refused the token (401), so that sign-in can say why it is shown.
    expired: RwSignal<bool>,
    /// Whether the token is kept in the browser's storage (not when embedded).
    stored: bool,
    /// Whether the person chose to be remembered on this device (`localStorage`).
    remembered: RwSignal<bool>,
    /// Signed in through the provider, the token was refused or could not be renewed: the page
    /// stays, and asks to sign in again (`routes/sign_in/again.rs`).
    interrupted: RwSignal<bool>,
    /// Counts the sessions taken up again after an interruption: what failed meanwhile is read
    /// again (`components::loaded`).
    resumed: RwSignal<u32>,
}

/// The channel the console's tabs tell each other they signed out on.
const TABS_CHANNEL: &str = "platform-console.session";

/// `embedded`: the console is a panel of a host page (see `state::embed`).
pub fn provide_session(embedded: bool) {
    let for_tab = (!embedded).then(|| read(&session_storage())).flatten();
    let remembered = for_tab.is_none() && !embedded && read(&local_storage()).is_some();
    let stored = for_tab.or_else(|| remembered.then(|| read(&local_storage())).flatten());
    let session = Session {
        credentials: RwSignal::new(stored),
        expired: RwSignal::new(false),
        stored: !embedded,
        remembered: RwSignal::new(remembered),
        interrupted: RwSignal::new(false),
        resumed: RwSignal::new(0),
    };
    provide_context(session);
    if !embedded {
        renew_before_the_end(session);
        signed_out_in_another_tab(session);
    }
}

/// Renews an access token of the identity provider a little before it ends (a fifth of its
/// life, at least ten seconds), in place: the page and what is typed in it stay. Renewal
/// refused, the person is asked to sign in again.
fn renew_before_the_end(session: Session) {
    Effect::new(move |_| {
        // Each sign-in; a renewal changes the token without telling those who read it.
        if let Some(credentials) = session.credentials.get() {
            leptos::task::spawn_local(keep_renewed(session, credentials));
        }
    });
}

async fn keep_renewed(session: Session, mut credentials: Credentials) {
    loop {
        let Some(provider) = credentials.provider.clone() else {
            return;
        };
        let (Some(expires_at), Some(refresh_token)) =
            (provider.expires_at, provider.refresh_token.clone())
        else {
            return;
        };
        let left = expires_at - js_sys::Date::now();
        let wait = (left - (left / 5.0).max(10_000.0)).max(0.0);
        gloo_timers::future::TimeoutFuture::new(wait as u32).await;
        // Signed out, or signed in anew, since.
        let current = session.credentials.with_untracked(|now| {
            now.as_ref()
                .is_some_and(|now| now.token == credentials.token)
        });
        if !current {
            return;
        }
        let refreshed = oidc::refresh(
            &provider.endpoints.token_endpoint,
            &provider.client_id,
            &refresh_token,
        )
        .await;
        match refreshed {
            Ok(tokens) => {
                credentials = Credentials {
                    token: tokens.access_token.clone(),
                    provider: Some(provider.renewed(&tokens)),
                    ..credentials
                };
                session.renew(credentials.clone());
            }
            Err(_) => return session.expire(),
        }
    }
}

fn tabs_channel() -> Option<web_sys::BroadcastChannel> {
    web_sys::BroadcastChannel::new(TABS_CHANNEL).ok()
}

/// Another tab of the console signed out: so does this one.
fn signed_out_in_another_tab(session: Session) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Some(channel) = tabs_channel() else {
        return;
    };
    let listener = Closure::<dyn Fn()>::new(move || session.forget());
    channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    // Both live as long as the page.
    listener.forget();
    std::mem::forget(channel);
}

pub fn use_session() -> Session {
    expect_context()
}

impl Session {
    pub fn credentials(&self) -> Option<Credentials> {
        self.credentials.get()
    }

    pub fn credentials_untracked(&self) -> Option<Credentials> {
        self.credentials.get_untracked()
    }

    pub fn is_signed_in(&self) -> bool {
        self.credentials.with(Option::is_some)
    }

    pub fn expired(&self) -> bool {
        self.expired.get()
    }

    pub fn interrupted(&self) -> bool {
        self.interrupted.get()
    }

    pub fn resumed(&self) -> u32 {
        self.resumed.get()
    }

    /// Signed in again after an interruption: as the same person, the new tokens in place of
    /// the old (the page and what is typed in it stay, what failed is read again); as another,
    /// a new session.
    pub fn resume(&self, credentials: Credentials) {
        let person = |credentials: &Credentials| {
            credentials
                .provider
                .as_ref()
                .and_then(|provider| provider.person.clone())
        };
        let same_person = self
            .credentials
            .with_untracked(|now| now.as_ref().map(person))
            == Some(person(&credentials));
        if !same_person {
            self.interrupted.set(false);
            return self.sign_in(credentials, false);
        }
        self.renew(credentials.clone());
        self.interrupted.set(false);
        self.resumed.update(|count| *count += 1);
        leptos::task::spawn_local(keep_renewed(*self, credentials));
    }

    pub fn sign_in(&self, credentials: Credentials, remember: bool) {
        self.keep(&credentials, remember);
        self.remembered.set(remember);
        self.expired.set(false);
        self.credentials.set(Some(credentials));
    }

    /// The renewed token in the place of the one before, kept where it was, and told to nobody:
    /// what was read with the one before stays, and the next request takes the new one.
    pub fn renew(&self, credentials: Credentials) {
        self.keep(&credentials, self.remembered.get_untracked());
        self.credentials
            .update_untracked(|now| *now = Some(credentials));
    }

    fn keep(&self, credentials: &Credentials, remember: bool) {
        if !self.stored {
            return;
        }
        let (keep, forget) = if remember {
            (local_storage(), session_storage())
        } else {
            (session_storage(), local_storage())
        };
        if let (Some(storage), Ok(json)) = (keep, serde_json::to_string(credentials)) {
            let _ = storage.set_item(STORAGE_KEY, &json);
        }
        if let Some(storage) = forget {
            let _ = storage.remove_item(STORAGE_KEY);
        }
    }

    /// Signs out of this tab and every other of the console; signed in through the identity
    /// provider, its refresh token is revoked and the provider's session ended, the provider
    /// sending the browser back to `back_to` (a path of the console).
    pub fn sign_out(&self, back_to: &str) {
        let provider = self
            .credentials
            .with_untracked(|credentials| credentials.as_ref().and_then(|c| c.provider.clone()));
        self.forget();
        if let Some(channel) = tabs_channel() {
            let _ = channel.post_message(&wasm_bindgen::JsValue::from_str("signed-out"));
        }
        if let Some(provider) = provider {
            leptos::task::spawn_local(end_provider_session(provider, back_to.to_string()));
        }
    }

    /// The session forgotten here, and nowhere else.
    fn forget(&self) {
        if self.interrupted.get_untracked() {
            self.interrupted.set(false);
        }
        if self.stored {
            for storage in [session_storage(), local_storage()].into_iter().flatten() {
                let _ = storage.remove_item(STORAGE_KEY);
            }
        }
        self.credentials.set(None);
    }

    /// The API refused the token, or the provider its renewal. Signed in through the provider
    /// in the full console, the page stays and asks to sign in again; otherwise the session is
    /// forgotten and the sign-in page shown.
    pub fn expire(&self) {
        let through_provider = self.credentials.with_untracked(|credentials| {
            credentials
                .as_ref()
                .is_some_and(|credentials| credentials.provider.is_some())
        });
        if through_provider && self.stored {
            if !self.interrupted.get_untracked() {
                self.interrupted.set(true);
            }
            return;
        }
        self.end();
    }

    /// The session forgotten, the sign-in page saying why.
    pub fn end(&self) {
        if self.credentials.with_untracked(Option::is_some) {
            self.forget();
            self.expired.set(true);
        }
    }
}

/// The refresh token revoked where the provider allows it, then its session ended
/// (`end_session_endpoint`), coming back to `back_to`.
async fn end_provider_session(provider: ProviderSession, back_to: String) {
    if let (Some(revocation), Some(refresh_token)) = (
        &provider.endpoints.revocation_endpoint,
        &provider.refresh_token,
    ) {
        oidc::revoke(revocation, &provider.client_id, refresh_token).await;
    }
    let Some(end_session) = provider.endpoints.end_session_endpoint else {
        return;
    };
    let origin = window().location().origin().unwrap_or_default();
    let back = format!("{origin}{back_to}");
    let mut query = vec![
        ("client_id", provider.client_id.as_str()),
        ("post_logout_redirect_uri", back.as_str()),
    ];
    if let Some(id_token) = &provider.id_token {
        query.push(("id_token_hint", id_token));
    }
    let _ = window()
        .location()
        .assign(&format!("{end_session}?{}", oidc::form_body(&query)));
}

fn session_storage() -> Option<web_sys::Storage> {
    window().session_storage().ok().flatten()
}

fn local_storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn read(storage: &Option<web_sys::Storage>) -> Option<Credentials> {
    let json = storage.as_ref()?.get_item(STORAGE_KEY).ok().flatten()?;
    serde_json::from_str(&json).ok()
}
