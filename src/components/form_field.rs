use leptos::prelude::*;
use platform_api::{FieldError, WireEnum};

/// The message for `field` among the errors of a form (from `platform-api` rules before sending,
/// or the server's `fields` after).
pub fn error_for(
    errors: RwSignal<Vec<FieldError>>,
    field: impl Into<String>,
) -> Signal<Option<String>> {
    let field = field.into();
    Signal::derive(move || {
        errors.with(|errors| {
            errors
                .iter()
                .find(|error| error.field == field)
                .map(|error| error.message.clone())
        })
    })
}

/// Set by a form when the page may hold another of the same request (an edit form open beside
/// the add form), so that the ids of its fields stay unique: `field-{scope}-{name}`.
#[derive(Clone)]
pub struct FieldScope(pub String);

/// The id of the input that fills the request field `name` (`ports[0].internal_port` gives
/// `field-ports-0--internal_port`).
pub fn field_id(name: &str) -> String {
    let name = name.replace(['.', '[', ']'], "-");
    match use_context::<FieldScope>() {
        Some(FieldScope(scope)) => format!("field-{scope}-{name}"),
        None => format!("field-{name}"),
    }
}

/// An optional text as typed: `None` when left empty, trimmed otherwise.
pub fn optional_text(field: RwSignal<String>) -> Option<String> {
    let text = field.get_untracked().trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// A list written one item per line (arguments, paths), blank lines left out.
pub fn lines_of(field: RwSignal<String>) -> Vec<String> {
    field
        .get_untracked()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_string)
        .collect()
}

/// A labelled input with its rule's message under it.
#[component]
pub fn TextField(
    #[prop(into)] label: String,
    /// The request field it fills, e.g. `git_repository.url`: also the input's id.
    #[prop(into)]
    name: String,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(default = "text")] input_type: &'static str,
    #[prop(optional, into)] placeholder: String,
    #[prop(optional, into)] hint: String,
    #[prop(optional)] required: bool,
    /// Values the input suggests as a person types (its datalist), which may change as other
    /// fields do; any other value may be typed.
    #[prop(optional, into)]
    suggestions: MaybeProp<Vec<String>>,
    /// Tells the fields of this form from those of another form of the page with the same names
    /// (an editor in a table row, say): it starts the input's id.
    #[prop(optional, into)]
    form_id: Option<String>,
) -> impl IntoView {
    let error = error_for(errors, name.clone());
    let field = field_id(&name);
    let id = match form_id {
        Some(form) => format!("{form}-{field}"),
        None => field,
    };
    let error_id = format!("{id}-error");
    let list_id = format!("{id}-suggestions");
    let listed = move || suggestions.get().filter(|values| !values.is_empty());
    // A number is typed in a text input with a numeric keyboard: a number input reads "" while
    // a person is half-way through "-5", and the bound value would wipe the "-".
    let (html_type, inputmode) = match input_type {
        "number" => ("text", Some("numeric")),
        other => (other, None),
    };
    view! {
        <div class="field" class:field--invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}{required.then_some(" *")}</label>
            <input
                id=id
                name=name
                type=html_type
                inputmode=inputmode
                placeholder=placeholder
                list={
                    let list_id = list_id.clone();
                    move || listed().map(|_| list_id.clone())
                }
                bind:value=value
                aria-invalid=move || error.get().is_some().to_string()
                aria-describedby=error_id.clone()
            />
            {move || listed().map(|values| view! {
                <datalist id=list_id.clone()>
                    {values.into_iter().map(|value| view! { <option value=value></option> }).collect_view()}
                </datalist>
            })}
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
            <p class="field__error" id=error_id>{move || error.get()}</p>
        </div>
    }
}

/// Every problem of a form that no single field shows, a line each ("line 3 must be
/// NAME=value", "vars[2].name is imported twice"), announced as it appears.
#[component]
pub fn ProblemList(id: &'static str, problems: Signal<Vec<FieldError>>) -> impl IntoView {
    view! {
        <div id=id class="notice notice--error import-problems" role="alert"
            hidden=move || problems.with(Vec::is_empty)>
            <ul>
                {move || problems.get().into_iter().map(|problem| view! {
                    <li>{format!("{} {}", problem.field, problem.message)}</li>
                }).collect_view()}
            </ul>
        </div>
    }
}

