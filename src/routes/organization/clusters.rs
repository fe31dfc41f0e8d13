//! `/organization/:org/clusters`: the clusters environments run on, each with its Kubernetes
//! version, whether a newer one is available, its lock and its status; a form to add one.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{
    CloudProvider, Cluster, ClusterCatalog, ClusterFeature, ClusterFeatureRequest,
    ClusterFeatureValueKind, ClusterRequest, ClusterStatus, FeatureValue, FieldError,
    KUBERNETES_VERSIONS,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{error_for, EnumSelect, SelectField, TextField};
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::status_badge::ClusterStatusBadge;
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::state::polling::poll;
use crate::state::resource::resource;
use platform_api::WireEnum as _;

/// How often the list is polled while a cluster is being worked on.
const POLL_BUSY: Duration = Duration::from_secs(3);

#[component]
pub fn Clusters() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let clusters =
        organization_records(|api, org| async move { api.clusters_with_status(org).await });
    poll(
        move || match clusters.get() {
            Some(Ok((_, list))) if list.iter().any(|(_, s)| s.status.is_in_progress()) => {
                Some(POLL_BUSY)
            }
            _ => None,
        },
        move || clusters.refetch(),
    );
    view! {
        <div class="page__header">
            <h1>"Clusters"</h1>
            <p class="page__lead">
                "Where environments run. Each runs one Kubernetes version, upgraded one version at a time."
            </p>
        </div>
        <section class="card" aria-labelledby="clusters-title">
            <h2 id="clusters-title">"All clusters"</h2>
            {loaded(clusters, 3, |(org, clusters)| view! { <ClusterTable org clusters/> })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New cluster"><CreateCluster org on_created=Callback::new(move |()| clusters.refetch())/></NewDialog>
        })}
    }
}

