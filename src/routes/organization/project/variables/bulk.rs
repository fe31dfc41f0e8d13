//! Many of the service's own variables at once: ticked rows deleted or made secrets together, and
//! "Edit as text…", the service's plain variables as `.env` lines whose save replaces them, shown
//! key by key (added, changed, removed) before it is applied. Both are one request applied whole
//! or not at all where the API has it (`POST /{kind}/{id}/environmentVariable/bulk`, ours), one
//! request per variable on the platform.

use std::collections::HashSet;

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::{
    read_dotenv, replacement, write_dotenv, EnvironmentVariable, FieldError, PlainVariable,
    TextChange, VariableBulk, VariableBulkRequest, VariableType,
};
use uuid::Uuid;

use super::level::Level;
use crate::api::{use_api, ApiError};
use crate::components::confirm_button::ConfirmButton;
use crate::components::fetched::FetchedContent;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{FieldScope, ProblemList};
use crate::components::new_dialog::{FetchedWhenOpened, NewDialog};
use crate::state::toasts::use_toasts;

/// The rows ticked, by variable id.
pub type Selection = RwSignal<HashSet<Uuid>>;

/// Whether a variable can be ticked: one of the service's own, not generated.
pub fn selectable(own: Level, variable: &EnvironmentVariable) -> bool {
    variable.scope == own.scope && variable.variable_type != VariableType::BuiltIn
}

/// Whether a variable can be made a secret: a plain value.
fn plain(variable: &EnvironmentVariable) -> bool {
    !variable.is_secret && variable.variable_type == VariableType::Value
}

