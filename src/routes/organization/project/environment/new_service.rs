//! The forms that create a service in an environment, one per kind, behind a choice of kind: an
//! application built from git, a container run from a registry's image, a job, a helm chart, a
//! terraform service or a database. They open in a dialog, and their code is fetched when the
//! dialog first opens, with the service pages' (`app.rs`): it is most of the environment page's
//! code, and the page's services and statuses need none of it.

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::{
    Applications, Containers, Databases, HelmServices, JobRequest, Jobs, ServiceKind, ServiceType,
    TerraformServices, WireEnum,
};
use uuid::Uuid;

use crate::api::service::ServiceSummary;
use crate::api::use_api;
use crate::components::form::Form;
use crate::components::new_dialog::{EnclosingDialog, NewDialog};
use crate::components::page_not_loaded::PageNotLoaded;
use crate::components::skeleton::Skeleton;

use super::service_form::application::{new_application, ApplicationForm};
use super::service_form::container::{new_container, ContainerForm};
use super::service_form::database::{new_database, DatabaseForm, DatabaseTarget};
use super::service_form::helm::{new_helm, HelmForm};
use super::service_form::job::{new_job, JobForm, TemplateChoice};
use super::service_form::job_template::TemplateVariable;
use super::service_form::terraform::{new_terraform, TerraformForm};

#[component]
pub fn NewService(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    view! {
        <NewDialog label="New service"><ServiceForms org environment on_created/></NewDialog>
    }
}

/// The choice of kind and the kind's form, once the dialog has been opened.
#[component]
fn ServiceForms(org: Uuid, environment: Uuid, on_created: Callback<()>) -> impl IntoView {
    let dialog: EnclosingDialog = expect_context();
    let NewServiceForm(load) = expect_context();
    let kind = RwSignal::new(ServiceType::Application);
    // A creation draws the form again, empty, for the next service.
    let created = RwSignal::new(0_u32);
    let on_created = Callback::new(move |()| {
        created.update(|count| *count += 1);
        on_created.run(());
    });
    let choice = move |value: ServiceType, label: &'static str| {
        view! {
            <label class="checkbox">
                <input type="radio" name="service-kind" value=value.path_segment()
                    checked=move || kind.get() == value on:change=move |_| kind.set(value)/>
                {label}
            </label>
        }
    };
    view! {
        <section class="new-service" aria-labelledby="new-service-title">
            <h2 id="new-service-title">"New service"</h2>
            <fieldset class="choices">
                <legend>"Kind"</legend>
                {choice(ServiceType::Application, "Application (built from git)")}
                {choice(ServiceType::Container, "Container (from an image)")}
                {choice(ServiceType::Job, "Job (runs to its end)")}
                {choice(ServiceType::Helm, "Helm chart")}
                {choice(ServiceType::Terraform, "Terraform")}
                {choice(ServiceType::Database, "Database")}
            </fieldset>
            {move || dialog.was_opened().then(|| {
                created.track();
                let kind = kind.get();
                let form = Suspend::new(async move {
                    match load(org, environment, kind, on_created).await {
                        Ok(form) => form,
                        Err(_) => view! { <PageNotLoaded what="This form"/> }.into_any(),
                    }
                });
                view! { <Suspense fallback=|| view! { <Skeleton lines=6/> }>{form}</Suspense> }
            })}
        </section>
    }
}

/// Fetches the forms' module and builds a kind's form from it: `form_of_kind`, behind the split
/// point `app.rs` provides (where the console's code is split, so that no page's code names a
/// split point: the unit tests link every page without the split step).
#[derive(Clone, Copy)]
pub struct NewServiceForm(pub LoadForm);

pub type LoadForm = fn(
    Uuid,
    Uuid,
    ServiceType,
    Callback<()>,
) -> BoxFuture<'static, Result<AnyView, SplitLoaderError>>;

/// A kind's form, as the split point builds it.
pub fn form_of_kind(
    org: Uuid,
    environment: Uuid,
    kind: ServiceType,
    on_created: Callback<()>,
) -> AnyView {
    view! { <CreateWithForm org environment kind on_created/> }.into_any()
}

/// A service of any kind, in the form that also changes it.
#[component]
fn CreateWithForm(
    org: Uuid,
    environment: Uuid,
    kind: ServiceType,
    on_created: Callback<()>,
) -> impl IntoView {
    fn form<K: ServiceKind<Request: Clone>>(
        environment: Uuid,
        on_created: Callback<()>,
    ) -> Form<K::Request> {
        let api = use_api();
        Form::new(
            move |request: K::Request| async move {
                api.create_service::<K>(environment, &request).await
            },
            move |created: ServiceSummary| {
                on_created.run(());
                format!("{} {} created.", K::TYPE.label(), created.name)
            },
        )
    }
    match kind {
        ServiceType::Application => view! {
            <ApplicationForm org initial=new_application() form={form::<Applications>(environment, on_created)}
                submit_label="Create application" purpose="Create an application"/>
        }
        .into_any(),
        ServiceType::Container => view! {
            <ContainerForm org initial=new_container() form={form::<Containers>(environment, on_created)}
                submit_label="Create container" purpose="Create a container"/>
        }
        .into_any(),
        ServiceType::Helm => view! {
            <HelmForm org environment initial=new_helm() form={form::<HelmServices>(environment, on_created)}
                submit_label="Create helm service" purpose="Create a helm service"/>
        }
        .into_any(),
        ServiceType::Terraform => view! {
            <TerraformForm org initial=new_terraform() form={form::<TerraformServices>(environment, on_created)}
                submit_label="Create terraform service" purpose="Create a terraform service"/>
        }
        .into_any(),
        ServiceType::Database => view! {
            <DatabaseForm initial=new_database() form={form::<Databases>(environment, on_created)}
                target=DatabaseTarget::New(environment)
                submit_label="Create database" purpose="Create a database"/>
        }
        .into_any(),
        ServiceType::Job => {
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
        // The kinds offered are the ones this console knows.
        ServiceType::Other(_) => ().into_any(),
    }
}
