//! Variables by the hundred on a service's variables page: "Import .env…" reads pasted or chosen
//! `.env` text, shows what it will add, change and leave alone at the level chosen (each line a
//! secret or not) before anything is sent, and applies it whole or not at all; "Export .env"
//! downloads the values the service sees, secrets left out with a comment naming them.

use std::collections::HashSet;

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::{
    read_dotenv, write_dotenv, EnvironmentVariable, FieldError, ImportedVariable, VariableImport,
    VariableImportRequest, VariableScope, VariableType,
};
use wasm_bindgen::JsCast;

use super::level::{level_label, Level};
use crate::api::{query_value, use_api, ApiError};
use crate::components::fetched::FetchedContent;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{ChoiceField, FieldScope, ProblemList};
use crate::components::new_dialog::{FetchedWhenOpened, NewDialog};

/// What an imported line will do at its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Added,
    Changed,
    /// Defined there already with this value, or not overwritten.
    LeftAlone,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Added => "added",
            Outcome::Changed => "changed",
            Outcome::LeftAlone => "left alone",
        }
    }
}

/// What each `(name, value)` will do at `scope`, given the variables seen there now. A secret's
/// value is unknown: overwriting one changes it.
pub fn preview(
    lines: &[(String, String)],
    seen: &[EnvironmentVariable],
    scope: VariableScope,
    overwrite: bool,
) -> Vec<Outcome> {
    lines
        .iter()
        .map(|(name, value)| {
            match seen
                .iter()
                .find(|variable| variable.scope == scope && variable.key == *name)
            {
                None => Outcome::Added,
                Some(existing) if existing.value.as_deref() == Some(value.as_str()) => {
                    Outcome::LeftAlone
                }
                Some(_) if overwrite => Outcome::Changed,
                Some(_) => Outcome::LeftAlone,
            }
        })
        .collect()
}

#[component]
pub fn ImportVariables(
    own: Level,
    levels: Vec<Level>,
    seen: Vec<EnvironmentVariable>,
    on_imported: Callback<()>,
) -> impl IntoView {
    let LoadImport(load) = expect_context();
    let content = move || -> FetchedContent {
        let (levels, seen) = (levels.clone(), seen.clone());
        Box::pin(async move { Ok(load().await?(own, levels, seen, on_imported)) })
    };
    view! {
        <NewDialog label="Import .env…">
            <FetchedWhenOpened load=content/>
        </NewDialog>
    }
}

/// Builds "Import .env…"'s form: the service's own level, those it may import to, and the
/// variables it sees.
pub type ImportFormOf = fn(Level, Vec<Level>, Vec<EnvironmentVariable>, Callback<()>) -> AnyView;

