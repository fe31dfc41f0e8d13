use leptos::prelude::*;
use leptos_router::components::Redirect;

use crate::api::use_api;
use crate::components::empty_state::EmptyState;
use crate::components::loaded::loaded;
use crate::paths;
use crate::state::resource::resource;

/// `/`: the first organization of who signed in (a token's one); a person in none yet is
/// offered to make one, or told to open an invitation.
#[component]
pub fn Home() -> impl IntoView {
    let api = use_api();
    let organizations = resource(move || async move { api.organization_names().await });
    loaded(organizations, 2, |organizations| {
        match organizations.first() {
        Some(organization) => {
            view! { <Redirect path=paths::organization(organization.id)/> }.into_any()
        }
        None => view! {
            <h1>"Welcome"</h1>
            <EmptyState title="You belong to no organization yet"
                hint="Open the invitation a colleague sent you, or make an organization of your own."/>
            <a class="button button--primary" href=paths::NEW_ORGANIZATION.at(&[])>"New organization"</a>
        }
        .into_any(),
    }
    })
}
