//! "Download as Terraform" on an environment's settings: its services and variables as one
//! `main.tf`, each secret an input variable to give when applying (the API never reads a
//! secret back).

use leptos::prelude::*;
use uuid::Uuid;

use crate::api::use_api;
use crate::components::download::download_text;
use crate::state::toasts::use_toasts;

#[component]
pub fn ExportEnvironment(id: Uuid, name: String) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let file = format!(
        "{}.tf",
        name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_")
    );
    let export = Action::new_local(move |(): &()| {
        let file = file.clone();
        async move {
            let saved = match api.terraform_export(id).await {
                Ok(text) => download_text(&file, &text),
                Err(error) => Err(error.to_string()),
            };
            if let Err(refusal) = saved {
                toasts.error(refusal);
            }
        }
    });
    view! {
        <div class="export">
            <button type="button" class="button button--secondary" on:click=move |_| { export.dispatch(()); }
                disabled=move || export.pending().get()>
                {move || if export.pending().get() { "Exporting…" } else { "Download as Terraform" }}
            </button>
            <p class="muted">"Its services and variables as one file of Terraform; each secret is an input variable to give when you apply it."</p>
        </div>
    }
}
