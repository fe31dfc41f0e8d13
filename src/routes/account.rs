//! `/account`: who is signed in (`GET /account`), how, the organizations they belong to, and
//! signing out. The e-mail address comes from the identity provider: the platform's own edit of
//! it (`PUT /account`) is not offered (docs/unserved-operations.md says why).

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::AccountInfo;

use crate::api::session::{use_session, TokenKind};
use crate::api::{use_api, Named};
use crate::components::format::exact;
use crate::components::loaded::loaded;
use crate::paths;
use crate::state::resource::resource;

#[component]
pub fn Account() -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let account = resource(move || async move { api.account().await });
    let organizations = resource(move || async move { api.organization_names().await });
    let how = move || {
        let credentials = session.credentials()?;
        Some(match (credentials.kind, credentials.provider) {
            (_, Some(_)) => {
                "Through your identity provider; the session renews itself while the tab is open."
            }
            (TokenKind::AccessToken, None) => "With an access token.",
            (TokenKind::ApiToken, None) => {
                "With an organization API token: it acts for its organization, not for a person."
            }
        })
    };
    view! {
        <h1>"Your account"</h1>
        <section class="card" aria-labelledby="account-who">
            <h2 id="account-who">"Signed in"</h2>
            {loaded(account, 3, |account: AccountInfo| view! { <AccountFacts account/> })}
            <p class="muted">{how}</p>
            <button type="button" class="button button--secondary"
                on:click=move |_| session.sign_out(&paths::sign_in(None))>
                "Sign out of every tab"
            </button>
        </section>
        <section class="card" aria-labelledby="account-organizations">
            <h2 id="account-organizations">"Your organizations"</h2>
            {loaded(organizations, 2, |organizations: Vec<Named>| view! {
                <ul class="record-list">
                    {organizations.into_iter().map(|organization| view! {
                        <li><A href=paths::organization(organization.id)>{organization.name}</A></li>
                    }).collect_view()}
                </ul>
            })}
            <p><A href=paths::NEW_ORGANIZATION.at(&[])>"New organization…"</A></p>
        </section>
    }
}

#[component]
fn AccountFacts(account: AccountInfo) -> impl IntoView {
    let name = [account.first_name.as_deref(), account.last_name.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let name = Some(name)
        .filter(|name| !name.is_empty())
        .or(account.nickname);
    view! {
        <dl class="facts">
            {name.map(|name| view! { <dt>"Name"</dt><dd>{name}</dd> })}
            {account.communication_email.map(|email| view! { <dt>"E-mail"</dt><dd>{email}</dd> })}
            {account.created_at.map(|at| view! { <dt>"Known since"</dt><dd>{exact(at)}</dd> })}
        </dl>
    }
}
