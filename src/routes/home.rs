use leptos::prelude::*;
use leptos_router::components::Redirect;

use crate::api::use_api;
use crate::components::loaded::loaded;
use crate::paths;
use crate::state::resource::resource;

/// `/`: the organization of the signed-in token.
#[component]
pub fn Home() -> impl IntoView {
    let api = use_api();
    let organization = resource(move || async move { api.organization().await });
    loaded(organization, 2, |organization| {
        view! { <Redirect path=paths::organization(organization.id)/> }
    })
}
