//! A kind's form, opened to create a service (the environment's "New service") or to change one
//! (the service's Settings). Each kind's form is fetched apart, a group of its own (`app.rs`):
//! a page shows one kind, and each kind's fields, rules and record decoder are in its own code
//! rather than all six in the settings' and the new-service dialog's.

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::{
    Applications, Containers, Databases, HelmServices, JobRequest, Jobs, ServiceKind, ServiceType,
    TerraformServices, WireEnum,
};
use uuid::Uuid;

use super::application::{new_application, ApplicationForm};
use super::container::{new_container, ContainerForm};
use super::database::{new_database, DatabaseForm, DatabaseTarget};
use super::helm::{new_helm, HelmForm};
use super::job::{new_job, JobForm, TemplateChoice};
use super::job_template::TemplateVariable;
use super::terraform::{new_terraform, TerraformForm};
use crate::api::service::{ServiceAnswer, ServiceSummary};
use crate::api::{use_api, ApiError};
use crate::components::fetched::fetched;
use crate::components::form::Form;

/// What a kind's form is opened for.
pub enum OpenedFor {
    /// A new service in this environment; the form is drawn again, empty, after each creation.
    New {
        environment: Uuid,
        on_created: Callback<()>,
    },
    /// A service's settings, from its record; the saved answer goes to `on_saved`.
    Settings {
        answer: Box<ServiceAnswer>,
        on_saved: Callback<ServiceAnswer>,
    },
}

/// Builds a kind's form for what it is opened for.
pub type KindFormOf = fn(Uuid, OpenedFor) -> AnyView;

/// Fetches a kind's code (behind the split point `app.rs` provides: no page's code names a split
/// point, the unit tests link every page without the split step), which hands back the function
/// below that builds the kind's form: the main module, which holds every split point, holds
/// nothing of what a form is built from. `None` for a kind this console does not show.
#[derive(Clone, Copy)]
pub struct LoadServiceForm(
    pub fn(ServiceType) -> BoxFuture<'static, Result<Option<KindFormOf>, SplitLoaderError>>,
);

/// A kind's form once its code is fetched.
#[component]
pub fn ServiceKindForm(org: Uuid, kind: ServiceType, opened_for: OpenedFor) -> impl IntoView {
    let LoadServiceForm(load) = expect_context();
    fetched(
        Box::pin(async move {
            Ok(match load(kind).await? {
                Some(form_of) => form_of(org, opened_for),
                // No record the console reads, and no kind it offers to create, is of another
                // kind.
                None => ().into_any(),
            })
        }),
        6,
    )
}

pub fn application_form(org: Uuid, opened_for: OpenedFor) -> AnyView {
    match opened_for {
        OpenedFor::New { environment, on_created } => view! {
            <ApplicationForm org initial=new_application() form={create_form::<Applications>(environment, on_created)}
                submit_label="Create application" purpose="Create an application"/>
        }
        .into_any(),
        OpenedFor::Settings { answer, on_saved } => {
            let application = match answer.record_of_kind::<Applications>() {
                Ok(application) => application,
                Err(error) => return unreadable(error),
            };
            view! {
                <ApplicationForm org initial=application.to_request() form={save_form::<Applications>(application.id, on_saved)}
                    submit_label="Save" purpose="Application settings"/>
            }
            .into_any()
        }
    }
}

pub fn container_form(org: Uuid, opened_for: OpenedFor) -> AnyView {
    match opened_for {
        OpenedFor::New { environment, on_created } => view! {
            <ContainerForm org initial=new_container() form={create_form::<Containers>(environment, on_created)}
                submit_label="Create container" purpose="Create a container"/>
        }
        .into_any(),
        OpenedFor::Settings { answer, on_saved } => {
            let container = match answer.record_of_kind::<Containers>() {
                Ok(container) => container,
                Err(error) => return unreadable(error),
            };
            view! {
                <ContainerForm org initial=container.to_request() form={save_form::<Containers>(container.id, on_saved)}
                    submit_label="Save" purpose="Container settings"/>
            }
            .into_any()
        }
    }
}

pub fn database_form(_org: Uuid, opened_for: OpenedFor) -> AnyView {
    match opened_for {
        OpenedFor::New { environment, on_created } => view! {
            <DatabaseForm initial=new_database() form={create_form::<Databases>(environment, on_created)}
                target=DatabaseTarget::New(environment)
                submit_label="Create database" purpose="Create a database"/>
        }
        .into_any(),
        OpenedFor::Settings { answer, on_saved } => {
            let database = match answer.record_of_kind::<Databases>() {
                Ok(database) => database,
                Err(error) => return unreadable(error),
            };
            let target = DatabaseTarget::Existing {
                database: database.id,
                environment: database.environment.id,
            };
            view! {
                <DatabaseForm initial=database.to_request() target form={save_form::<Databases>(database.id, on_saved)}
                    submit_label="Save" purpose="Database settings"/>
            }
            .into_any()
        }
    }
}

