//! `/invitation/:org/:invitation#code=…`: an invitation's link. Opened, it accepts the invitation
//! at the API the console is configured with and signs the new member in with the session token
//! the API gives them (kept for this tab, as an unticked sign-in), then opens the organization.
//! The code rides in the fragment, which the browser never sends to a server. An API without
//! this server's `POST /invitation/accept` (the production platform signs its users in itself)
//! is said so, with the way to sign in. Where people sign in through the identity provider, the
//! person signs in first (and comes back here), then accepts as themselves
//! (`POST /organization/{id}/inviteMember/{inviteId}`).

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};
use leptos_router::NavigateOptions;
use platform_api::InvitationAcceptance;
use uuid::Uuid;

use crate::api::member::accept_invitation;
use crate::api::member::accept_invitation_signed_in;
use crate::api::session::{use_session, Credentials, TokenKind};
use crate::api::ApiError;
use crate::paths;
use crate::state::config::use_config;

#[component]
pub fn Invitation() -> impl IntoView {
    let params = use_params_map();
    let config = use_config();
    let session = use_session();
    let navigate = use_navigate();
    let failure = RwSignal::new(None::<String>);
    let accept_signed_in = {
        let navigate = navigate.clone();
        Action::new_local(
            move |(credentials, org, invitation): &(Credentials, Uuid, Uuid)| {
                let (credentials, org, invitation) = (credentials.clone(), *org, *invitation);
                let navigate = navigate.clone();
                async move {
                    match accept_invitation_signed_in(&credentials, org, invitation).await {
                        Ok(()) => navigate(&paths::organization(org), NavigateOptions::default()),
                        Err(error) => failure.set(Some(refusal(&error))),
                    }
                }
            },
        )
    };
    let sign_in_first = navigate.clone();
    let code = window()
        .location()
        .hash()
        .ok()
        .and_then(|hash| hash.strip_prefix("#code=").map(str::to_string))
        .unwrap_or_default();
    let accept = Action::new_local(
        move |(base_url, acceptance): &(String, InvitationAcceptance)| {
            let (base_url, acceptance) = (base_url.clone(), acceptance.clone());
            let navigate = navigate.clone();
            async move {
                match accept_invitation(&base_url, &acceptance).await {
                    Ok(signed_in) => {
                        let credentials = Credentials {
                            base_url,
                            kind: TokenKind::ApiToken,
                            token: signed_in.token,
                            provider: None,
                        };
                        session.sign_in(credentials, false);
                        navigate(
                            &paths::organization(signed_in.organization_id),
                            NavigateOptions::default(),
                        );
                    }
                    Err(error) => failure.set(Some(refusal(&error))),
                }
            }
        },
    );
    // Once the API's address is known, the invitation is accepted, once.
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(loaded) = config.get() else {
            return false;
        };
        let params = params.get_untracked();
        let ids: (Option<Uuid>, Option<Uuid>) = (
            params.get("org").and_then(|id| id.parse().ok()),
            params.get("invitation").and_then(|id| id.parse().ok()),
        );
        if loaded.oidc.is_some() {
            let signed_in = session
                .credentials_untracked()
                .filter(|credentials| credentials.provider.is_some());
            match (ids, signed_in) {
                ((Some(org), Some(invitation)), Some(credentials)) => {
                    accept_signed_in.dispatch_local((credentials, org, invitation));
                }
                ((Some(org), Some(invitation)), None) => sign_in_first(
                    &paths::sign_in(Some(&paths::INVITATION.at(&[org, invitation]))),
                    NavigateOptions::default(),
                ),
                _ => failure.set(Some(INCOMPLETE.into())),
            }
            return true;
        }
        let Some(base_url) = loaded.api_base_url else {
            failure.set(Some(
                "This console is not set up with its API's address (config.json): sign in instead."
                    .into(),
            ));
            return true;
        };
        match ids {
            (Some(organization_id), Some(invitation_id)) if !code.is_empty() => {
                let acceptance = InvitationAcceptance {
                    organization_id,
                    invitation_id,
                    code: code.clone(),
                };
                accept.dispatch_local((base_url, acceptance));
            }
            _ => failure.set(Some(INCOMPLETE.into())),
        }
        true
    });
    view! {
        <main class="sign-in">
            <div class="card sign-in__card">
                <h1>"Joining the organization"</h1>
                {move || match failure.get() {
                    None => view! { <p role="status">"Accepting your invitation…"</p> }.into_any(),
                    Some(message) => view! {
                        <p class="notice notice--error" role="alert">{message}</p>
                        <a class="button button--secondary" href="/sign-in">"Sign in another way"</a>
                    }.into_any(),
                }}
            </div>
        </main>
    }
}

const INCOMPLETE: &str =
    "This link is incomplete: copy the whole invitation link and open it again.";

/// Why the invitation could not be accepted, in words.
fn refusal(error: &ApiError) -> String {
    match error {
        ApiError::NotFound(_) => "This invitation is unknown, was revoked or was already \
            accepted, or this API does not sign members in by link (the production platform \
            signs its users in itself). Ask for a new invitation, or sign in."
            .into(),
        other => other.to_string(),
    }
}