#[component]
fn ClusterTable(org: Uuid, clusters: Vec<(Cluster, ClusterStatus)>) -> impl IntoView {
    if clusters.is_empty() {
        return view! {
            <EmptyState title="No cluster yet"
                hint="Add one with the button below; environments then name it to run there."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Where"</th>
                <th scope="col">"Kubernetes"</th>
                <th scope="col">"Status"</th>
            </tr></thead>
            <tbody>
                {clusters.into_iter().map(|(cluster, status)| {
                    // The link's text moves into its own closure.
                    let (name, link_text) = (cluster.name.clone(), cluster.name.clone());
                    view! {
                    <tr data-cluster=name>
                        <td>
                            <A href=paths::cluster(org, cluster.id)>{link_text}</A>
                            {cluster.production.then(|| view! { " " <span class="tag tag--production">"Production"</span> })}
                        </td>
                        <td>{format!("{} · {} · {}", cluster.cloud_provider.label(), cluster.region, format::cluster_machines(&cluster))}</td>
                        <td>
                            {cluster.version.clone()}
                            {status.next_k8s_available_version.clone().map(|next| view! {
                                <div class="muted cell-note">{format!("{next} available")}</div>
                            })}
                        </td>
                        <td>
                            <ClusterStatusBadge state=status.status/>
                            {status.cluster_lock.as_ref().map(|_| view! { " " <span class="tag">"Locked"</span> })}
                        </td>
                    </tr>
                }}).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// A node count typed; one out of range is left to the rule to name (0 is under its minimum).
fn node_count(typed: i64) -> u32 {
    u32::try_from(typed).unwrap_or(0)
}

#[component]
fn CreateCluster(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let provider = RwSignal::new(CloudProvider::Aws);
    let region = RwSignal::new(String::new());
    // The provider's regions as the platform lists them; a provider it lists none of (or a
    // list that could not be read) takes a region typed.
    let regions = resource(move || {
        let provider = provider.get();
        async move { api.cloud_regions(provider).await.ok().flatten() }
    });
    // The region follows the list: kept when it is in it, else its first, else typed anew.
    Effect::new(move |_| {
        let Some(listed) = regions.get() else {
            return;
        };
        let current = region.get_untracked();
        let next = match listed {
            Some(list) if list.iter().any(|known| known.name == current) => current,
            Some(list) => list
                .first()
                .map(|first| first.name.clone())
                .unwrap_or_default(),
            None => String::new(),
        };
        region.set(next);
    });
    // The instance types of the region (its first zone, where the cloud lists them by zone).
    let instance_type = RwSignal::new(String::new());
    let instance_types = resource(move || {
        let (provider, chosen) = (provider.get(), region.get());
        let listed = regions.get().flatten().unwrap_or_default();
        let place = listed
            .into_iter()
            .find(|known| known.name == chosen)
            .and_then(|known| known.zones.and_then(|zones| zones.into_iter().next()))
            .unwrap_or(chosen);
        async move {
            if place.is_empty() {
                return None;
            }
            api.instance_types(provider, &place).await.ok().flatten()
        }
    });
    // The type follows the list: kept when it is in it, else the cloud's 16 cores and 64 GB.
    Effect::new(move |_| {
        let listed = instance_types.get().flatten().unwrap_or_default();
        let current = instance_type.get_untracked();
        if listed.iter().any(|known| known.name == current) {
            return;
        }
        let default = provider.get_untracked().default_instance_type();
        let next = listed
            .iter()
            .find(|known| default.is_some_and(|d| d.name == known.name))
            .or(listed.first())
            .map(|known| known.name.clone());
        instance_type.set(next.unwrap_or_default());
    });
    // The features the cloud lists, each at its default until chosen otherwise.
    let features = resource(move || {
        let provider = provider.get();
        async move {
            let listed = api.cluster_features(provider).await.ok().flatten()?;
            Some(
                listed
                    .into_iter()
                    .filter(|feature| !feature.id.is_empty())
                    .collect::<Vec<_>>(),
            )
        }
    });
    let chosen = RwSignal::new(Vec::<ClusterFeatureRequest>::new());
    Effect::new(move |_| {
        let listed = features.get().flatten().unwrap_or_default();
        chosen.set(
            listed
                .iter()
                .map(|feature| ClusterFeatureRequest {
                    id: feature.id.clone(),
                    value: feature.value().clone(),
                })
                .collect(),
        );
    });
    let min_nodes = RwSignal::new("1".to_string());
    let max_nodes = RwSignal::new("3".to_string());
    let version = RwSignal::new(KUBERNETES_VERSIONS[0].to_string());
    let production = RwSignal::new(false);
    let form = Form::new(
        move |request: ClusterRequest| async move { api.create_cluster(org, &request).await },
        move |created: Cluster| {
            name.set(String::new());
            on_created.run(());
            format!("Cluster {} added.", created.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let request = ClusterRequest {
            name: name.get_untracked().trim().to_string(),
            description: None,
            cloud_provider: provider.get_untracked(),
            region: region.get_untracked().trim().to_string(),
            version: Some(version.get_untracked()),
            production: production.get_untracked(),
            instance_type: Some(instance_type.get_untracked()).filter(|t| !t.is_empty()),
            min_running_nodes: node_count(
                numbers.read("min_running_nodes", &min_nodes.get_untracked()),
            ),
            max_running_nodes: node_count(
                numbers.read("max_running_nodes", &max_nodes.get_untracked()),
            ),
            features: chosen.get_untracked(),
        };
        let listed = regions.get_untracked().flatten();
        let names: Option<Vec<&str>> = listed
            .as_ref()
            .map(|list| list.iter().map(|known| known.name.as_str()).collect());
        let types = instance_types.get_untracked().flatten();
        let type_names: Option<Vec<&str>> = types
            .as_ref()
            .map(|list| list.iter().map(|known| known.name.as_str()).collect());
        let offered = features.get_untracked().flatten();
        let checked = numbers.and_rules(request.validate_in(ClusterCatalog {
            regions: names.as_deref(),
            instance_types: type_names.as_deref(),
            features: offered.as_deref(),
        }));
        form.submit(request, checked);
    };
    let versions: Vec<(&str, String)> = KUBERNETES_VERSIONS
        .iter()
        .map(|version| (*version, version.to_string()))
        .collect();
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a cluster">
            <h2>"New cluster"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="eu-production"/>
                <EnumSelect label="Cloud provider" name="cloud_provider" value=provider errors/>
                {move || match regions.get() {
                    None => view! { <p class="muted">"Reading the regions…"</p> }.into_any(),
                    Some(Some(list)) => {
                        let options: Vec<(String, String)> = list
                            .iter()
                            .map(|known| (known.name.clone(), known.label()))
                            .collect();
                        view! { <SelectField label="Region" name="region" value=region options errors required=true/> }.into_any()
                    }
                    Some(None) => view! {
                        <TextField label="Region" name="region" value=region errors required=true placeholder="dc-paris-1"/>
                    }.into_any(),
                }}
                {move || instance_types.get().flatten().map(|list| {
                    let options: Vec<(String, String)> = list
                        .iter()
                        .map(|known| (known.name.clone(), known.label()))
                        .collect();
                    view! { <SelectField label="Instance type" name="instance_type" value=instance_type options errors/> }
                })}
                <TextField label="Nodes at least" name="min_running_nodes" value=min_nodes errors input_type="number"/>
                <TextField label="Nodes at most" name="max_running_nodes" value=max_nodes errors input_type="number"
                    hint="The node autoscaler runs up to this many."/>
                <SelectField label="Kubernetes version" name="version" value=version options=versions errors/>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="production" bind:checked=production/>
                " Runs production environments"
            </label>
            {move || features.get().flatten().filter(|listed| !listed.is_empty()).map(|listed| view! {
                <fieldset class="choices">
                    <legend>"Features (fixed once the cluster is made)"</legend>
                    {listed.into_iter().enumerate().map(|(index, feature)| {
                        view! { <FeatureField index feature chosen errors/> }
                    }).collect_view()}
                </fieldset>
            })}
            <SubmitButton form label="Add cluster"/>
        </form>
    }
}

/// One feature of the cloud's: a checkbox for a yes-or-no one, a field for a text one (other
/// kinds, which take an object, are left at their default).
#[component]
fn FeatureField(
    index: usize,
    feature: ClusterFeature,
    chosen: RwSignal<Vec<ClusterFeatureRequest>>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let name = format!("features[{index}].value");
    let id = format!("field-features-{index}");
    let label_for = id.clone();
    let error = error_for(errors, name.clone());
    let hint = feature.description.clone().unwrap_or_default();
    let value = move || {
        chosen.with(|features| {
            features
                .get(index)
                .map(|feature| feature.value.clone())
                .unwrap_or_default()
        })
    };
    let set = move |value: FeatureValue| {
        chosen.update(|features| {
            if let Some(feature) = features.get_mut(index) {
                feature.value = value;
            }
        })
    };
    match feature.kind() {
        ClusterFeatureValueKind::Boolean => view! {
            <div class="field">
                <label class="checkbox" for=label_for>
                    <input type="checkbox" id=id name=name
                        prop:checked=move || value() == FeatureValue::Bool(true)
                        on:change=move |event| set(FeatureValue::Bool(event_target_checked(&event)))/>
                    {feature.title.clone()}
                </label>
                <p class="field__hint">{hint}</p>
            </div>
        }
        .into_any(),
        ClusterFeatureValueKind::String => {
            let error_id = format!("{id}-error");
            view! {
                <div class="field" class:field--invalid=move || error.get().is_some()>
                    <label for=label_for>{feature.title.clone()}</label>
                    <input id=id name=name type="text"
                        prop:value=move || value().as_text().unwrap_or_default().to_string()
                        on:input=move |event| set(FeatureValue::Text(event_target_value(&event)))
                        aria-invalid=move || error.get().is_some().to_string()
                        aria-describedby=error_id.clone()/>
                    <p class="field__hint">{hint}</p>
                    <p class="field__error" id=error_id>{move || error.get()}</p>
                </div>
            }
            .into_any()
        }
        _ => ().into_any(),
    }
}
