//! A database's connection details on its overview: where to reach it and how to sign in, each
//! with the built-in variable of the environment that holds it (how its services read it).

use leptos::prelude::*;
use platform_api::{EnvironmentVariable, VariableScope, VariableType};
use uuid::Uuid;

use super::no_service;
use crate::api::use_api;
use crate::components::copy_button::CopyButton;
use crate::components::loaded::loaded;
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;

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
    let variables = LocalResource::new(move || {
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
    view! {
        <section class="card" aria-labelledby="connection-title">
            <h2 id="connection-title">"Connection"</h2>
            <p class="muted">"The environment's services read these from its built-in variables."</p>
            {loaded(variables, 4, |variables| view! { <ConnectionDetails variables/> })}
        </section>
    }
}

#[component]
fn ConnectionDetails(variables: Vec<EnvironmentVariable>) -> impl IntoView {
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
                            None => view! { <span class="muted">"A secret: not shown"</span> }.into_any(),
                        }}
                        <br/>
                        <span class="muted">"in "</span><code>{key}</code>
                    </dd>
                }
            }).collect_view()}
        </dl>
    }
}

fn copy_label(what: &str) -> &'static str {
    match what {
        "Host" => "Copy the host",
        "Port" => "Copy the port",
        _ => "Copy the user",
    }
}
