//! `/organization/:org/project/:project/overview`: the project's environments with their state (one
//! request for all), mode and cluster, and a form to create one on one of the organization's
//! clusters.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::audit::EventQuery;
use platform_api::WireEnum;
use platform_api::{
    Environment, EnvironmentMode, EnvironmentRequest, EnvironmentState, Project, ProjectRequest,
};
use uuid::Uuid;

use super::deployment_rules::ProjectDeploymentRules;
use crate::api::cluster::ClusterChoice;
use crate::api::{use_api, ApiError};
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{EnumSelect, SelectField, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::components::rename_and_delete::RenameAndDelete;
use crate::components::status_badge::StatusBadge;
use crate::paths;
use crate::routes::address::{OrganizationAddress, ProjectAddress};
use crate::routes::current_id;
use crate::routes::organization::audit_log::HistoryOfChanges;
use crate::state::names_changed::use_names_changed;
use crate::state::resource::resource;

#[component]
pub fn ProjectOverview() -> impl IntoView {
    let api = use_api();
    let org = current_id(|a: &OrganizationAddress| a.org);
    let project = current_id(|a: &ProjectAddress| a.project);
    let environments = resource(move || {
        let ids = org.get().zip(project.get());
        async move {
            let (org, project) =
                ids.ok_or_else(|| ApiError::NotFound("The address names no project.".into()))?;
            api.environments(project)
                .await
                .map(|list| (org, project, list))
        }
    });
    // Where each environment stands, for all of them in one request; the table waits for none.
    let states = resource(move || {
        let project = project.get();
        async move {
            match project {
                Some(project) => api.environment_states(project).await,
                None => Ok(Vec::new()),
            }
        }
    });
    let clusters = resource(move || {
        let org = org.get();
        async move {
            match org {
                Some(org) => api.cluster_choices(org).await,
                None => Ok(Vec::new()),
            }
        }
    });

    let record = resource(move || {
        let id = project.get();
        async move {
            api.project(
                id.ok_or_else(|| ApiError::NotFound("The address names no project.".into()))?,
            )
            .await
        }
    });
    let navigate = use_navigate();
    let deleted = Callback::new(move |()| {
        if let Some(org) = org.get_untracked() {
            navigate(&paths::organization(org), NavigateOptions::default());
        }
    });
    let names = use_names_changed();
    let renamed = Callback::new(move |saved: Project| {
        if let Some(names) = names {
            names.renamed(saved.id, saved.name.clone());
        }
        record.set(Some(Ok(saved)));
    });

    view! {
        <div class="page__header">
            <h1>"Environments"</h1>
            <p class="page__lead">
                "Each environment runs one copy of the project's services. "
                {move || project.get().map(|project| view! {
                    <HistoryOfChanges query=EventQuery {
                        service_project_id: Some(project),
                        ..EventQuery::default()
                    }/>
                })}
            </p>
        </div>
        <section class="card" aria-labelledby="environments-title">
            <h2 id="environments-title">"All environments"</h2>
            {loaded(environments, 3, move |(org, project, environments)| view! {
                <EnvironmentTable org project environments clusters states/>
            })}
        </section>
        {move || {
            let clusters = clusters.get().and_then(Result::ok)?;
            project.get().map(|project| view! {
                <NewDialog label="New environment"><CreateEnvironment project clusters on_created=Callback::new(move |_| environments.refetch())/></NewDialog>
            })
        }}
        {move || project.get().map(|project| view! { <ProjectDeploymentRules project clusters/> })}
        {loaded(record, 2, move |current: Project| {
            let (id, description) = (current.id, current.description.clone());
            view! {
                <RenameAndDelete what="project" name=current.name.clone()
                    consequence="Its environments and their services are deleted with it."
                    rename=move |name: String| {
                        let request = ProjectRequest { name, description: description.clone() };
                        async move { api.update_project(id, &request).await }
                    }
                    delete=move || async move { api.delete_project(id).await }
                    on_renamed=renamed on_deleted=deleted/>
            }
        })}
    }
}

#[component]
fn EnvironmentTable(
    org: Uuid,
    project: Uuid,
    environments: Vec<Environment>,
    clusters: LocalResource<Result<Vec<ClusterChoice>, ApiError>>,
    states: LocalResource<Result<Vec<EnvironmentState>, ApiError>>,
) -> impl IntoView {
    if environments.is_empty() {
        return view! {
            <EmptyState title="No environment yet"
                hint="Create one with the button below: production, staging, a preview…"/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"State"</th>
                <th scope="col">"Mode"</th>
                <th scope="col">"Cluster"</th>
                <th scope="col">"Created"</th>
            </tr></thead>
            <tbody>
                {environments.into_iter().map(|environment| {
                    let cluster = move || {
                        let id = environment.cluster_id;
                        let clusters = clusters.get()?.ok()?;
                        let name = clusters.into_iter().find(|c| c.id == id)?.name;
                        Some((id, name))
                    };
                    let id = environment.id;
                    // An API without the states leaves the cell empty.
                    let state = move || {
                        let states = states.get()?.ok()?;
                        states.into_iter().find(|state| state.id == id).map(|state| state.state)
                    };
                    view! {
                        <tr>
                            <td><A href=paths::environment(org, project, environment.id)>{environment.name}</A></td>
                            <td>{move || state().map(|state| view! { <StatusBadge state/> })}</td>
                            <td><ModeTag mode=environment.mode/></td>
                            <td>{move || match cluster() {
                                Some((id, name)) => view! { <A href=paths::cluster(org, id)>{name}</A> }.into_any(),
                                None => view! { <span class="muted">"—"</span> }.into_any(),
                            }}</td>
                            <td><RelativeTime at=environment.created_at/></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn ModeTag(mode: EnvironmentMode) -> impl IntoView {
    view! {
        <span class=format!("tag tag--{}", mode.as_str().to_ascii_lowercase())>{mode.label()}</span>
    }
}

/// The cluster a new environment of `mode` goes on unless the person picks another: a production
/// cluster for a production environment, another one for the rest, else the first there is.
fn suggested_cluster(clusters: &[ClusterChoice], mode: EnvironmentMode) -> Option<Uuid> {
    let production = mode == EnvironmentMode::Production;
    clusters
        .iter()
        .find(|cluster| cluster.production == production)
        .or_else(|| clusters.first())
        .map(|cluster| cluster.id)
}

#[component]
fn CreateEnvironment(
    project: Uuid,
    clusters: Vec<ClusterChoice>,
    on_created: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let mode = RwSignal::new(EnvironmentMode::Development);
    // The cluster follows the mode until the person picks one; without one, none.
    let cluster = RwSignal::new(String::new());
    let suggestions = clusters.clone();
    Effect::new(move |_| {
        let suggested = suggested_cluster(&suggestions, mode.get());
        cluster.set(suggested.map(|id| id.to_string()).unwrap_or_default());
    });
    let form = Form::new(
        move |request: EnvironmentRequest| async move {
            api.create_environment(project, &request).await
        },
        move |environment: Environment| {
            name.set(String::new());
            on_created.run(());
            format!("Environment {} created.", environment.name)
        },
    );
    let errors = form.errors;

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = EnvironmentRequest {
            name: name.get_untracked().trim().to_string(),
            mode: mode.get_untracked(),
            cluster_id: cluster.get_untracked().parse().ok(),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };

    let cluster_options: Vec<(String, String)> = clusters
        .iter()
        .map(|c| {
            (
                c.id.to_string(),
                format!("{} ({} · {})", c.name, c.cloud_provider.label(), c.region),
            )
        })
        .chain(std::iter::once((String::new(), "None".to_string())))
        .collect();
    view! {
        <form class="card form-inline" on:submit=submit novalidate aria-label="Create an environment">
            <h2>"New environment"</h2>
            <div class="form-inline__fields">
                <TextField label="Name" name="name" value=name errors required=true placeholder="staging"/>
                <EnumSelect label="Mode" name="mode" value=mode errors/>
                <SelectField label="Cluster" name="cluster_id" value=cluster options=cluster_options errors/>
            </div>
            <SubmitButton form label="Create environment"/>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn cluster(id: u128, production: bool) -> ClusterChoice {
        ClusterChoice {
            id: Uuid::from_u128(id),
            name: "c".into(),
            cloud_provider: platform_api::CloudProvider::Aws,
            region: "eu-west-3".into(),
            production,
        }
    }

    #[wasm_bindgen_test]
    fn a_new_environment_goes_on_a_cluster_of_its_kind() {
        let clusters = [cluster(1, true), cluster(2, false)];
        let id = |n| Some(Uuid::from_u128(n));
        assert_eq!(
            suggested_cluster(&clusters, EnvironmentMode::Production),
            id(1)
        );
        assert_eq!(
            suggested_cluster(&clusters, EnvironmentMode::Development),
            id(2)
        );
        assert_eq!(
            suggested_cluster(&clusters, EnvironmentMode::Staging),
            id(2)
        );
        assert_eq!(
            suggested_cluster(&clusters[..1], EnvironmentMode::Preview),
            id(1)
        );
        assert_eq!(suggested_cluster(&[], EnvironmentMode::Preview), None);
    }
}