/// What a person does with the ticked rows.
#[component]
pub fn SelectionBar(
    own: Level,
    variables: Vec<EnvironmentVariable>,
    selection: Selection,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let variables = StoredValue::new(variables);
    let ticked = move || {
        let chosen = selection.get();
        variables.with_value(|all| {
            all.iter()
                .filter(|variable| chosen.contains(&variable.id))
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let apply = move |request: VariableBulkRequest, done: &'static str| {
        leptos::task::spawn_local(async move {
            let current = variables.get_value();
            match api
                .bulk_variables(own.scope, own.parent, &request, &current)
                .await
            {
                Ok(_) => {
                    selection.set(HashSet::new());
                    toasts.success(done);
                    on_changed.run(());
                }
                Err(error) => {
                    // Some changes may have been made one by one before it: the list shows them.
                    if matches!(error, ApiError::PartlyApplied { .. }) {
                        on_changed.run(());
                    }
                    toasts.error(error.to_string());
                }
            }
        });
    };
    let delete = Callback::new(move |()| {
        let request = VariableBulkRequest {
            delete: ticked().iter().map(|variable| variable.id).collect(),
            ..VariableBulkRequest::default()
        };
        apply(request, "Variables deleted.");
    });
    let to_secret = Callback::new(move |()| {
        let request = VariableBulkRequest {
            to_secret: ticked()
                .iter()
                .filter(|variable| plain(variable))
                .map(|variable| variable.id)
                .collect(),
            ..VariableBulkRequest::default()
        };
        apply(request, "Variables made secrets.");
    });
    move || {
        let chosen = ticked();
        (!chosen.is_empty()).then(|| {
            let count = chosen.len();
            let plain_count = chosen.iter().filter(|variable| plain(variable)).count();
            let keys = chosen
                .iter()
                .map(|variable| variable.key.clone())
                .collect::<Vec<_>>()
                .join(", ");
            view! {
                <div class="selection-bar" role="region" aria-label="Ticked variables">
                    <p class="selection-bar__count" aria-live="polite">{format!("{count} ticked")}</p>
                    <ConfirmButton label=format!("Make secret ({plain_count})")
                        question=format!("Make {plain_count} variables secrets?")
                        consequence="Their values are kept but never shown again; files, aliases and overrides stay as they are."
                        on_confirm=to_secret disabled=Signal::derive(move || plain_count == 0)
                        class="button button--small button--secondary"
                        confirm_class="button button--primary"/>
                    <ConfirmButton label=format!("Delete ({count})")
                        question=format!("Delete {count} variables?")
                        consequence=format!("{keys}: the service loses them at its next deployment.")
                        on_confirm=delete class="button button--small button--danger"/>
                    <button type="button" class="button button--small button--ghost"
                        on:click=move |_| selection.set(HashSet::new())>"Untick all"</button>
                </div>
            }
        })
    }
}

#[component]
pub fn EditAsText(
    own: Level,
    variables: Vec<EnvironmentVariable>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let LoadEditAsText(load) = expect_context();
    let content = move || -> FetchedContent {
        let variables = variables.clone();
        Box::pin(async move { Ok(load().await?(own, variables, on_saved)) })
    };
    view! {
        <NewDialog label="Edit as text…">
            <FetchedWhenOpened load=content/>
        </NewDialog>
    }
}

/// Builds "Edit as text…"'s form from the page's variables.
pub type TextFormOf = fn(Level, Vec<EnvironmentVariable>, Callback<()>) -> AnyView;

/// Fetches "Edit as text…" when its dialog first opens (behind the split point `app.rs`
/// provides): few open it, and its text and changes are no part of the page's code. The split
/// point hands back the function that builds the form, so that the main module, which holds every
/// split point, holds nothing of what the form is built from.
#[derive(Clone, Copy)]
pub struct LoadEditAsText(pub fn() -> BoxFuture<'static, Result<TextFormOf, SplitLoaderError>>);

/// The form, as the split point builds it.
pub fn edit_as_text_form(
    own: Level,
    variables: Vec<EnvironmentVariable>,
    on_saved: Callback<()>,
) -> AnyView {
    view! { <TextForm own variables on_saved/> }.into_any()
}

#[component]
fn TextForm(
    own: Level,
    variables: Vec<EnvironmentVariable>,
    on_saved: Callback<()>,
) -> impl IntoView {
    provide_context(FieldScope("as-text".into()));
    let api = use_api();
    let current: Vec<PlainVariable> = variables
        .iter()
        .filter(|variable| variable.scope == own.scope && plain(variable))
        .filter_map(|variable| Some((variable.id, variable.key.clone(), variable.value.clone()?)))
        .collect();
    let text = RwSignal::new(write_dotenv(
        current
            .iter()
            .map(|(_, key, value)| (key.as_str(), value.as_str())),
    ));
    let current = StoredValue::new(current);
    let seen = StoredValue::new(variables);
    let planned = Memo::new(move |_| {
        let lines = text.with(|text| read_dotenv(text))?;
        current.with_value(|current| replacement(current, &lines))
    });
    let form = Form::new(
        move |request: VariableBulkRequest| async move {
            let seen = seen.get_value();
            api.bulk_variables(own.scope, own.parent, &request, &seen)
                .await
        },
        move |done: VariableBulk| {
            on_saved.run(());
            format!(
                "Saved: {} added, {} changed, {} removed.",
                done.created, done.updated, done.deleted
            )
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        match planned.get_untracked() {
            // Said in the text's words: the request's own "nothing to change" names no line.
            Ok((request, _)) if request == VariableBulkRequest::default() => {
                errors.set(vec![FieldError::new(
                    "text",
                    "changes nothing: it is what is defined now",
                )])
            }
            Ok((request, _)) => {
                let checked = request.validate();
                form.submit(request, checked);
            }
            Err(problems) => errors.set(problems),
        }
    };
    // The server's refusals, and the text's own (a line that does not read, a key twice).
    let problems = Signal::derive(move || {
        let read = planned.with(|planned| planned.as_ref().err().cloned().unwrap_or_default());
        errors.get().into_iter().chain(read).collect::<Vec<_>>()
    });
    let changes = move || {
        planned.with(|planned| {
            planned
                .as_ref()
                .map(|(_, changes)| changes.clone())
                .unwrap_or_default()
        })
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Edit variables as text">
            <h2>"Edit as text"</h2>
            <p class="muted">
                "The service's own plain variables, one NAME=value a line. Saving replaces them: a line added adds one, a line changed changes it, a line removed deletes it. Secrets, files, aliases and overrides are not in the text and stay as they are."
            </p>
            <div class="field" class:field--invalid=move || !problems.with(Vec::is_empty)>
                <label for="as-text">"Variables"</label>
                <textarea id="as-text" class="mono" rows="12" bind:value=text
                    aria-invalid=move || (!problems.with(Vec::is_empty)).to_string()
                    aria-describedby="as-text-problems"></textarea>
            </div>
            <ProblemList id="as-text-problems" problems/>
            <TextChanges changes=Signal::derive(changes)/>
            <SubmitButton form label="Save"/>
        </form>
    }
}

/// What the save will do, key by key; nothing when the text is what is defined now.
#[component]
fn TextChanges(changes: Signal<Vec<TextChange>>) -> impl IntoView {
    let shown = |value: Option<String>| value.unwrap_or_else(|| "—".to_string());
    view! {
        <p class="muted" hidden=move || !changes.with(Vec::is_empty)>"No change yet."</p>
        <table class="table diff" hidden=move || changes.with(Vec::is_empty)>
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Before"</th>
                <th scope="col">"After"</th>
                <th scope="col">"Will be"</th>
            </tr></thead>
            <tbody>
                {move || changes.get().into_iter().map(|change| view! {
                    <tr data-change=change.key.clone()>
                        <th scope="row" class="mono">{change.key.clone()}</th>
                        <td class="diff__before mono">{shown(change.before.clone())}</td>
                        <td class="diff__after mono">{shown(change.after.clone())}</td>
                        <td>{change.outcome()}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}