/// A labelled select of options: `(value, label)`.
#[component]
pub fn SelectField<V>(
    label: &'static str,
    #[prop(into)] name: String,
    value: RwSignal<String>,
    options: Vec<(V, String)>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] required: bool,
) -> impl IntoView
where
    V: ToString + 'static,
{
    let error = error_for(errors, name.clone());
    let id = field_id(&name);
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

/// A select of every value of a wire enumeration (or of `only` these), shown by their labels and
/// bound to the value itself.
#[component]
pub fn EnumSelect<E: WireEnum>(
    label: &'static str,
    #[prop(into)] name: String,
    value: RwSignal<E>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] only: Option<&'static [E]>,
    #[prop(optional)] hint: &'static str,
) -> impl IntoView {
    let error = error_for(errors, name.clone());
    let id = field_id(&name);
    let error_id = format!("{id}-error");
    let choose = move |event: leptos::ev::Event| {
        if let Ok(chosen) = event_target_value(&event).parse::<E>() {
            value.set(chosen);
        }
    };
    view! {
        <div class="field" class:field--invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}</label>
            <select id=id name=name on:change=choose aria-describedby=error_id.clone()
                prop:value=move || value.get().as_str()>
                {only.unwrap_or(E::all()).iter().map(|option| {
                    let option = *option;
                    view! {
                        <option value=option.as_str() selected=move || value.get() == option>
                            {option.label()}
                        </option>
                    }
                }).collect_view()}
            </select>
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
            <p class="field__error" id=error_id>{move || error.get()}</p>
        </div>
    }
}

/// A labelled select of choices `(value, label)` bound to the value itself (an id, say): the
/// options carry their position, never the value as text to parse back.
#[component]
pub fn ChoiceField<T>(
    label: &'static str,
    name: &'static str,
    value: RwSignal<T>,
    options: Vec<(T, String)>,
    errors: RwSignal<Vec<FieldError>>,
) -> impl IntoView
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let error = error_for(errors, name);
    let id = field_id(name);
    let error_id = format!("{id}-error");
    let options = StoredValue::new(options);
    let choose = move |event: leptos::ev::Event| {
        let chosen = event_target_value(&event).parse::<usize>().ok();
        if let Some(choice) = chosen.and_then(|at| options.with_value(|all| all.get(at).cloned())) {
            value.set(choice.0);
        }
    };
    view! {
        <div class="field" class:field--invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}</label>
            <select id=id name=name on:change=choose aria-describedby=error_id.clone()>
                {options.with_value(|all| all.iter().enumerate().map(|(at, (option, text))| {
                    let option = option.clone();
                    view! {
                        <option value=at.to_string() selected=move || value.with(|v| *v == option)>
                            {text.clone()}
                        </option>
                    }
                }).collect_view())}
            </select>
            <p class="field__error" id=error_id>{move || error.get()}</p>
        </div>
    }
}

/// The choices of a filter by a wire enumeration: "Any", then every value of `all` by its label.
pub fn any_or_one_of<E: WireEnum>(all: &[E]) -> Vec<(Option<E>, String)> {
    std::iter::once((None, "Any".to_string()))
        .chain(
            all.iter()
                .map(|value| (Some(*value), value.label().to_string())),
        )
        .collect()
}

/// A labelled checkbox, with what ticking it means under it.
#[component]
pub fn CheckboxField(
    label: &'static str,
    #[prop(into)] name: String,
    checked: RwSignal<bool>,
    #[prop(optional)] hint: &'static str,
) -> impl IntoView {
    let id = field_id(&name);
    let label_for = id.clone();
    view! {
        <div class="field">
            <label class="checkbox" for=label_for>
                <input type="checkbox" id=id name=name bind:checked=checked/>
                {label}
            </label>
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
        </div>
    }
}

