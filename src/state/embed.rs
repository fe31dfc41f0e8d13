//! Embed mode (DESIGN §4): the console as a panel of a host page, such as an internal portal.
//!
//! `?embed=1` turns it on for the tab (a reload deeper in the panel keeps it; `?embed=0` turns it
//! off). Embedded, the console shows no app chrome, keeps its token in memory only, and takes it
//! from the host page by `postMessage`: from the window around the panel, from an origin that
//! `config.json` allows, and from no other. The messages, both ways, are in the README
//! ("Embedding the console").

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use serde::{Deserialize, Serialize};

use crate::api::organization::callers_organization;
use crate::api::session::{use_session, Credentials, Session, TokenKind};
use crate::api::ApiError;
use crate::paths;
use crate::state::config::use_config;
use crate::state::theme::{use_theme, Theme};
use platform_api::console_config::ConsoleConfig;

const STORAGE_KEY: &str = "platform-console.embed";
const MESSAGE_PREFIX: &str = "platform-console:";

#[derive(Clone, Copy)]
pub struct Embed {
    active: bool,
    /// Why the console has no token from the host page yet, in words for the waiting panel.
    problem: RwSignal<Option<String>>,
    /// The API refused the token the host page handed over.
    refused: RwSignal<bool>,
    /// The access token ended without the host page handing over a new one when asked.
    ended: RwSignal<bool>,
}

/// Reads embed mode from the address (or from earlier in this tab) and provides it; returns
/// whether it is on.
pub fn provide_embed() -> bool {
    let storage = window().session_storage().ok().flatten();
    let active = match embed_flag(&window().location().search().unwrap_or_default()) {
        Some(requested) => {
            if let Some(storage) = &storage {
                let _ = if requested {
                    storage.set_item(STORAGE_KEY, "1")
                } else {
                    storage.remove_item(STORAGE_KEY)
                };
            }
            requested
        }
        None => storage.is_some_and(|s| s.get_item(STORAGE_KEY).ok().flatten().is_some()),
    };
    provide_context(Embed {
        active,
        problem: RwSignal::new(None),
        refused: RwSignal::new(false),
        ended: RwSignal::new(false),
    });
    active
}

pub fn use_embed() -> Embed {
    expect_context()
}

impl Embed {
    pub fn is_active(&self) -> bool {
        self.active
    }

    pub fn problem(&self) -> Option<String> {
        self.problem.get()
    }

    /// The bridge's code could not be fetched: the host page is never asked for a token.
    pub fn bridge_not_loaded(&self) {
        self.problem.set(Some(
            "The console could not fetch the code that talks to the host page (the connection \
             dropped?); reload the panel."
                .to_string(),
        ));
    }
}

/// `Some(true)` for `?embed=1`, `Some(false)` for `?embed=0`, `None` when the query says nothing.
fn embed_flag(search: &str) -> Option<bool> {
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| match pair {
            "embed=1" | "embed=true" => Some(true),
            "embed=0" | "embed=false" => Some(false),
            _ => None,
        })
}

/// What the host page sends.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "type")]
pub enum HostMessage {
    /// Use this token: after `ready`, or at any time (a renewed access token, say).
    #[serde(rename = "platform-console:sign-in")]
    SignIn {
        token: String,
        #[serde(default)]
        token_type: HostTokenType,
        /// Defaults to `api_base_url` of `config.json`.
        #[serde(default)]
        api_base_url: Option<String>,
    },
    /// Forget the token.
    #[serde(rename = "platform-console:sign-out")]
    SignOut,
    /// Show this page of the console (a path such as `/organization/ID/overview`).
    #[serde(rename = "platform-console:navigate")]
    Navigate { path: String },
    /// Follow the portal's theme: `light`, `dark` or `system`.
    #[serde(rename = "platform-console:theme")]
    Theme { theme: String },
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostTokenType {
    #[default]
    ApiToken,
    AccessToken,
}

/// What the console sends to the host page.
#[derive(Debug, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum ConsoleMessage {
    /// The console has no token and waits for one.
    #[serde(rename = "platform-console:ready")]
    Ready { reason: ReadyReason },
    /// The panel shows this page of the console.
    #[serde(rename = "platform-console:navigated")]
    Navigated { path: String },
    /// The access token handed over ends soon: hand over a new one before `expires_at`.
    #[serde(rename = "platform-console:renew")]
    Renew { expires_at: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadyReason {
    /// At start, or after the host page signed the console out.
    NoToken,
    /// The API refused the token (unknown, deleted or expired).
    TokenRefused,
    /// The access token ended, and no new one came when the console asked for it.
    TokenExpired,
}

/// Reads a message's data (as JSON): `Ok(None)` for messages that are not the console's (a page
/// may carry other `postMessage` traffic), an error in words for a console message it cannot use.
pub fn parse_host_message(json: &str) -> Result<Option<HostMessage>, String> {
    #[derive(Deserialize)]
    struct Kind {
        #[serde(rename = "type")]
        kind: Option<String>,
    }
    let Some(kind) = serde_json::from_str::<Kind>(json)
        .ok()
        .and_then(|k| k.kind)
        .filter(|kind| kind.starts_with(MESSAGE_PREFIX))
    else {
        return Ok(None);
    };
    // Named by its type only: the reader's own message could quote a value, and a value may be
    // a token.
    serde_json::from_str(json).map(Some).map_err(|_| {
        format!(
            "The host page sent a {kind} message the console cannot read; the README lists its \
             fields."
        )
    })
}

/// Whether a message from `origin` may be taken: it must be listed exactly.
pub fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    allowed.iter().any(|candidate| candidate == origin)
}

/// The origins of `config.json` that are origins; a malformed entry allows nothing.
fn allowed_origins(config: &ConsoleConfig) -> Vec<String> {
    config
        .embed
        .allowed_origins
        .iter()
        .filter(|origin| platform_api::rules::origin("origin", origin).is_none())
        .cloned()
        .collect()
}

/// The page shown, for the host page: the address without the embed flag.
pub fn shown_path(pathname: &str, search: &str) -> String {
    let query: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.is_empty() && embed_flag(pair).is_none())
        .collect();
    if query.is_empty() {
        pathname.to_string()
    } else {
        format!("{pathname}?{}", query.join("&"))
    }
}

