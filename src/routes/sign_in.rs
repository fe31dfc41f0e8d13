//! `/sign-in`: "Sign in with <provider>" first when `config.json` names an identity provider
//! (the round trip in `provider`, its pages `provider_page` and `callback`), and the token form: API base URL,
//! token type, token, and "remember on this device", folded beneath the provider's button. A
//! token is checked with `GET /organization` before it is kept.

pub mod again;
pub mod callback;
mod provider;
pub mod provider_page;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use platform_api::FieldError;

use crate::api::organization::callers_organization;
use crate::api::session::{use_session, Credentials, TokenKind};
use crate::api::ApiError;
use crate::components::form_field::{SelectField, TextField};
use crate::paths;
use crate::state::config::use_config;

#[component]
pub fn SignIn() -> impl IntoView {
    let session = use_session();
    let config = use_config();
    let query = use_query_map();
    let navigate = use_navigate();

    let base_url = RwSignal::new(String::new());
    let kind = RwSignal::new("token".to_string());
    let token = RwSignal::new(String::new());
    let remember = RwSignal::new(false);
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let failure = RwSignal::new(None::<String>);
    let next = move || {
        query
            .get_untracked()
            .get("next")
            .filter(|next| paths::is_local(next))
    };

    // Fill the API address from config.json once it arrives, unless the person typed one.
    Effect::new(move |_| {
        if let Some(url) = config.get().and_then(|c| c.api_base_url) {
            if base_url.get_untracked().is_empty() {
                base_url.set(url);
            }
        }
    });

    let check = Action::new_local(move |credentials: &Credentials| {
        let credentials = credentials.clone();
        let navigate = navigate.clone();
        async move {
            match callers_organization(&credentials).await {
                Ok(organization) => {
                    session.sign_in(credentials, remember.get_untracked());
                    let next = next().unwrap_or_else(|| paths::organization(organization.id));
                    navigate(&next, NavigateOptions::default());
                }
                Err(error) => failure.set(Some(sign_in_failure(&error, &credentials.base_url))),
            }
        }
    });

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        failure.set(None);
        let credentials = Credentials {
            base_url: base_url
                .get_untracked()
                .trim()
                .trim_end_matches('/')
                .to_string(),
            kind: if kind.get_untracked() == "bearer" {
                TokenKind::AccessToken
            } else {
                TokenKind::ApiToken
            },
            token: token.get_untracked().trim().to_string(),
            provider: None,
        };
        let problems = validate(&credentials);
        let valid = problems.is_empty();
        errors.set(problems);
        if valid {
            check.dispatch_local(credentials);
        }
    };

    let provider = move || config.get().and_then(|config| config.oidc);
    // The provider's round trip is pages of their own (`provider_page`, `callback`), whose
    // code is fetched only by who uses it.
    let through_provider = {
        let navigate = use_navigate();
        move || {
            let base_url = base_url
                .get_untracked()
                .trim()
                .trim_end_matches('/')
                .to_string();
            if let Some(problem) = base_url_problem(&base_url) {
                return errors.set(vec![problem]);
            }
            let next = next().unwrap_or_else(|| "/".to_string());
            navigate(
                &paths::sign_in_through_provider(&next, &base_url),
                NavigateOptions::default(),
            );
        }
    };
    // Asked for unless config.json fixes it and people sign in through the provider.
    let asks_base_url = move || {
        config
            .get()
            .is_none_or(|config| config.api_base_url.is_none() || config.oidc.is_none())
    };
    let token_form = move || {
        view! {
                <SelectField label="Token type" name="kind" value=kind errors options=vec![
                    ("token", "API token (Authorization: Token)".to_string()),
                    ("bearer", "Access token (Authorization: Bearer)".to_string()),
                ]/>
                <TextField label="Token" name="token" value=token errors input_type="password"
                    required=true hint="An organization API token, or an access token from your identity provider."/>
                <label class="checkbox">
                    <input type="checkbox" name="remember" bind:checked=remember/>
                    " Remember on this device"
                </label>
                <p class="field__hint">
                    "Unticked, the token is forgotten when this tab closes."
                </p>
            <button type="submit" class="button button--primary" disabled=move || check.pending().get()>
                {move || if check.pending().get() { "Checking…" } else { "Sign in" }}
            </button>
        }
    };

    view! {
        <main class="sign-in">
            <form class="card sign-in__card" on:submit=submit novalidate>
                <h1>"Sign in to the platform console"</h1>
                {move || session.expired().then(|| view! {
                    <p class="notice notice--warning" role="status">
                        "Your session has ended. Sign in again to continue."
                    </p>
                })}
                {move || failure.get().map(|message| view! {
                    <p class="notice notice--error" role="alert">{message}</p>
                })}
                <Show when=asks_base_url>
                    <TextField label="API base URL" name="base_url" value=base_url errors
                        input_type="url" placeholder="https://api.example.com" required=true/>
                </Show>
                {move || match provider() {
                    Some(provider) => {
                        let label = format!("Sign in with {}", provider.label());
                        view! {
                            <button type="button" class="button button--primary sign-in__provider"
                                on:click={
                                    let through_provider = through_provider.clone();
                                    move |_| through_provider()
                                }>
                                {label}
                            </button>
                            <details class="sign-in__token">
                                <summary>"Sign in with a token instead"</summary>
                                {token_form()}
                            </details>
                        }
                        .into_any()
                    }
                    None => token_form().into_any(),
                }}
            </form>
        </main>
    }
}

fn validate(credentials: &Credentials) -> Vec<FieldError> {
    let mut problems: Vec<FieldError> = base_url_problem(&credentials.base_url)
        .into_iter()
        .collect();
    if credentials.token.is_empty() {
        problems.push(FieldError::new("token", "is required"));
    }
    problems
}

fn base_url_problem(url: &str) -> Option<FieldError> {
    if url.is_empty() {
        Some(FieldError::new("base_url", "is required"))
    } else if !(url.starts_with("https://") || url.starts_with("http://")) {
        Some(FieldError::new(
            "base_url",
            "must start with https:// or http://",
        ))
    } else {
        None
    }
}

fn sign_in_failure(error: &ApiError, base_url: &str) -> String {
    match error {
        ApiError::Unauthorized(_) => {
            "The API refused this token: it is unknown, deleted or expired, or of the other type."
                .to_string()
        }
        ApiError::Network(_) => format!(
            "Cannot reach an API at {base_url}. Check the address (it usually ends in /api for the reference server)."
        ),
        ApiError::NotFound(_) | ApiError::Decode(_) => format!(
            "{base_url} does not answer like the platform API. Check the address."
        ),
        other => other.to_string(),
    }
}
