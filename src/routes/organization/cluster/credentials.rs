//! A cluster's cloud account: the credentials its infrastructure is reached with
//! (`cloudProviderInfo`), chosen among the organization's for the cluster's cloud.

use leptos::prelude::*;
use platform_api::{
    credentials_paths, CloudProvider, Cluster, ClusterCredentials, RolePermission, WireEnum,
};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::form_field::ChoiceField;
use crate::components::loaded::loaded;
use crate::paths;
use crate::state::resource::resource;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;
use leptos_router::components::A;

/// What the card needs: the credentials chosen (by id and name) and those that may be.
#[derive(Clone)]
struct Account {
    chosen: Option<(Uuid, String)>,
    offered: Vec<ClusterCredentials>,
}

#[component]
pub fn CloudAccount(org: Uuid, cluster: Cluster) -> impl IntoView {
    let provider = cluster.cloud_provider;
    // Clouds the platform keeps no credentials for (on premise, say) have nothing to choose.
    credentials_paths(provider)?;
    let api = use_api();
    let id = cluster.id;
    let account = resource(move || async move {
        let (info, offered) = futures::join!(
            api.cluster_cloud_provider_info(org, id),
            api.cloud_credentials(org, provider),
        );
        let chosen = info?
            .credentials
            .and_then(|credentials| Some((credentials.id?, credentials.name.unwrap_or_default())));
        Ok::<_, ApiError>(Account {
            chosen,
            offered: offered?,
        })
    });
    let changed = Callback::new(move |()| account.refetch());
    Some(view! {
        <section class="card" aria-labelledby="account-title">
            <h2 id="account-title">"Cloud account"</h2>
            {loaded(account, 2, move |account| view! {
                <ChooseCredentials org cluster=id provider account on_changed=changed/>
            })}
        </section>
    })
}

#[component]
fn ChooseCredentials(
    org: Uuid,
    cluster: Uuid,
    provider: CloudProvider,
    account: Account,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Admin, "choose a cluster's credentials");
    let Account { chosen, offered } = account;
    let said = match &chosen {
        Some((_, name)) => view! { <p>"Reached with "<strong data-credentials-chosen=name.clone()>{name.clone()}</strong>"."</p> }.into_any(),
        None => view! { <p class="muted">"No credentials chosen: the platform cannot reach the cloud account to install or update it."</p> }.into_any(),
    };
    if offered.is_empty() {
        return view! {
            {said}
            <p class="muted">"The organization has no "{provider.label()}" credentials yet. "
                <A href=paths::cloud_credentials(org)>"Add some in the settings"</A>"."</p>
        }
        .into_any();
    }
    let choice = RwSignal::new(chosen.as_ref().map(|(id, _)| *id).unwrap_or(offered[0].id));
    let errors = RwSignal::new(Vec::new());
    let options: Vec<(Uuid, String)> = offered
        .iter()
        .map(|credentials| {
            let known = credentials
                .identifier()
                .map(|(_, value)| format!(" ({value})"))
                .unwrap_or_default();
            (credentials.id, format!("{}{known}", credentials.name))
        })
        .collect();
    let choose = Action::new_local(move |credentials: &Uuid| {
        let credentials = *credentials;
        async move {
            match api
                .choose_cluster_credentials(org, cluster, credentials)
                .await
            {
                Ok(info) => {
                    let name = info.credentials.and_then(|c| c.name).unwrap_or_default();
                    toasts.success(format!("The cluster is reached with {name} from now on."));
                    on_changed.run(());
                }
                Err(error) => {
                    permitted.note(&error);
                    errors.set(error.fields().to_vec());
                    toasts.error(error.to_string());
                }
            }
        }
    });
    let unchanged = move || chosen.as_ref().is_some_and(|(id, _)| *id == choice.get());
    view! {
        {said}
        <form novalidate aria-label="Choose the cluster's credentials"
            on:submit=move |event| { event.prevent_default(); choose.dispatch_local(choice.get_untracked()); }>
            <div class="form-inline__fields">
                <ChoiceField label="Credentials" name="credentials.id" value=choice options errors/>
            </div>
            <p class="actions__refusal">{move || permitted.refusal()}</p>
            <button type="submit" class="button button--secondary"
                disabled=move || unchanged() || choose.pending().get() || permitted.refusal().is_some()
                title=move || permitted.refusal()>"Use these credentials"</button>
        </form>
    }
    .into_any()
}
