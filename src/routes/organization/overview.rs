//! `/organization/:org/overview`: the organization's projects with what each holds (one request
//! for all), and a form to create one.

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{Project, ProjectRequest, ProjectStats};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::TextField;
use crate::components::format::counted;
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::components::unwell::{Scope, Unwell};
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;

#[component]
pub fn OrganizationOverview() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let projects = organization_records(|api, org| async move { api.projects(org).await });
    // What each project holds, for all of them in one request; the table waits for none.
    let stats = organization_records(|api, org| async move { api.project_stats(org).await });

    view! {
        <div class="page__header page__header--actions">
            <div>
                <h1>"Projects"</h1>
                <p class="page__lead">"Each project groups the environments of one product."</p>
            </div>
            <nav class="actions" aria-label="Organization settings">
                {move || org.get().map(|org| view! {
                    <A href=paths::fleet(org) attr:class="button button--secondary">"Fleet"</A>
                    <A href=paths::clusters(org) attr:class="button button--secondary">"Clusters"</A>
                    <A href=paths::timeline(org) attr:class="button button--secondary">"Timeline"</A>
                    <A href=paths::alerts(org) attr:class="button button--secondary">"Alerts"</A>
                    <A href=paths::audit_log(org, &Default::default()) attr:class="button button--secondary">"Audit log"</A>
                    <A href=paths::container_registries(org) attr:class="button button--secondary">"Settings"</A>
                })}
            </nav>
        </div>
        {move || org.get().map(|org| view! { <Unwell org scope=Scope::Organization/> })}
        <section class="card" aria-labelledby="projects-title">
            <h2 id="projects-title">"All projects"</h2>
            {loaded(projects, 4, move |(org, projects)| view! { <ProjectTable org projects stats/> })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New project"><CreateProject org on_created=Callback::new(move |_| projects.refetch())/></NewDialog>
        })}
    }
}

#[component]
fn ProjectTable(
    org: Uuid,
    projects: Vec<Project>,
    stats: LocalResource<Result<(Uuid, Vec<ProjectStats>), ApiError>>,
) -> impl IntoView {
    if projects.is_empty() {
        return view! {
            <EmptyState title="No project yet" hint="Create your first project with the button below."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Holds"</th>
                <th scope="col">"Description"</th>
                <th scope="col">"Created"</th>
            </tr></thead>
            <tbody>
                {projects.into_iter().map(|project| {
                    let id = project.id;
                    // An API without the counts leaves the cell empty.
                    let holds = move || {
                        let (_, all) = stats.get()?.ok()?;
                        let stats = all.into_iter().find(|stats| stats.id == id)?;
                        let count = |number: i64| usize::try_from(number).unwrap_or(0);
                        Some(format!(
                            "{} · {}",
                            counted(count(stats.environment_total_number), "environment"),
                            counted(count(stats.service_total_number), "service"),
                        ))
                    };
                    let row = project.name.clone();
                    view! {
                    <tr data-project=row>
                        <td><A href=paths::project(org, project.id)>{project.name}</A></td>
                        <td class="muted">{holds}</td>
                        <td class="muted">{project.description.unwrap_or_default()}</td>
                        <td><RelativeTime at=project.created_at/></td>
                    </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn CreateProject(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let form = Form::new(
        move |request: ProjectRequest| async move { api.create_project(org, &request).await },
        move |project: Project| {
            name.set(String::new());
            description.set(String::new());
            on_created.run(());
            format!("Project {} created.", project.name)
        },
    );
    let errors = form.errors;

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let description = description.get_untracked();
        let request = ProjectRequest {
            name: name.get_untracked().trim().to_string(),
            description: (!description.trim().is_empty()).then_some(description),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };

    view! {
        <form class="card form-inline" on:submit=submit novalidate aria-label="Create a project">
            <h2>"New project"</h2>
            <div class="form-inline__fields">
                <TextField label="Name" name="name" value=name errors required=true placeholder="storefront"/>
                <TextField label="Description" name="description" value=description errors
                    placeholder="What this project runs"/>
            </div>
            <SubmitButton form label="Create project"/>
        </form>
    }
}
