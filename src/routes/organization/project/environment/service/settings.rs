//! `.../service/:service/settings`: change a service's settings, in the form of its kind (the
//! one that creates it, for jobs, helm charts and terraform services), what the form does not
//! show kept as it is; the notice that a deployment applies them; and deleting the service.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use platform_api::{Application, Container, Database, ServiceType, WireEnum};

use super::{
    no_service, use_addressed_service, AddressedService, OutOfDate, OutOfDateNotice, ServiceTabs,
    ServiceTitle,
};
use crate::api::service::ServiceRecord;
use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, Numbers};
use crate::components::form_field::{optional_text, EnumSelect, TextField};
use crate::components::loaded::loaded;
use crate::routes::organization::project::environment::resources::{ResourceFields, Resources};
use crate::routes::organization::project::environment::service_form::{
    helm::HelmForm, job::JobForm, terraform::TerraformForm,
};
use crate::routes::{param_id, paths};

#[component]
pub fn ServiceSettings() -> impl IntoView {
    let addressed = use_addressed_service();
    let org = param_id("org");
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
                ServiceRecord::Job(job) => view! {
                    <JobForm org=org.get_untracked().unwrap_or_default() initial=job.to_request()
                        form=save_form(ServiceType::Job, job.id, saved)
                        submit_label="Save" purpose="Job settings"/>
                }.into_any(),
                ServiceRecord::Helm(helm) => view! {
                    <HelmForm org=org.get_untracked().unwrap_or_default() initial=helm.to_request()
                        form=save_form(ServiceType::Helm, helm.id, saved)
                        submit_label="Save" purpose="Helm settings"/>
                }.into_any(),
                ServiceRecord::Terraform(terraform) => view! {
                    <TerraformForm org=org.get_untracked().unwrap_or_default() initial=terraform.to_request()
                        form=save_form(ServiceType::Terraform, terraform.id, saved)
                        submit_label="Save" purpose="Terraform settings"/>
                }.into_any(),
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
        request.description = optional_text(description);
        request.git_repository.url = url.get_untracked().trim().to_string();
        request.git_repository.branch = optional_text(branch);
        request.git_repository.root_path = optional_text(root_path);
        request.dockerfile_path = optional_text(dockerfile);
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
        request.description = optional_text(description);
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
    let accessibility = RwSignal::new(database.accessibility);
    let cpu = RwSignal::new(database.cpu.to_string());
    let memory = RwSignal::new(database.memory.to_string());
    let storage = RwSignal::new(database.storage.to_string());
    let what = format!(
        "{} · {}",
        database.database_type.label(),
        database.mode.label()
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let mut request = database.to_request();
        request.name = name.get_untracked().trim().to_string();
        request.description = optional_text(description);
        request.version = version.get_untracked().trim().to_string();
        request.accessibility = accessibility.get_untracked();
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
                <EnumSelect label="Reachable from" name="accessibility" value=accessibility errors/>
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