pub fn job_form(org: Uuid, opened_for: OpenedFor) -> AnyView {
    match opened_for {
        OpenedFor::New {
            environment,
            on_created,
        } => {
            // A job started from a template is made with the template's variables.
            let variables = RwSignal::new(Vec::new());
            let api = use_api();
            let form = Form::new(
                move |request: JobRequest| {
                    let given = variables.get_untracked();
                    async move {
                        let created = api.create_service::<Jobs>(environment, &request).await?;
                        let unmade = TemplateVariable::make_all(api, created.id, given).await;
                        Ok((created, unmade))
                    }
                },
                move |(created, unmade): (ServiceSummary, Option<String>)| {
                    on_created.run(());
                    let said = format!("Job {} created.", created.name);
                    match unmade {
                        Some(unmade) => format!("{said} {unmade}"),
                        None => said,
                    }
                },
            );
            view! {
                <JobForm org initial=new_job() form template=TemplateChoice { environment, variables }
                    submit_label="Create job" purpose="Create a job"/>
            }
            .into_any()
        }
        OpenedFor::Settings { answer, on_saved } => {
            let job = match answer.record_of_kind::<Jobs>() {
                Ok(job) => job,
                Err(error) => return unreadable(error),
            };
            view! {
                <JobForm org initial=job.to_request() form={save_form::<Jobs>(job.id, on_saved)}
                    submit_label="Save" purpose="Job settings"/>
            }
            .into_any()
        }
    }
}

pub fn helm_form(org: Uuid, opened_for: OpenedFor) -> AnyView {
    match opened_for {
        OpenedFor::New { environment, on_created } => view! {
            <HelmForm org environment initial=new_helm() form={create_form::<HelmServices>(environment, on_created)}
                submit_label="Create helm service" purpose="Create a helm service"/>
        }
        .into_any(),
        OpenedFor::Settings { answer, on_saved } => {
            let helm = match answer.record_of_kind::<HelmServices>() {
                Ok(helm) => helm,
                Err(error) => return unreadable(error),
            };
            view! {
                <HelmForm org environment=helm.environment.id initial=helm.to_request()
                    form={save_form::<HelmServices>(helm.id, on_saved)}
                    submit_label="Save" purpose="Helm settings"/>
            }
            .into_any()
        }
    }
}

pub fn terraform_form(org: Uuid, opened_for: OpenedFor) -> AnyView {
    match opened_for {
        OpenedFor::New { environment, on_created } => view! {
            <TerraformForm org initial=new_terraform() form={create_form::<TerraformServices>(environment, on_created)}
                submit_label="Create terraform service" purpose="Create a terraform service"/>
        }
        .into_any(),
        OpenedFor::Settings { answer, on_saved } => {
            let terraform = match answer.record_of_kind::<TerraformServices>() {
                Ok(terraform) => terraform,
                Err(error) => return unreadable(error),
            };
            view! {
                <TerraformForm org initial=terraform.to_request() form={save_form::<TerraformServices>(terraform.id, on_saved)}
                    submit_label="Save" purpose="Terraform settings"/>
            }
            .into_any()
        }
    }
}

/// A service's record this console cannot read, said in place of its form.
fn unreadable(error: ApiError) -> AnyView {
    view! { <p class="notice notice--error" role="alert">{error.to_string()}</p> }.into_any()
}

/// The creation of a service of kind `K`, with the toast it brings.
fn create_form<K: ServiceKind<Request: Clone>>(
    environment: Uuid,
    on_created: Callback<()>,
) -> Form<K::Request> {
    let api = use_api();
    Form::new(
        move |request: K::Request| async move { api.create_service::<K>(environment, &request).await },
        move |created: ServiceSummary| {
            on_created.run(());
            format!("{} {} created.", K::TYPE.label(), created.name)
        },
    )
}

/// The save of a service's update, with the toast it brings; the page shows the answer.
fn save_form<K: ServiceKind<Request: Clone>>(
    id: Uuid,
    on_saved: Callback<ServiceAnswer>,
) -> Form<K::Request> {
    let api = use_api();
    Form::new(
        move |request: K::Request| async move { api.update_service::<K>(id, &request).await },
        move |saved| {
            on_saved.run(saved);
            "Settings saved: deploy the service to apply them.".to_string()
        },
    )
}
