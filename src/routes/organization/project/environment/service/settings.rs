//! `.../service/:service/settings`: change a service's settings (applications, containers and
//! databases: name, description, source, resources), the rest of its configuration kept as it
//! is; the notice that a deployment applies them; and deleting the service.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{Application, Container, Database, DatabaseAccessibility, ServiceType};

use super::{
    no_service, use_addressed_service, AddressedService, OutOfDate, OutOfDateNotice, ServiceTabs,
    ServiceTitle,
};
use crate::api::service::ServiceRecord;
use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, Numbers};
use crate::components::form_field::{SelectField, TextField};
use crate::components::loaded::loaded;
use crate::routes::organization::project::environment::resources::{
    database_reach_options, ResourceFields, Resources,
};
use crate::routes::{param_id, paths};

#[component]
pub fn ServiceSettings() -> impl IntoView {
    let addressed = use_addressed_service();
    let out_of_date = OutOfDate::of(addressed);
    let saved = Callback::new(move |()| {
        addressed.record.refetch();
        out_of_date.refresh();
    });
    view! {
        <div class="page__header">
            <ServiceTitle service=addressed/>
        </div>
        <ServiceTabs service=addressed/>
        <OutOfDateNotice out_of_date/>
        <section class="card" aria-labelledby="settings-title">
            <h2 id="settings-title">"Settings"</h2>
            <p class="muted">"Saved settings take effect at the service's next deployment."</p>
            {loaded(addressed.record, 6, move |record| match record {
                ServiceRecord::Application(application) => view! { <EditApplication application on_saved=saved/> }.into_any(),
                ServiceRecord::Container(container) => view! { <EditContainer container on_saved=saved/> }.into_any(),
                ServiceRecord::Database(database) => view! { <EditDatabase database on_saved=saved/> }.into_any(),
                other => {
                    let kind = match other {
                        ServiceRecord::Job(_) => ServiceType::Job,
                        ServiceRecord::Helm(_) => ServiceType::Helm,
                        _ => ServiceType::Terraform,
                    };
                    view! {
                        <p>
                            "The console shows this kind's settings on the overview; change them through the API ("
                            <code>{format!("PUT /{}/{{id}}", kind.path_segment())}</code> ")."
                        </p>
                    }.into_any()
                }
            })}
        </section>
        <DeleteService service=addressed/>
    }
}

/// The save of a service's update, with the toast and the refresh it brings.
fn save_form<R: serde::Serialize + Clone + 'static>(
    kind: ServiceType,
    id: uuid::Uuid,
    on_saved: Callback<()>,
) -> Form<R> {
    let api = use_api();
    Form::new(
        move |request: R| async move { api.update_service(kind, id, &request).await },
        move |()| {
            on_saved.run(());
            "Settings saved: deploy the service to apply them.".to_string()
        },
    )
}

/// An optional text as typed: `None` when left empty.
fn typed(field: RwSignal<String>) -> Option<String> {
    let text = field.get_untracked().trim().to_string();
    (!text.is_empty()).then_some(text)
}

#[component]
fn EditApplication(application: Application, on_saved: Callback<()>) -> impl IntoView {
    let form = save_form(ServiceType::Application, application.id, on_saved);
    let errors = form.errors;
    let name = RwSignal::new(application.name.clone());
    let description = RwSignal::new(application.description.clone().unwrap_or_default());
    let url = RwSignal::new(application.git_repository.url.clone());
    let branch = RwSignal::new(
        application
            .git_repository
            .branch
            .clone()
            .unwrap_or_default(),
    );
    let root_path = RwSignal::new(
        application
            .git_repository
            .root_path
            .clone()
            .unwrap_or_default(),
    );
    let dockerfile = RwSignal::new(application.dockerfile_path.clone().unwrap_or_default());
    let resources = Resources::of(
        application.cpu,
        application.memory,
        application.min_running_instances,
        application.max_running_instances,
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let typed_resources = resources.read(&mut numbers);
        let mut request = application.to_request();
        request.name = name.get_untracked().trim().to_string();
        request.description = typed(description);
        request.git_repository.url = url.get_untracked().trim().to_string();
        request.git_repository.branch = typed(branch);
        request.git_repository.root_path = typed(root_path);
        request.dockerfile_path = typed(dockerfile);
        request.cpu = typed_resources.cpu;
        request.memory = typed_resources.memory;
        request.min_running_instances = typed_resources.min_running_instances;
        request.max_running_instances = typed_resources.max_running_instances;
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Application settings">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true/>
                <TextField label="Description" name="description" value=description errors/>
                <TextField label="Git repository URL" name="git_repository.url" value=url errors required=true/>
                <TextField label="Branch" name="git_repository.branch" value=branch errors/>
                <TextField label="Root path" name="git_repository.root_path" value=root_path errors
                    hint="Where the application is in the repository."/>
                <TextField label="Dockerfile" name="dockerfile_path" value=dockerfile errors/>
                <ResourceFields resources errors/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>"Save"</button>
        </form>
    }
}

