//! `/organization/:org/settings/api-tokens`: the organization's API tokens with their role and
//! expiry (never their secret); a form to create one, whose secret is shown this once with a copy
//! button; delete after a confirmation; and who is signed in (`GET /account`), the token among
//! them or a member.

use chrono::{Duration, Utc};
use leptos::prelude::*;
use platform_api::{AccountInfo, ApiToken, ApiTokenRequest, RolePermission};
use uuid::Uuid;

use super::roles::{least_role, role_options};
use crate::api::use_api;
use crate::components::copy_button::CopyButton;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{SelectField, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;
use crate::state::resource::resource;

/// The lifetimes offered, in days; `None` never expires.
const LIFETIMES: [(&str, &str, Option<i64>); 5] = [
    ("7", "7 days", Some(7)),
    ("30", "30 days", Some(30)),
    ("90", "90 days", Some(90)),
    ("365", "1 year", Some(365)),
    ("never", "Never (not recommended)", None),
];

#[component]
pub fn ApiTokens() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let token_list = organization_records(|api, org| async move { api.api_tokens(org).await });
    // The secret of the token just created: shown until the person says they copied it.
    let created = RwSignal::new(None::<ApiToken>);
    view! {
        <SettingsHeader title="API tokens"
            lead="Tokens that scripts and CI use to call the API, each with a role that bounds what it may do."/>
        <SignedIn/>
        {move || created.get().map(|token| view! {
            <ShownOnce token on_done=Callback::new(move |()| created.set(None))/>
        })}
        <section class="card" aria-labelledby="tokens-title">
            <h2 id="tokens-title">"All tokens"</h2>
            {loaded(token_list, 3, move |(org, tokens)| view! {
                <TokenTable org tokens on_deleted=Callback::new(move |()| token_list.refetch())/>
            })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New API token" needs=RolePermission::Admin>
                <CreateToken org on_created=Callback::new(move |token: ApiToken| {
                    created.set(Some(token));
                    token_list.refetch();
                })/>
            </NewDialog>
        })}
    }
}

/// Who is signed in, with when; nothing against a platform that does not say.
#[component]
fn SignedIn() -> impl IntoView {
    let api = use_api();
    let account = resource(move || async move { api.account().await.ok() });
    move || {
        let account: AccountInfo = account.get().flatten()?;
        let said = account.said()?;
        let email = account.communication_email.clone();
        Some(view! {
            <p class="muted" data-account>"Signed in as "<strong>{said}</strong>
                {email.map(|email| view! { " ("{email}")" })}
                {account.created_at.map(|at| view! { ", made " <RelativeTime at/> })}
                "."</p>
        })
    }
}

/// The new token's secret, with the warning that it is not shown again.
#[component]
fn ShownOnce(token: ApiToken, on_done: Callback<()>) -> impl IntoView {
    let secret = token.token.unwrap_or_default();
    view! {
        <section class="card shown-once" aria-labelledby="shown-once-title" role="alert">
            <h2 id="shown-once-title">{format!("Copy the token {} now", token.name)}</h2>
            <p>"It is shown this once: the platform keeps only a hash of it and cannot show it again."</p>
            <div class="shown-once__secret">
                <input class="mono" type="text" readonly value=secret.clone()
                    aria-label="The new API token" on:focus=|event| {
                        use wasm_bindgen::JsCast;
                        if let Some(input) = event.target()
                            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    }/>
                <CopyButton text=secret label="Copy the new API token"/>
            </div>
            <button type="button" class="button button--secondary" on:click=move |_| on_done.run(())>
                "I have copied it"
            </button>
        </section>
    }
}

#[component]
fn TokenTable(org: Uuid, tokens: Vec<ApiToken>, on_deleted: Callback<()>) -> impl IntoView {
    if tokens.is_empty() {
        return view! {
            <EmptyState title="No API token"
                hint="Create one with the button below for a script or a CI pipeline."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Role"</th>
                <th scope="col">"Created"</th>
                <th scope="col">"Expires"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {tokens.into_iter().map(|token| view! { <TokenRow org token on_deleted/> }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn TokenRow(org: Uuid, token: ApiToken, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    let id = token.id;
    let expires = match token.expires_at {
        None => view! { <span class="muted">"Never"</span> }.into_any(),
        Some(_) if token.expired(Utc::now()) => {
            view! { <span class="badge badge--failure"><span class="badge__dot" aria-hidden="true"></span>"Expired"</span> }
                .into_any()
        }
        Some(at) => view! { <RelativeTime at/> }.into_any(),
    };
    view! {
        <tr data-token=token.name.clone()>
            <td>
                <strong>{token.name.clone()}</strong>
                {token.description.clone().filter(|d| !d.is_empty()).map(|description| view! {
                    <div class="muted cell-note">{description}</div>
                })}
            </td>
            <td><span class="tag">{token.role_name.clone()}</span></td>
            <td><RelativeTime at=token.created_at/></td>
            <td>{expires}</td>
            <td class="row-actions">
                <DeleteButton question="Delete this API token?" item=token.name.clone()
                    consequence="Whatever uses it is refused from now on. Signed in with it, you are signed out."
                    done="API token deleted: it no longer works."
                    delete=move || async move { api.delete_api_token(org, id).await } on_deleted/>
            </td>
        </tr>
    }
}

#[component]
fn CreateToken(org: Uuid, on_created: Callback<ApiToken>) -> impl IntoView {
    let api = use_api();
    let roles = resource(move || async move { api.roles(org).await });
    let name = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    let lifetime = RwSignal::new("90".to_string());
    let form = Form::new(
        move |request: ApiTokenRequest| async move { api.create_api_token(org, &request).await },
        move |created: ApiToken| {
            name.set(String::new());
            description.set(String::new());
            let message = format!("API token {} created.", created.name);
            on_created.run(created);
            message
        },
    );
    let errors = form.errors;
    // The least powerful role is the one chosen at first.
    Effect::new(move |_| {
        if let Some(Ok(roles)) = roles.get() {
            if let (true, Some(least)) = (role.get_untracked().is_empty(), least_role(&roles)) {
                role.set(least.to_string());
            }
        }
    });
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let now = Utc::now();
        let days = LIFETIMES
            .iter()
            .find(|(value, _, _)| *value == lifetime.get_untracked())
            .and_then(|(_, _, days)| *days);
        let description = description.get_untracked();
        let request = ApiTokenRequest {
            name: name.get_untracked().trim().to_string(),
            description: (!description.trim().is_empty()).then_some(description),
            role_id: role.get_untracked().parse().ok(),
            scope: None,
            expires_at: days.map(|days| now + Duration::days(days)),
        };
        let checked = request.validate(now);
        form.submit(request, checked);
    };
    let lifetimes: Vec<(&'static str, String)> = LIFETIMES
        .iter()
        .map(|(value, label, _)| (*value, label.to_string()))
        .collect();
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Create an API token">
            <h2>"New API token"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="ci-deploy"/>
                <TextField label="Description" name="description" value=description errors
                    placeholder="What uses it"/>
                {move || roles.get().map(|roles| match roles {
                    Ok(roles) => {
                        let options = role_options(&roles);
                        view! { <SelectField label="Role" name="role_id" value=role options errors required=true/> }
                            .into_any()
                    }
                    Err(error) => view! { <p class="notice notice--error">{error.to_string()}</p> }.into_any(),
                })}
                <SelectField label="Expires" name="expires_at" value=lifetime options=lifetimes.clone() errors/>
            </div>
            <SubmitButton form label="Create token"/>
        </form>
    }
}