/// Whether the console runs in a frame of another page.
pub fn is_framed() -> bool {
    window()
        .parent()
        .ok()
        .flatten()
        .is_some_and(|parent| !js_sys::Object::is(&parent, &window()))
}

/// Sends `message` to the host page, addressed to each allowed origin (the browser delivers it
/// only to the one the host page is at).
fn post(config: &ConsoleConfig, message: &ConsoleMessage) {
    let Some(parent) = window().parent().ok().flatten() else {
        return;
    };
    let Ok(json) = serde_json::to_string(message) else {
        return;
    };
    let Ok(data) = js_sys::JSON::parse(&json) else {
        return;
    };
    for origin in allowed_origins(config) {
        let _ = parent.post_message(&data, &origin);
    }
}

/// The host page's side of the conversation; placed once inside the router in embed mode
/// (`app.rs`), renders nothing.
#[component]
pub fn EmbedBridge() -> impl IntoView {
    let embed = use_embed();
    let session = use_session();
    let config = use_config();
    let location = use_location();
    let navigate = use_navigate();
    let theme = use_theme();

    // Ask for a token whenever there is none.
    Effect::new(move |_| {
        let Some(config) = config.get() else { return };
        if session.is_signed_in() {
            return;
        }
        let reason = if embed.ended.get() {
            ReadyReason::TokenExpired
        } else if session.expired() || embed.refused.get() {
            ReadyReason::TokenRefused
        } else {
            ReadyReason::NoToken
        };
        post(&config, &ConsoleMessage::Ready { reason });
    });

    // Tell the host page which page shows, so that it can keep its own address in step.
    Effect::new(move |_| {
        let path = shown_path(&location.pathname.get(), &location.search.get());
        if let (Some(config), true) = (config.get(), session.is_signed_in()) {
            post(&config, &ConsoleMessage::Navigated { path });
        }
    });

    let sign_in = Action::new_local(move |credentials: &Credentials| {
        let credentials = credentials.clone();
        async move {
            let checked = callers_organization(&credentials).await;
            match checked {
                Ok(_) => {
                    embed.problem.set(None);
                    if embed.refused.get_untracked() {
                        embed.refused.set(false);
                    }
                    if embed.ended.get_untracked() {
                        embed.ended.set(false);
                    }
                    if let Some(expires_at) = expires_at(&credentials) {
                        leptos::task::spawn_local(ask_before_the_end(
                            embed,
                            session,
                            config,
                            credentials.token.clone(),
                            expires_at,
                        ));
                    }
                    // A token for the same API handed over while signed in is a renewal: the
                    // page and what is typed in it stay.
                    let renewal = session.credentials_untracked().is_some_and(|now| {
                        now.base_url == credentials.base_url && now.kind == credentials.kind
                    });
                    if renewal {
                        session.renew(credentials);
                    } else {
                        session.sign_in(credentials, false);
                    }
                }
                Err(ApiError::Unauthorized(_)) => {
                    embed.problem.set(Some(
                        "The API refused the token the host page handed over: it is unknown, \
                         deleted or expired, or of the other type."
                            .to_string(),
                    ));
                    // Set only on a change: every set wakes the `ready` effect, and a portal that
                    // answers each `ready` with the same stale token would loop with it.
                    if !embed.refused.get_untracked() {
                        embed.refused.set(true);
                    }
                }
                Err(error) => embed.problem.set(Some(format!(
                    "Cannot use the API at {}: {error}",
                    credentials.base_url
                ))),
            }
        }
    });

    let listener = window_event_listener(leptos::ev::message, move |event| {
        let Some(config) = config.get_untracked() else {
            return;
        };
        let from_parent = event
            .source()
            .zip(window().parent().ok().flatten())
            .is_some_and(|(source, parent)| js_sys::Object::is(&source, &parent));
        let json = js_sys::JSON::stringify(&event.data())
            .ok()
            .and_then(|json| json.as_string())
            .unwrap_or_default();
        let message = match parse_host_message(&json) {
            Ok(Some(message)) => message,
            Ok(None) => return,
            Err(problem) => return embed.problem.set(Some(problem)),
        };
        if !from_parent {
            return;
        }
        let origin = event.origin();
        if !origin_allowed(&origin, &allowed_origins(&config)) {
            return embed.problem.set(Some(format!(
                "A page at {origin} tried to hand over a token, but config.json does not allow \
                 it (embed.allowed_origins)."
            )));
        }
        match message {
            HostMessage::SignIn {
                token,
                token_type,
                api_base_url,
            } => {
                let base_url = api_base_url
                    .or_else(|| config.api_base_url.clone())
                    .unwrap_or_default()
                    .trim()
                    .trim_end_matches('/')
                    .to_string();
                if let Some(problem) = platform_api::rules::uri("api_base_url", &base_url) {
                    return embed.problem.set(Some(format!(
                        "No API address to use: the host page's api_base_url, or config.json's, \
                         {}.",
                        problem.message
                    )));
                }
                if token.trim().is_empty() {
                    return embed.problem.set(Some(
                        "The host page handed over an empty token.".to_string(),
                    ));
                }
                sign_in.dispatch_local(Credentials {
                    base_url,
                    kind: match token_type {
                        HostTokenType::ApiToken => TokenKind::ApiToken,
                        HostTokenType::AccessToken => TokenKind::AccessToken,
                    },
                    token: token.trim().to_string(),
                    provider: None,
                });
            }
            HostMessage::SignOut => session.sign_out(&paths::sign_in(None)),
            HostMessage::Navigate { path } if paths::is_local(&path) => {
                navigate(&path, NavigateOptions::default());
            }
            HostMessage::Navigate { .. } => embed.problem.set(Some(
                "The host page asked for a page that is not the console's.".to_string(),
            )),
            HostMessage::Theme { theme: name } => match Theme::parse(&name) {
                Some(chosen) => theme.set(chosen),
                None => embed.problem.set(Some(format!(
                    "The host page asked for a theme the console does not have: {name} \
                     (light, dark or system)."
                ))),
            },
        }
    });
    on_cleanup(move || listener.remove());
}