/// Fetches "Import .env…" when its dialog first opens (behind the split point `app.rs`
/// provides): few open it, and its reading and preview are no part of the page's code. The
/// split point hands back the function that builds the form (as `LoadEditAsText`).
#[derive(Clone, Copy)]
pub struct LoadImport(pub fn() -> BoxFuture<'static, Result<ImportFormOf, SplitLoaderError>>);

/// The form, as the split point builds it.
pub fn import_form(
    own: Level,
    levels: Vec<Level>,
    seen: Vec<EnvironmentVariable>,
    on_imported: Callback<()>,
) -> AnyView {
    view! { <ImportForm own levels seen on_imported/> }.into_any()
}

#[component]
fn ImportForm(
    own: Level,
    levels: Vec<Level>,
    seen: Vec<EnvironmentVariable>,
    on_imported: Callback<()>,
) -> impl IntoView {
    provide_context(FieldScope("import".into()));
    let api = use_api();
    let text = RwSignal::new(String::new());
    let level = RwSignal::new(own);
    let overwrite = RwSignal::new(false);
    // The names marked secret in the preview.
    let secrets = RwSignal::new(HashSet::<String>::new());
    let seen = StoredValue::new(seen);
    let read = Memo::new(move |_| text.with(|text| read_dotenv(text)));
    // Imported through the service, each variable at the level it names.
    let form = Form::new(
        move |request: VariableImportRequest| async move {
            let kind = own.scope.service_type().ok_or_else(|| {
                ApiError::NotFound("Variables are imported through a service.".into())
            })?;
            api.import_variables(kind, own.parent, &request).await
        },
        move |imported: VariableImport| {
            text.set(String::new());
            on_imported.run(());
            format!(
                "{} of {} variables imported.",
                imported.successful_imported_variables.len(),
                imported.total_variables_to_import
            )
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let (level, overwrite) = (level.get_untracked(), overwrite.get_untracked());
        let asked = secrets.with_untracked(|secrets| {
            import_request(read.get_untracked(), level, overwrite, secrets)
        });
        match asked {
            Ok(request) => {
                let checked = request.validate();
                form.submit(request, checked);
            }
            Err(problems) => errors.set(problems),
        }
    };
    let choose_file = move |event: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&event);
        let Some(file) = input.files().and_then(|files| files.get(0)) else {
            return;
        };
        leptos::task::spawn_local(async move {
            if let Ok(content) = wasm_bindgen_futures::JsFuture::from(file.text()).await {
                text.set(content.as_string().unwrap_or_default());
            }
        });
    };
    let level_options: Vec<(Level, String)> = levels
        .into_iter()
        .map(|level| (level, level_label(level.scope).to_string()))
        .collect();
    // The text itself is refused: empty, or a line that is not `NAME=value`.
    let text_refused = move || {
        errors.with(|errors| {
            errors
                .iter()
                .any(|error| error.field == "text" || error.field.starts_with("line "))
        })
    };
    let rows = move || {
        let Ok(lines) = read.get() else {
            return Vec::new();
        };
        let pairs: Vec<(String, String)> = lines
            .into_iter()
            .map(|(_, name, value)| (name, value))
            .collect();
        let outcomes =
            seen.with_value(|seen| preview(&pairs, seen, level.get().scope, overwrite.get()));
        pairs.into_iter().zip(outcomes).collect::<Vec<_>>()
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Import variables">
            <h2>"Import .env"</h2>
            <p class="muted">"Paste NAME=value lines or choose a file; see what changes before it is applied. All are applied, or none."</p>
            <div class="field" class:field--invalid=text_refused>
                <label for="import-text">".env text"</label>
                <textarea id="import-text" class="mono" rows="8" bind:value=text
                    aria-invalid=move || text_refused().to_string() aria-describedby="import-problems"
                    placeholder="DATABASE_URL=postgres://db:5432/app"></textarea>
            </div>
            <div class="field">
                <label for="import-file">"Or a file"</label>
                <input id="import-file" type="file" accept=".env,text/plain" on:change=choose_file/>
            </div>
            <div class="form-grid">
                <ChoiceField label="Defined at" name="scope" value=level options=level_options errors/>
            </div>
            <label class="checkbox">
                <input type="checkbox" bind:checked=overwrite/>
                " Overwrite the variables already defined there"
            </label>
            <ProblemList id="import-problems" problems=errors.into()/>
            <ImportPreview rows=Signal::derive(rows) secrets/>
            <SubmitButton form label="Import"/>
        </form>
    }
}

/// The import the text asks for, each line at `level`, the names in `secrets` as secrets; or
/// why the text is refused (no line, or lines that are not `NAME=value`).
fn import_request(
    read: Result<Vec<(usize, String, String)>, Vec<FieldError>>,
    level: Level,
    overwrite: bool,
    secrets: &HashSet<String>,
) -> Result<VariableImportRequest, Vec<FieldError>> {
    let lines = read?;
    if lines.is_empty() {
        return Err(vec![FieldError::new("text", "has no NAME=value line")]);
    }
    Ok(VariableImportRequest {
        overwrite,
        vars: lines
            .into_iter()
            .map(|(_, name, value)| ImportedVariable {
                is_secret: secrets.contains(&name),
                name,
                value,
                scope: level.scope,
            })
            .collect(),
    })
}

