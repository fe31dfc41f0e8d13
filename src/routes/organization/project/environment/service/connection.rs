//! A database's connection details on its overview: where to reach it and how to sign in, each
//! with the built-in variable of the environment that holds it (how its services read it).

use leptos::prelude::*;
use platform_api::{Credentials, EnvironmentVariable, RolePermission, VariableScope, VariableType};
use uuid::Uuid;

use super::{no_service, use_addressed_service};
use crate::api::use_api;
use crate::components::copy_button::CopyButton;
use crate::components::loaded::loaded;
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;
use crate::state::resource::resource;
use crate::state::role::Permitted;

/// What each built-in variable of a database holds, by the end of its name.
const DETAILS: [(&str, &str); 4] = [
    ("_HOST_INTERNAL", "Host"),
    ("_PORT", "Port"),
    ("_LOGIN", "User"),
    ("_PASSWORD", "Password"),
];

#[component]
pub fn DatabaseConnection(database: Uuid) -> impl IntoView {
    let api = use_api();
    let environment = current_id(|a: &EnvironmentAddress| a.env);
    let variables = resource(move || {
        let environment = environment.get();
        async move {
            let environment = environment.ok_or_else(no_service)?;
            let all = api
                .variables(VariableScope::Environment, environment)
                .await?;
            Ok(all
                .into_iter()
                .filter(|v| {
                    v.variable_type == VariableType::BuiltIn && v.service_id == Some(database)
                })
                .collect::<Vec<_>>())
        }
    });
    // The password once revealed: held by this view only (never stored, gone with the page).
    let revealed = RwSignal::new(None::<Credentials>);
    view! {
        <section class="card" aria-labelledby="connection-title">
            <h2 id="connection-title">"Connection"</h2>
            <p class="muted">"The environment's services read these from its built-in variables."</p>
            {loaded(variables, 4, move |variables| view! { <ConnectionDetails variables revealed/> })}
            <RevealPassword database revealed/>
        </section>
    }
}

/// Reveals the password when asked for (it shows in its row), with the connection string that
/// carries it.
#[component]
fn RevealPassword(database: Uuid, revealed: RwSignal<Option<Credentials>>) -> impl IntoView {
    let api = use_api();
    let service = use_addressed_service();
    let permitted = Permitted::new(RolePermission::Write, "reveal the database's password");
    let failed = RwSignal::new(None::<String>);
    let reveal = Action::new_local(move |_: &()| async move {
        match api.master_credentials(database).await {
            Ok(credentials) => {
                failed.set(None);
                revealed.set(Some(credentials));
            }
            Err(error) => {
                permitted.note(&error);
                failed.set(Some(error.to_string()));
            }
        }
    });
    let database_type = move || service.record.get()?.ok()?.database_type();
    view! {
        {move || match (revealed.get(), database_type()) {
            (Some(credentials), Some(database_type)) => {
                let connection = credentials.connection_string(database_type);
                view! {
                    <dl class="facts">
                        <dt>"Connection string"</dt>
                        <dd>
                            <span class="mono">{connection.clone()}</span>" "
                            <CopyButton text=connection label="Copy the connection string"/>
                        </dd>
                    </dl>
                    <div class="actions">
                        <button type="button" class="button button--ghost button--small"
                            on:click=move |_| revealed.set(None)>"Hide the password"</button>
                    </div>
                }.into_any()
            }
            _ => view! {
                <p class="actions__refusal">{move || permitted.refusal()}</p>
                <div class="actions">
                    <button type="button" class="button button--small"
                        disabled=Signal::derive(move || reveal.pending().get() || permitted.refusal().is_some())
                        title=Signal::derive(move || permitted.refusal())
                        on:click=move |_| { reveal.dispatch(()); }>
                        "Reveal the password"
                    </button>
                </div>
                {move || failed.get().map(|message| view! { <p class="field__error" role="alert">{message}</p> })}
            }.into_any(),
        }}
    }
}

#[component]
fn ConnectionDetails(
    variables: Vec<EnvironmentVariable>,
    revealed: RwSignal<Option<Credentials>>,
) -> impl IntoView {
    let rows: Vec<_> = DETAILS
        .iter()
        .filter_map(|(suffix, what)| {
            variables
                .iter()
                .find(|v| v.key.ends_with(suffix))
                .map(|v| (*what, v.clone()))
        })
        .collect();
    view! {
        <dl class="facts">
            {rows.into_iter().map(|(what, variable)| {
                let key = variable.key.clone();
                view! {
                    <dt>{what}</dt>
                    <dd>
                        {match variable.value.clone() {
                            Some(value) => view! {
                                <span class="mono">{value.clone()}</span> " "
                                <CopyButton text=value label=copy_label(what)/>
                            }.into_any(),
                            None => view! { <SecretValue revealed/> }.into_any(),
                        }}
                        <br/>
                        <span class="muted">"in "</span><code>{key}</code>
                    </dd>
                }
            }).collect_view()}
        </dl>
    }
}

/// The password: not shown until revealed.
#[component]
fn SecretValue(revealed: RwSignal<Option<Credentials>>) -> impl IntoView {
    move || match revealed.get() {
        Some(credentials) => view! {
            <span class="mono">{credentials.password.clone()}</span>" "
            <CopyButton text=credentials.password label="Copy the password"/>
        }
        .into_any(),
        None => view! { <span class="muted">"A secret: not shown"</span> }.into_any(),
    }
}

fn copy_label(what: &str) -> &'static str {
    match what {
        "Host" => "Copy the host",
        "Port" => "Copy the port",
        _ => "Copy the user",
    }
}
