//! The signed-in session: API base URL and token. Kept in `sessionStorage`, or in `localStorage`
//! when the person ticks "remember on this device"; never in a URL. Embedded in a host page, the
//! console keeps the host's token in memory only, and ignores any token stored by the full console.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

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
}

/// `embedded`: the console is a panel of a host page (see `state::embed`).
pub fn provide_session(embedded: bool) {
    let stored = (!embedded)
        .then(|| read(&session_storage()).or_else(|| read(&local_storage())))
        .flatten();
    provide_context(Session {
        credentials: RwSignal::new(stored),
        expired: RwSignal::new(false),
        stored: !embedded,
    });
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

    pub fn sign_in(&self, credentials: Credentials, remember: bool) {
        if self.stored {
            let (keep, forget) = if remember {
                (local_storage(), session_storage())
            } else {
                (session_storage(), local_storage())
            };
            if let (Some(storage), Ok(json)) = (keep, serde_json::to_string(&credentials)) {
                let _ = storage.set_item(STORAGE_KEY, &json);
            }
            if let Some(storage) = forget {
                let _ = storage.remove_item(STORAGE_KEY);
            }
        }
        self.expired.set(false);
        self.credentials.set(Some(credentials));
    }

    pub fn sign_out(&self) {
        if self.stored {
            for storage in [session_storage(), local_storage()].into_iter().flatten() {
                let _ = storage.remove_item(STORAGE_KEY);
            }
        }
        self.credentials.set(None);
    }

    /// The API refused the token: forget it and send the person to sign in.
    pub fn expire(&self) {
        if self.credentials.with_untracked(Option::is_some) {
            self.sign_out();
            self.expired.set(true);
        }
    }
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