/// What the import will do, a row per name: its value (hidden once marked secret), the box that
/// marks it secret, and what becomes of it.
#[component]
fn ImportPreview(
    rows: Signal<Vec<((String, String), Outcome)>>,
    secrets: RwSignal<HashSet<String>>,
) -> impl IntoView {
    view! {
        <table class="table import-preview" hidden=move || rows.with(Vec::is_empty)>
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Value"</th>
                <th scope="col">"Secret"</th>
                <th scope="col">"Will be"</th>
            </tr></thead>
            <tbody>
                {move || rows.get().into_iter().map(|((name, value), outcome)| {
                    let marked = name.clone();
                    let toggled = name.clone();
                    let secret = Signal::derive(move || secrets.with(|secrets| secrets.contains(&marked)));
                    view! {
                        <tr data-import=name.clone() data-outcome=outcome.label()>
                            <td class="mono">{name.clone()}</td>
                            <td class="mono">{move || if secret.get() { "••••••".to_string() } else { value.clone() }}</td>
                            <td>
                                <input type="checkbox" aria-label=format!("{name} is a secret")
                                    prop:checked=secret
                                    on:change=move |event| {
                                        let ticked = event_target_checked(&event);
                                        secrets.update(|secrets| {
                                            if ticked {
                                                secrets.insert(toggled.clone());
                                            } else {
                                                secrets.remove(&toggled);
                                            }
                                        });
                                    }/>
                            </td>
                            <td>{outcome.label()}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// "Export .env": the values the service sees as `.env` text, downloaded; secrets and built-in
/// variables are not in it, a comment names the secrets left out.
#[component]
pub fn ExportVariables(name: String, seen: Vec<EnvironmentVariable>) -> impl IntoView {
    let shown: Vec<(String, String)> = seen
        .iter()
        .filter(|variable| !variable.is_secret && variable.variable_type != VariableType::BuiltIn)
        .filter_map(|variable| Some((variable.key.clone(), variable.value.clone()?)))
        .collect();
    let secrets: Vec<&str> = seen
        .iter()
        .filter(|variable| variable.is_secret)
        .map(|variable| variable.key.as_str())
        .collect();
    let mut text = String::new();
    if !secrets.is_empty() {
        text.push_str(&format!(
            "# Secrets left out (their values are never shown): {}\n",
            secrets.join(", ")
        ));
    }
    text.push_str(&write_dotenv(
        shown
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str())),
    ));
    let href = format!("data:text/plain;charset=utf-8,{}", query_value(&text));
    view! {
        <a class="button button--secondary" href=href download=format!("{name}.env")>"Export .env"</a>
    }
}

/// The element an event happened on, as the kind of element it is.
fn event_target<T: JsCast>(event: &leptos::ev::Event) -> T {
    event
        .target()
        .expect("an input event has its input")
        .unchecked_into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variable(key: &str, value: Option<&str>, scope: VariableScope) -> EnvironmentVariable {
        serde_json::from_value(serde_json::json!({
            "id": uuid::Uuid::new_v4(), "created_at": "2026-01-01T00:00:00Z", "key": key,
            "value": value, "scope": scope, "variable_type": "VALUE", "is_secret": value.is_none(),
            "owned_by": "USER"
        }))
        .unwrap()
    }

    #[wasm_bindgen_test::wasm_bindgen_test]
    fn the_preview_says_what_each_line_will_do() {
        let seen = [
            variable("SAME", Some("1"), VariableScope::Application),
            variable("OTHER", Some("old"), VariableScope::Application),
            variable("SECRET", None, VariableScope::Application),
            variable("ABOVE", Some("x"), VariableScope::Environment),
        ];
        let lines: Vec<(String, String)> = [
            ("SAME", "1"),
            ("OTHER", "new"),
            ("SECRET", "s"),
            ("ABOVE", "y"),
            ("NEW", "n"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        use Outcome::*;
        assert_eq!(
            preview(&lines, &seen, VariableScope::Application, false),
            [LeftAlone, LeftAlone, LeftAlone, Added, Added]
        );
        assert_eq!(
            preview(&lines, &seen, VariableScope::Application, true),
            [LeftAlone, Changed, Changed, Added, Added]
        );
    }
}