#[component]
fn EditContainer(container: Container, on_saved: Callback<()>) -> impl IntoView {
    let form = save_form(ServiceType::Container, container.id, on_saved);
    let errors = form.errors;
    let name = RwSignal::new(container.name.clone());
    let description = RwSignal::new(container.description.clone().unwrap_or_default());
    let image = RwSignal::new(container.image_name.clone());
    let tag = RwSignal::new(container.tag.clone());
    let resources = Resources::of(
        container.cpu,
        container.memory,
        container.min_running_instances,
        container.max_running_instances,
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let typed_resources = resources.read(&mut numbers);
        let mut request = container.to_request();
        request.name = name.get_untracked().trim().to_string();
        request.description = typed(description);
        request.image_name = image.get_untracked().trim().to_string();
        request.tag = tag.get_untracked().trim().to_string();
        request.cpu = typed_resources.cpu;
        request.memory = typed_resources.memory;
        request.min_running_instances = typed_resources.min_running_instances;
        request.max_running_instances = typed_resources.max_running_instances;
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Container settings">
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true/>
                <TextField label="Description" name="description" value=description errors/>
                <TextField label="Image" name="image_name" value=image errors required=true/>
                <TextField label="Tag" name="tag" value=tag errors required=true
                    hint="A new tag is pulled at the next deployment."/>
                <ResourceFields resources errors/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>"Save"</button>
        </form>
    }
}

#[component]
fn EditDatabase(database: Database, on_saved: Callback<()>) -> impl IntoView {
    let form = save_form(ServiceType::Database, database.id, on_saved);
    let errors = form.errors;
    let name = RwSignal::new(database.name.clone());
    let description = RwSignal::new(database.description.clone().unwrap_or_default());
    let version = RwSignal::new(database.version.clone());
    let accessibility = RwSignal::new(database.accessibility.as_str().to_string());
    let cpu = RwSignal::new(database.cpu.to_string());
    let memory = RwSignal::new(database.memory.to_string());
    let storage = RwSignal::new(database.storage.to_string());
    let what = format!(
        "{} · {}",
        database.database_type.as_str(),
        database.mode.as_str()
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let mut request = database.to_request();
        request.name = name.get_untracked().trim().to_string();
        request.description = typed(description);
        request.version = version.get_untracked().trim().to_string();
        request.accessibility = accessibility
            .get_untracked()
            .parse()
            .unwrap_or(DatabaseAccessibility::Private);
        request.cpu = numbers.read("cpu", &cpu.get_untracked());
        request.memory = numbers.read("memory", &memory.get_untracked());
        request.storage = numbers.read("storage", &storage.get_untracked());
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Database settings">
            <p class="muted">{what} " (the type and mode are chosen once, at creation)"</p>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true/>
                <TextField label="Description" name="description" value=description errors/>
                <TextField label="Version" name="version" value=version errors required=true/>
                <SelectField label="Reachable from" name="accessibility" value=accessibility errors
                    options=database_reach_options()/>
                <TextField label="CPU (milli-CPU)" name="cpu" value=cpu errors input_type="number"/>
                <TextField label="Memory (MiB)" name="memory" value=memory errors input_type="number"/>
                <TextField label="Storage (GiB)" name="storage" value=storage errors input_type="number"/>
            </div>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>"Save"</button>
        </form>
    }
}

/// Deleting the service, configuration, variables and history with it; then back to its
/// environment.
#[component]
fn DeleteService(service: AddressedService) -> impl IntoView {
    let api = use_api();
    let navigate = use_navigate();
    let (org, project, environment) = (param_id("org"), param_id("project"), param_id("env"));
    let gone = Callback::new(move |()| {
        if let (Some(org), Some(project), Some(environment)) = (
            org.get_untracked(),
            project.get_untracked(),
            environment.get_untracked(),
        ) {
            navigate(
                &paths::environment(org, project, environment),
                NavigateOptions::default(),
            );
        }
    });
    view! {
        <section class="card danger-zone" aria-labelledby="delete-title">
            <h2 id="delete-title">"Delete this service"</h2>
            <p class="muted">"Its configuration, variables and deployment history go with it. Not while an action runs."</p>
            <DeleteButton question="Delete this service?"
                consequence="It stops, and its configuration, variables and history are deleted. This cannot be undone."
                done="Service deleted."
                delete=move || async move {
                    let kind = service.kind.await?;
                    let id = service.id.get_untracked().ok_or_else(no_service)?;
                    api.delete_service(kind, id).await
                }
                on_deleted=gone/>
        </section>
    }
}