/// When an access token ends (its `exp`), in milliseconds since 1970; API tokens do not end.
fn expires_at(credentials: &Credentials) -> Option<f64> {
    #[derive(Deserialize)]
    struct Expiry {
        exp: f64,
    }
    if credentials.kind != TokenKind::AccessToken {
        return None;
    }
    crate::api::oidc::claims::<Expiry>(&credentials.token).map(|claims| claims.exp * 1000.0)
}

/// How long before the end of a token living `life` (ms) the host page is asked for a new one:
/// a fifth of its life, at least ten seconds (as the console's own renewal).
pub fn ask_ahead(life: f64) -> f64 {
    (life / 5.0).max(10_000.0)
}

/// Asks the host page for a new token a little before `token` ends; if none came by its end,
/// the panel stops and says so.
async fn ask_before_the_end(
    embed: Embed,
    session: Session,
    config: crate::state::config::Config,
    token: String,
    expires_at: f64,
) {
    let still_in_use = move || {
        session
            .credentials_untracked()
            .is_some_and(|now| now.token == token)
    };
    let left = expires_at - js_sys::Date::now();
    gloo_timers::future::TimeoutFuture::new((left - ask_ahead(left)).max(0.0) as u32).await;
    if !still_in_use() {
        return;
    }
    let ends = js_sys::Date::new(&expires_at.into());
    if let Some(config) = config.get_untracked() {
        post(
            &config,
            &ConsoleMessage::Renew {
                expires_at: String::from(ends.to_iso_string()),
            },
        );
    }
    gloo_timers::future::TimeoutFuture::new((expires_at - js_sys::Date::now()).max(0.0) as u32)
        .await;
    if !still_in_use() {
        return;
    }
    embed.problem.set(Some(format!(
        "The token the host page handed over ended at {}, and the host page sent no new one \
         when asked (platform-console:renew).",
        String::from(ends.to_locale_time_string("default"))
    )));
    embed.ended.set(true);
    session.expire();
}

