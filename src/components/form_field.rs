use leptos::prelude::*;
use platform_api::FieldError;

/// The message for `field` among the errors of a form (from `platform-api` rules before sending,
/// or the server's `fields` after).
pub fn error_for(errors: RwSignal<Vec<FieldError>>, field: &'static str) -> Signal<Option<String>> {
    Signal::derive(move || {
        errors.with(|errors| {
            errors
                .iter()
                .find(|error| error.field == field)
                .map(|error| error.message.clone())
        })
    })
}

/// A labelled input with its rule's message under it.
#[component]
pub fn TextField(
    label: &'static str,
    /// The request field it fills, e.g. `git_repository.url`: also the input's id.
    name: &'static str,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(default = "text")] input_type: &'static str,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional)] hint: &'static str,
    #[prop(optional)] required: bool,
    /// Tells the fields of this form from those of another form of the page with the same names
    /// (an editor in a table row, say): it starts the input's id.
    #[prop(optional, into)]
    form_id: Option<String>,
) -> impl IntoView {
    let error = error_for(errors, name);
    let field = format!("field-{}", name.replace(['.', '[', ']'], "-"));
    let id = match form_id {
        Some(form) => format!("{form}-{field}"),
        None => field,
    };
    let error_id = format!("{id}-error");
    view! {
        <div class="field" class:field--invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}{required.then_some(" *")}</label>
            <input
                id=id
                name=name
                type=input_type
                placeholder=placeholder
                bind:value=value
                aria-invalid=move || error.get().is_some().to_string()
                aria-describedby=error_id.clone()
            />
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
            <p class="field__error" id=error_id>{move || error.get()}</p>
        </div>
    }
}

/// A labelled select of options: `(value, label)`.
#[component]
pub fn SelectField<V>(
    label: &'static str,
    name: &'static str,
    value: RwSignal<String>,
    options: Vec<(V, String)>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] required: bool,
) -> impl IntoView
where
    V: ToString + 'static,
{
    let error = error_for(errors, name);
    let id = format!("field-{name}");
    view! {
        <div class="field" class:field--invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}{required.then_some(" *")}</label>
            <select id=id name=name bind:value=value>
                {options.into_iter().map(|(option, text)| view! {
                    <option value=option.to_string()>{text}</option>
                }).collect_view()}
            </select>
            <p class="field__error">{move || error.get()}</p>
        </div>
    }
}
