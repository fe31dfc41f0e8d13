//! A new lifecycle job started from one of its environment's templates
//! (`GET /environment/{id}/lifecycleTemplate`, then the one chosen): the template fills the
//! job's form (its Dockerfile, what it runs at each event, its resources and longest run) and
//! lists the variables it reads, each made on the job with the value given once it is created.

use leptos::prelude::*;
use leptos::task::spawn_local;
use platform_api::{
    FieldError, LifecycleTemplate, LifecycleTemplateVariable, VariableCreation, VariableRequest,
    VariableScope,
};
use uuid::Uuid;

use crate::api::{use_api, Api};
use crate::components::form_field::{LinesField, SelectField, TextField};
use crate::state::resource::resource;

/// A template's variable, with the value given to it.
#[derive(Clone)]
pub struct TemplateVariable {
    pub variable: LifecycleTemplateVariable,
    pub value: RwSignal<String>,
}

impl TemplateVariable {
    /// The variable as made on `job`: a file's content at its path, a secret sealed.
    fn creation(&self, job: Uuid) -> VariableCreation {
        let file = self.variable.file.as_ref();
        VariableCreation {
            variable: VariableRequest {
                key: self.variable.name.clone(),
                value: Some(self.value.get_untracked()),
                mount_path: file.map(|file| file.path.clone()),
                description: Some(self.variable.description.clone()),
                enable_interpolation_in_file: file.is_some_and(|file| file.enable_interpolation),
            },
            is_secret: self.variable.is_secret,
            variable_scope: VariableScope::Job,
            variable_parent_id: job,
        }
    }

    /// Each value's rules, named by its place (`variables[2].value`).
    pub fn check(variables: &[TemplateVariable]) -> Vec<FieldError> {
        variables
            .iter()
            .enumerate()
            .filter_map(|(at, given)| {
                platform_api::rules::value(
                    &format!("variables[{at}].value"),
                    Some(&given.value.get_untracked()),
                )
            })
            .collect()
    }

    /// Makes each variable on the new `job`, one request each; says which could not be made,
    /// and why, so that the person makes them on the job's Variables tab.
    pub async fn make_all(api: Api, job: Uuid, variables: Vec<TemplateVariable>) -> Option<String> {
        let mut failed = Vec::new();
        for given in variables {
            if let Err(error) = api.create_variable(&given.creation(job)).await {
                failed.push(format!("{} ({error})", given.variable.name));
            }
        }
        (!failed.is_empty()).then(|| {
            format!(
                "Its variables {} were not made: add them on its Variables tab.",
                failed.join(", ")
            )
        })
    }
}

/// The choice of a template of the environment's cloud, and the variables of the one chosen.
/// Shows nothing where the cloud has no template.
#[component]
pub fn TemplatePicker(
    environment: Uuid,
    variables: RwSignal<Vec<TemplateVariable>>,
    on_chosen: Callback<LifecycleTemplate>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView {
    let api = use_api();
    let listed = resource(move || async move { api.lifecycle_templates(environment).await });
    let chosen = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    // A job no longer run at lifecycle events (the picker hidden) is made without them.
    on_cleanup(move || variables.set(Vec::new()));
    Effect::new(move |_| {
        let asked = chosen.get();
        let Ok(template) = asked.parse::<Uuid>() else {
            variables.set(Vec::new());
            return;
        };
        spawn_local(async move {
            match api.lifecycle_template(environment, template).await {
                // Only the template still chosen when its answer comes fills the form.
                Ok(_) if chosen.try_get_untracked() != Some(asked) => {}
                Ok(template) => {
                    problem.set(None);
                    variables.set(
                        template
                            .variables
                            .iter()
                            .map(|variable| TemplateVariable {
                                variable: variable.clone(),
                                value: RwSignal::new(variable.default.clone()),
                            })
                            .collect(),
                    );
                    on_chosen.run(template);
                }
                Err(error) => problem.set(Some(error.to_string())),
            }
        });
    });
    let picker = move || {
        let templates = listed.get()?.ok().filter(|list| !list.is_empty())?;
        let options: Vec<(String, String)> = std::iter::once((String::new(), "None".to_string()))
            .chain(
                templates
                    .iter()
                    .map(|template| (template.id.to_string(), template.name.clone())),
            )
            .collect();
        let description = move || {
            let id = chosen.get();
            templates
                .iter()
                .find(|template| template.id.to_string() == id)
                .map(|template| template.description.clone())
        };
        Some(view! {
            <div class="form-grid">
                <SelectField label="Start from a template" name="template" value=chosen options errors/>
                <p class="field__hint job-template__description" aria-live="polite">{description}</p>
            </div>
        })
    };
    view! {
        {picker}
        {move || problem.get().map(|problem| view! { <p class="notice notice--error">{problem}</p> })}
        <Show when=move || !variables.with(Vec::is_empty)>
            <fieldset class="job-template__variables">
                <legend>"Variables the template reads"</legend>
                <div class="form-grid">
                    {move || variables.get().into_iter().enumerate().map(|(at, given)| {
                        let name = format!("variables[{at}].value");
                        let variable = given.variable;
                        let described = variable.description.trim_end_matches('.');
                        let hint = match (&variable.file, variable.is_secret) {
                            (Some(file), _) => format!("{described}. Written to the file {}.", file.path),
                            (None, true) => format!("{described}. A secret: never shown again."),
                            (None, false) => format!("{described}."),
                        };
                        if variable.file.is_some() {
                            view! { <LinesField label=variable.name name value=given.value errors hint/> }.into_any()
                        } else {
                            let input_type = if variable.is_secret { "password" } else { "text" };
                            view! { <TextField label=variable.name name value=given.value errors input_type hint/> }.into_any()
                        }
                    }).collect_view()}
                </div>
            </fieldset>
        </Show>
    }
}