/// What shows in the panel until the host page hands over a token.
#[component]
pub fn EmbedWaiting() -> impl IntoView {
    let embed = use_embed();
    let config = use_config();
    let configured = move || config.get().map(|c| !allowed_origins(&c).is_empty());
    view! {
        <main class="embed-waiting">
            <div class="card embed-waiting__card" role="status">
                {move || if !is_framed() {
                    view! {
                        <h1>"This is the embedded console"</h1>
                        <p>"The address asks for the console as a panel of another page (" <code>"?embed=1"</code>
                           "), but it is open on its own. Open it inside your portal, or "
                           <a href="/?embed=0" rel="external">"open the full console"</a> "."</p>
                    }.into_any()
                } else if configured() == Some(false) {
                    view! {
                        <h1>"Embedding is not set up"</h1>
                        <p>"config.json allows no page to hand this panel a token: list the portal's origin in "
                           <code>"embed.allowed_origins"</code> "."</p>
                    }.into_any()
                } else {
                    view! {
                        <h1>"Waiting to be signed in"</h1>
                        <p class="muted">"The page around this panel hands it a token."</p>
                    }.into_any()
                }}
                {move || embed.problem().map(|problem| view! {
                    <p class="notice notice--warning">{problem}</p>
                })}
            </div>
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_flag_is_read_from_the_query() {
        assert_eq!(embed_flag("?embed=1"), Some(true));
        assert_eq!(embed_flag("?lines=500&embed=1"), Some(true));
        assert_eq!(embed_flag("?embed=0"), Some(false));
        assert_eq!(embed_flag("?embedded=1"), None);
        assert_eq!(embed_flag(""), None);
    }

    #[wasm_bindgen_test]
    fn only_listed_origins_are_heard() {
        let allowed = vec!["https://portal.example.com".to_string()];
        assert!(origin_allowed("https://portal.example.com", &allowed));
        assert!(!origin_allowed(
            "https://portal.example.com.evil.test",
            &allowed
        ));
        assert!(!origin_allowed("http://portal.example.com", &allowed));
        assert!(!origin_allowed("null", &allowed));
    }

    #[wasm_bindgen_test]
    fn host_messages_are_read_and_others_ignored() {
        assert_eq!(
            parse_host_message(
                r#"{"type":"platform-console:sign-in","token":"pt_x","token_type":"access_token"}"#
            ),
            Ok(Some(HostMessage::SignIn {
                token: "pt_x".to_string(),
                token_type: HostTokenType::AccessToken,
                api_base_url: None,
            }))
        );
        assert_eq!(
            parse_host_message(r#"{"type":"platform-console:navigate","path":"/x"}"#),
            Ok(Some(HostMessage::Navigate {
                path: "/x".to_string()
            }))
        );
        assert_eq!(
            parse_host_message(r#"{"type":"other-widget:hello"}"#),
            Ok(None)
        );
        assert_eq!(parse_host_message(r#""a string""#), Ok(None));
        let broken =
            parse_host_message(r#"{"type":"platform-console:sign-in","tokn":"pt_x"}"#).unwrap_err();
        assert!(broken.contains("platform-console:sign-in"), "{broken}");
        assert!(!broken.contains("pt_x"), "{broken}");
    }

    #[wasm_bindgen_test]
    fn the_host_learns_the_page_without_the_flag() {
        assert_eq!(
            shown_path("/organization/1/overview", "?embed=1"),
            "/organization/1/overview"
        );
        assert_eq!(
            shown_path("/a/logs", "?lines=500&embed=1"),
            "/a/logs?lines=500"
        );
        assert_eq!(shown_path("/a", ""), "/a");
    }

    #[wasm_bindgen_test]
    fn console_messages_have_their_wire_form() {
        let ready = serde_json::to_value(ConsoleMessage::Ready {
            reason: ReadyReason::TokenRefused,
        })
        .unwrap();
        assert_eq!(
            ready,
            serde_json::json!({"type": "platform-console:ready", "reason": "token_refused"})
        );
        let renew = serde_json::to_value(ConsoleMessage::Renew {
            expires_at: "2026-12-08T10:00:00.000Z".to_string(),
        })
        .unwrap();
        assert_eq!(
            renew,
            serde_json::json!({"type": "platform-console:renew", "expires_at": "2026-12-08T10:00:00.000Z"})
        );
    }

    #[wasm_bindgen_test]
    fn the_host_is_asked_a_fifth_of_the_life_ahead_and_at_least_ten_seconds() {
        assert_eq!(ask_ahead(3_600_000.0), 720_000.0);
        assert_eq!(ask_ahead(20_000.0), 10_000.0);
    }
}