/// A group of checkboxes, one per option `(value, label)`, bound to the values ticked (in the
/// options' order).
#[component]
pub fn CheckboxGroup<T>(
    legend: &'static str,
    #[prop(into)] name: String,
    options: Vec<(T, String)>,
    chosen: RwSignal<Vec<T>>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] hint: &'static str,
) -> impl IntoView
where
    T: Clone + PartialEq + ToString + Send + Sync + 'static,
{
    let error = error_for(errors, name.clone());
    let error_id = format!("{}-error", field_id(&name));
    let described_by = error_id.clone();
    let order: Vec<T> = options.iter().map(|(value, _)| value.clone()).collect();
    let toggle = move |value: T, on: bool| {
        chosen.update(|list| {
            list.retain(|kept| *kept != value);
            if on {
                list.push(value);
                list.sort_by_key(|kept| order.iter().position(|o| o == kept));
            }
        })
    };
    view! {
        <fieldset class="choices" aria-describedby=described_by>
            <legend>{legend}</legend>
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
            {options.into_iter().map(|(value, label)| {
                let ticked = value.clone();
                let toggle = toggle.clone();
                view! {
                    <label class="checkbox">
                        <input type="checkbox" name=name.clone() value=value.to_string()
                            checked=move || chosen.with(|list| list.contains(&ticked))
                            on:change=move |event| toggle(value.clone(), event_target_checked(&event))/>
                        {label}
                    </label>
                }
            }).collect_view()}
            <p class="field__error" id=error_id>{move || error.get()}</p>
        </fieldset>
    }
}

/// A labelled text area for a list written one item per line (`key=value`, say). The errors of
/// the list and of its items (`labels[2].key`) show under it, an item's by its line number.
#[component]
pub fn LinesField(
    #[prop(into)] label: String,
    /// The request's list field, e.g. `labels`.
    #[prop(into)]
    name: String,
    value: RwSignal<String>,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional, into)] hint: String,
) -> impl IntoView {
    let list = name.clone();
    let messages = Signal::derive(move || {
        errors.with(|errors| {
            errors
                .iter()
                .filter_map(|error| line_message(&list, error))
                .collect::<Vec<_>>()
        })
    });
    let id = field_id(&name);
    let error_id = format!("{id}-error");
    view! {
        <div class="field field--wide" class:field--invalid=move || !messages.get().is_empty()>
            <label for=id.clone()>{label}</label>
            <textarea id=id name=name rows="4" placeholder=placeholder bind:value=value
                aria-invalid=move || (!messages.get().is_empty()).to_string()
                aria-describedby=error_id.clone()></textarea>
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
            <p class="field__error" id=error_id>{move || messages.get().join(" ")}</p>
        </div>
    }
}

/// The message of `error` for the list `name`: its own, or an item's as "Line N: ...".
fn line_message(name: &str, error: &FieldError) -> Option<String> {
    if error.field == name {
        return Some(error.message.clone());
    }
    let (index, part) = error
        .field
        .strip_prefix(name)?
        .strip_prefix('[')?
        .split_once(']')?;
    let index: usize = index.parse().ok()?;
    // The item's own field, when the error names one: `labels[1].key` is "the key".
    let what = match part.strip_prefix('.') {
        Some(field) => format!("the {} ", field.replace('_', " ")),
        None => String::new(),
    };
    Some(format!("Line {}: {what}{}.", index + 1, error.message))
}

/// `key=value` lines as pairs, blank lines skipped; a line without `=` is an error of `name`.
pub fn key_value_lines(name: &str, text: &str) -> Result<Vec<(String, String)>, FieldError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| match line.split_once('=') {
            Some((key, value)) => Ok((key.trim().to_string(), value.trim().to_string())),
            None => Err(FieldError::new(
                name,
                format!("Line {} has no '=': write key=value.", index + 1),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn lines_read_as_pairs_and_their_errors_as_line_numbers() {
        assert_eq!(
            key_value_lines("labels", "team=payments\n\n owner = ops ").unwrap(),
            [
                ("team".to_string(), "payments".to_string()),
                ("owner".to_string(), "ops".to_string())
            ]
        );
        let broken = key_value_lines("labels", "team=payments\nowner").unwrap_err();
        assert_eq!(broken.field, "labels");
        assert_eq!(broken.message, "Line 2 has no '=': write key=value.");
        let item = FieldError::new("labels[1].key", "is listed twice");
        assert_eq!(
            line_message("labels", &item).as_deref(),
            Some("Line 2: the key is listed twice.")
        );
        assert_eq!(line_message("annotations", &item), None);
        let route = FieldError::new("routes[0].destination", "is inside the network");
        assert_eq!(
            line_message("routes", &route).as_deref(),
            Some("Line 1: the destination is inside the network.")
        );
        let argument = FieldError::new("arguments[2]", "is empty");
        assert_eq!(
            line_message("arguments", &argument).as_deref(),
            Some("Line 3: is empty.")
        );
    }
}
