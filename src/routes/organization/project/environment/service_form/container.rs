//! A container's form: the image of one of the organization's registries and its tag, then what
//! it shares with applications (command, resources, ports, volumes, probes, deployments).

use leptos::prelude::*;
use platform_api::{ContainerImageCheckRequest, ContainerRequest, RuntimeRequest};
use uuid::Uuid;

use super::runtime::{RuntimeFields, RuntimeFieldsView};
use super::{chosen_id, RegistryField};
use crate::api::use_api;
use crate::components::check_note::CheckNote;
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{optional_text, TextField};
use crate::routes::address::EnvironmentAddress;
use crate::routes::current_id;
use crate::state::check::checked;
use crate::state::resource::resource;

/// A new container's request: the `latest` tag of an image chosen in the form.
pub fn new_container() -> ContainerRequest {
    ContainerRequest {
        name: String::new(),
        description: None,
        registry_id: Uuid::nil(),
        image_name: String::new(),
        tag: "latest".into(),
        runtime: RuntimeRequest::default(),
    }
}

#[component]
pub fn ContainerForm(
    org: Uuid,
    initial: ContainerRequest,
    form: Form<ContainerRequest>,
    submit_label: &'static str,
    purpose: &'static str,
) -> impl IntoView {
    let errors = form.errors;
    let name = RwSignal::new(initial.name.clone());
    let description = RwSignal::new(initial.description.clone().unwrap_or_default());
    let registry = RwSignal::new(
        Some(initial.registry_id)
            .filter(|id| !id.is_nil())
            .map(|id| id.to_string())
            .unwrap_or_default(),
    );
    let image = RwSignal::new(initial.image_name.clone());
    let tag = RwSignal::new(initial.tag.clone());
    let runtime = RuntimeFields::of(&initial.runtime);
    // The registry's images and their tags, offered as the person types; none where the API
    // does not list them.
    let api = use_api();
    let images = resource(move || {
        let registry: Option<Uuid> = registry.get().parse().ok();
        async move {
            match registry {
                Some(registry) => api.registry_images(org, registry).await.unwrap_or_default(),
                None => Vec::new(),
            }
        }
    });
    let image_names = Signal::derive(move || -> Vec<String> {
        images
            .get()
            .map(|images| images.into_iter().map(|image| image.image_name).collect())
            .unwrap_or_default()
    });
    let tags = Signal::derive(move || -> Vec<String> {
        let wanted = image.get();
        images
            .get()
            .and_then(|images| images.into_iter().find(|i| i.image_name == wanted.trim()))
            .map(|image| image.versions)
            .unwrap_or_default()
    });
    // Whether the registry holds the image at its tag, asked as the person types.
    let environment = current_id(|a: &EnvironmentAddress| a.env);
    let image_found = checked(
        move || {
            let registry: Uuid = registry.get().parse().ok()?;
            let (image, tag) = (image.get().trim().to_string(), tag.get().trim().to_string());
            let request = ContainerImageCheckRequest::new(registry, image, tag);
            request.validate().ok()?;
            Some((environment.get()?, request))
        },
        move |(environment, request): (Uuid, ContainerImageCheckRequest)| async move {
            api.check_container_image(environment, &request).await
        },
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let registry_id = match chosen_id("registry_id", registry, "a registry") {
            Ok(id) => id,
            Err(problem) => return errors.set(vec![problem]),
        };
        let mut numbers = Numbers::default();
        let request = ContainerRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            registry_id,
            image_name: image.get_untracked().trim().to_string(),
            tag: tag.get_untracked().trim().to_string(),
            runtime: runtime.read(&mut numbers),
        };
        let checked = numbers.and_rules(request.validate());
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label=purpose>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="api"/>
                <TextField label="Description" name="description" value=description errors/>
            </div>
            <fieldset class="form-section">
                <legend>"Image"</legend>
                <div class="form-grid">
                    <RegistryField org name="registry_id" value=registry errors/>
                    <TextField label="Image" name="image_name" value=image errors required=true
                        placeholder="acme/api" suggestions=image_names/>
                    <TextField label="Tag" name="tag" value=tag errors required=true
                        hint="A new tag is pulled at the next deployment." suggestions=tags/>
                </div>
                <CheckNote checked=image_found/>
            </fieldset>
            <RuntimeFieldsView org fields=runtime errors/>
            <SubmitButton form label=submit_label/>
        </form>
    }
}
