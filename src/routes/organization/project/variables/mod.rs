//! The variables and secrets seen at one level (a service or an environment), each with the level
//! it comes from: add one at this level or one above it; change or delete one; override an
//! inherited one at this level alone, or give it another key here (an alias); filter by key and
//! by level; tick some to change together; export, import (through a service) and edit as text.
//! A secret's value is never shown: it can only be replaced.

pub mod bulk;
pub mod import;
mod level;

use leptos::prelude::*;
use platform_api::{
    AliasRequest, EnvironmentVariable, OverrideRequest, VariableCreation, VariableRequest,
    VariableType,
};

use crate::api::use_api;
use crate::case;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{error_for, ChoiceField, TextField};
use crate::components::loaded::loaded;
use crate::components::pager::{page_range, use_page, ListPager};
use crate::state::resource::resource;
use bulk::{selectable, EditAsText, Selection, SelectionBar};
use import::{ExportVariables, ImportVariables};
pub use level::Level;
use level::{level_label, level_value, LEVELS};

/// Where a new variable may be defined from a page: its own level or one above it, with how a
/// person names each.
pub type Levels = Vec<(Level, &'static str)>;

/// The card of what `own` sees and the form to add one, at `own` or a level of `levels` (its own
/// first). `name` names the export's file; `on_changed` is told of every change after the list
/// (a service's status, which a change leaves out of date).
#[component]
pub fn Variables(
    own: Level,
    levels: Levels,
    #[prop(into)] name: Signal<String>,
    #[prop(into)] lead: String,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let variables = resource(move || async move { api.variables(own.scope, own.parent).await });
    let changed = Callback::new(move |()| {
        variables.refetch();
        on_changed.run(());
    });
    // An edit's answer is the variable as saved: it takes its place in the list, nothing read.
    let edited = Callback::new(move |saved: EnvironmentVariable| {
        variables.update(|seen| {
            if let Some(Ok(variables)) = seen {
                if let Some(kept) = variables.iter_mut().find(|kept| kept.id == saved.id) {
                    *kept = saved;
                }
            }
        });
        on_changed.run(());
    });
    let filter = RwSignal::new(String::new());
    let level = RwSignal::new(String::new());
    let selection: Selection = RwSignal::new(Default::default());
    let import_levels: Vec<Level> = levels.iter().map(|(level, _)| *level).collect();
    // Imports go through a service (the platform's route names one).
    let imports = own.scope.service_type().is_some();

    view! {
        <section class="card" aria-labelledby="variables-title">
            <div class="card__header">
                <h2 id="variables-title">"Variables and secrets"</h2>
                <label class="log-controls__field">
                    "Filter by key"
                    <input type="search" placeholder="DATABASE_" bind:value=filter/>
                </label>
                <label class="log-controls__field">
                    "Defined at"
                    <select name="level" bind:value=level>
                        {LEVELS.map(|(value, label)| view! { <option value=value>{label}</option> })}
                    </select>
                </label>
            </div>
            <p class="muted">{lead}</p>
            {loaded(variables, 4, move |variables| {
                let import_levels = import_levels.clone();
                view! {
                    <SelectionBar own variables=variables.clone() selection on_changed=changed/>
                    <VariableTable own variables=variables.clone() filter level selection on_changed=changed on_edited=edited/>
                    <div class="actions variables__bulk">
                        <ExportVariables name=name.get_untracked() seen=variables.clone()/>
                        {imports.then(|| view! {
                            <ImportVariables own levels=import_levels seen=variables.clone() on_imported=changed/>
                        })}
                        <EditAsText own variables on_saved=changed/>
                    </div>
                }
            })}
        </section>
        <AddVariable levels on_created=changed/>
    }
}

/// Variables shown a page at a time: a service may see thousands.
const VARIABLES_PER_PAGE: usize = 100;

/// The variables whose key holds the filter, a page of them; rows are keyed by id, so a row
/// being edited stays open while the filter or the page changes around it.
#[component]
fn VariableTable(
    own: Level,
    variables: Vec<EnvironmentVariable>,
    filter: RwSignal<String>,
    level: RwSignal<String>,
    selection: Selection,
    on_changed: Callback<()>,
    on_edited: Callback<EnvironmentVariable>,
) -> impl IntoView {
    if variables.is_empty() {
        return view! {
            <EmptyState title="No variable yet"
                hint=own.add_hint()/>
        }
        .into_any();
    }
    let page = use_page();
    let matching = Memo::new(move |_| {
        let wanted = filter.with(|f| case::lower(f.trim()));
        let at = level.get();
        variables
            .iter()
            .filter(|variable| case::lower(&variable.key).contains(&wanted))
            .filter(|variable| at.is_empty() || level_value(variable.scope) == at)
            .cloned()
            .collect::<Vec<_>>()
    });
    let shown = move || {
        matching.with(|all| all[page_range(all.len(), VARIABLES_PER_PAGE, page.get())].to_vec())
    };
    view! {
        <table class="table variables">
            <thead><tr>
                <th scope="col" class="table__select"><span class="visually-hidden">"Ticked"</span></th>
                <th scope="col">"Key"</th>
                <th scope="col">"Value"</th>
                <th scope="col">"Defined at"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <For each=shown key=|variable| variable.id let:variable>
                <VariableRow own variable selection on_changed on_edited/>
            </For>
        </table>
        {move || view! {
            <ListPager label="Pages of variables" total=matching.with(Vec::len)
                size=VARIABLES_PER_PAGE page=page.get()/>
        }}
    }
    .into_any()
}

/// What a row opens under itself.
#[derive(Clone, Copy, PartialEq)]
enum Editor {
    Closed,
    Edit,
    Alias,
    Override,
}

#[component]
fn VariableRow(
    own: Level,
    variable: EnvironmentVariable,
    selection: Selection,
    on_changed: Callback<()>,
    on_edited: Callback<EnvironmentVariable>,
) -> impl IntoView {
    let api = use_api();
    let editor = RwSignal::new(Editor::Closed);
    let id = variable.id;
    let key = variable.key.clone();
    let built_in = variable.variable_type == VariableType::BuiltIn;
    let inherited = !built_in && variable.scope != own.scope;
    let is_alias = variable.variable_type == VariableType::Alias;
    let editable = !built_in && !is_alias;
    let aliasable = inherited && !is_alias;
    let toggle = move |wanted: Editor| {
        editor.update(|open| {
            *open = if *open == wanted {
                Editor::Closed
            } else {
                wanted
            }
        })
    };
    let closed = Callback::new(move |()| editor.set(Editor::Closed));
    let saved = Callback::new(move |()| {
        editor.set(Editor::Closed);
        on_changed.run(());
    });
    let edited = Callback::new(move |variable| {
        editor.set(Editor::Closed);
        on_edited.run(variable);
    });
    let row_variable = variable.clone();
    let tickable = selectable(own, &variable);
    let tick = move |event: leptos::ev::Event| {
        let ticked = event_target_checked(&event);
        selection.update(|chosen| {
            if ticked {
                chosen.insert(id);
            } else {
                chosen.remove(&id);
            }
        });
    };

    view! {
        <tbody data-variable=key.clone()>
            <tr>
                <td class="table__select">
                    {tickable.then(|| view! {
                        <input type="checkbox" aria-label=format!("Tick {key}")
                            prop:checked=move || selection.with(|chosen| chosen.contains(&id))
                            on:change=tick/>
                    })}
                </td>
                <td>
                    <span class="mono">{key.clone()}</span>
                    {variable.mount_path.clone().map(|path| view! {
                        <div class="muted cell-note">"File at " <span class="mono">{path}</span></div>
                    })}
                    {variable.description.clone().filter(|d| !d.is_empty()).map(|description| view! {
                        <div class="muted cell-note">{description}</div>
                    })}
                </td>
                <td><VariableValue variable=row_variable/></td>
                <td><span class="tag">{level_label(variable.scope)}</span></td>
                <td class="row-actions">
                    {built_in.then(|| view! { <span class="muted">"Read only"</span> })}
                    {inherited.then(|| view! {
                        <button type="button" class="button button--small button--secondary"
                            aria-expanded=move || (editor.get() == Editor::Override).to_string()
                            on:click=move |_| toggle(Editor::Override)>"Override"</button>
                    })}
                    {aliasable.then(|| view! {
                        <button type="button" class="button button--small button--secondary"
                            aria-expanded=move || (editor.get() == Editor::Alias).to_string()
                            on:click=move |_| toggle(Editor::Alias)>"Alias"</button>
                    })}
                    {editable.then(|| view! {
                        <button type="button" class="button button--small button--secondary"
                            aria-expanded=move || (editor.get() == Editor::Edit).to_string()
                            on:click=move |_| toggle(Editor::Edit)>"Edit"</button>
                    })}
                    {(!built_in).then(|| view! {
                        <DeleteButton question="Delete this variable?" item=key.clone()
                    consequence="Every service that sees it loses it at its next deployment."
                    done="Variable deleted."
                    delete=move || async move { api.delete_variable(id).await } on_deleted=on_changed/>
                    })}
                </td>
            </tr>
            {move || match editor.get() {
                Editor::Closed => None,
                Editor::Edit => Some(view! {
                    <tr class="table__detail"><td colspan="5">
                        <EditVariable variable=variable.clone() on_saved=edited on_closed=closed/>
                    </td></tr>
                }.into_any()),
                Editor::Alias => Some(view! {
                    <tr class="table__detail"><td colspan="5">
                        <AliasVariable own variable=variable.clone() on_saved=saved on_closed=closed/>
                    </td></tr>
                }.into_any()),
                Editor::Override => Some(view! {
                    <tr class="table__detail"><td colspan="5">
                        <OverrideVariable own variable=variable.clone() on_saved=saved on_closed=closed/>
                    </td></tr>
                }.into_any()),
            }}
        </tbody>
    }
}

/// A value as a person may see it: never a secret's.
#[component]
fn VariableValue(variable: EnvironmentVariable) -> impl IntoView {
    let overrides = variable.overridden_variable.as_ref().map(|target| {
        format!(
            "overrides the {} value",
            level_label(target.scope).to_ascii_lowercase()
        )
    });
    let shown = match (
        &variable.aliased_variable,
        variable.is_secret,
        &variable.value,
    ) {
        (Some(target), _, _) => {
            let value = match (&target.value, variable.is_secret) {
                (_, true) => view! { <span class="secret">"Secret · hidden"</span> }.into_any(),
                (Some(value), false) => view! {
                    <span class="mono variables__value" title=value.clone()>{value.clone()}</span>
                }
                .into_any(),
                (None, false) => view! { <span class="muted">"—"</span> }.into_any(),
            };
            view! {
                {value}
                <div class="muted cell-note">"alias of " <span class="mono">{target.key.clone()}</span></div>
            }
            .into_any()
        }
        (None, true, _) => view! { <span class="secret">"Secret · hidden"</span> }.into_any(),
        (None, false, Some(value)) => {
            view! { <span class="mono variables__value" title=value.clone()>{value.clone()}</span> }
                .into_any()
        }
        (None, false, None) => view! { <span class="muted">"—"</span> }.into_any(),
    };
    view! {
        {shown}
        {overrides.map(|text| view! { <div class="muted cell-note">{text}</div> })}
    }
}

#[component]
fn EditVariable(
    variable: EnvironmentVariable,
    on_saved: Callback<EnvironmentVariable>,
    on_closed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let id = variable.id;
    let secret = variable.is_secret;
    let value = RwSignal::new(variable.value.clone().unwrap_or_default());
    let description = RwSignal::new(variable.description.clone().unwrap_or_default());
    let form = Form::new(
        move |request: VariableRequest| async move { api.update_variable(id, &request).await },
        move |saved| {
            on_saved.run(saved);
            "Variable saved.".to_string()
        },
    );
    let errors = form.errors;
    let (key, mount_path, interpolation) = (
        variable.key.clone(),
        variable.mount_path.clone(),
        variable.enable_interpolation_in_file,
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let value = value.get_untracked();
        let description = description.get_untracked();
        let request = VariableRequest {
            key: key.clone(),
            // An empty secret keeps the stored value.
            value: (!(secret && value.is_empty())).then_some(value),
            mount_path: mount_path.clone(),
            description: (!description.trim().is_empty()).then_some(description),
            enable_interpolation_in_file: interpolation,
        };
        let checked = request.validate(secret);
        form.submit(request, checked);
    };
    view! {
        <form class="variables__editor" on:submit=submit novalidate
            aria-label=format!("Edit {}", variable.key)>
            <div class="form-inline__fields">
                <TextField label=if secret { "New value" } else { "Value" } name="value" value errors
                    input_type=value_input(secret) form_id=format!("edit-{id}")
                    hint=if secret { "Left empty, the secret keeps its value." } else { "" }/>
                <TextField label="Description" name="description" value=description errors
                    form_id=format!("edit-{id}")/>
            </div>
            <EditorButtons label="Save" pending=Signal::derive(move || form.pending()) on_closed/>
        </form>
    }
}

#[component]
fn OverrideVariable(
    own: Level,
    variable: EnvironmentVariable,
    on_saved: Callback<()>,
    on_closed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let id = variable.id;
    let value = RwSignal::new(String::new());
    let form = Form::new(
        move |request: OverrideRequest| async move { api.override_variable(id, &request).await },
        move |_| {
            on_saved.run(());
            format!("Override saved: {} now has its own value.", own.here())
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = OverrideRequest {
            value: Some(value.get_untracked()),
            override_scope: Some(own.scope),
            override_parent_id: Some(own.parent),
            description: None,
            enable_interpolation_in_file: None,
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    view! {
        <form class="variables__editor" on:submit=submit novalidate
            aria-label=format!("Override {}", variable.key)>
            <div class="form-inline__fields">
                <TextField label=format!("Value for {}", own.here()) name="value" value errors
                    input_type=value_input(variable.is_secret) form_id=format!("override-{id}")
                    hint=own.others_keep()/>
            </div>
            <EditorButtons label="Override" pending=Signal::derive(move || form.pending()) on_closed/>
        </form>
    }
}

/// Another key for an inherited variable, made at this level: it follows the variable's value.
#[component]
fn AliasVariable(
    own: Level,
    variable: EnvironmentVariable,
    on_saved: Callback<()>,
    on_closed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let id = variable.id;
    let key = RwSignal::new(String::new());
    let aliased = variable.key.clone();
    let form = Form::new(
        move |request: AliasRequest| async move { api.alias_variable(id, &request).await },
        move |created: EnvironmentVariable| {
            on_saved.run(());
            format!("{aliased} now also reads as {}.", created.key)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = AliasRequest {
            key: key.get_untracked().trim().to_string(),
            alias_scope: own.scope,
            alias_parent_id: own.parent,
            description: None,
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    view! {
        <form class="variables__editor" on:submit=submit novalidate
            aria-label=format!("Alias {}", variable.key)>
            <div class="form-inline__fields">
                <TextField label=format!("Key for {}", own.here()) name="key" value=key errors required=true
                    form_id=format!("alias-{id}") hint="Follows the inherited value when it changes."/>
            </div>
            <EditorButtons label="Alias" pending=Signal::derive(move || form.pending()) on_closed/>
        </form>
    }
}

/// A secret's value is typed unseen.
fn value_input(secret: bool) -> &'static str {
    if secret {
        "password"
    } else {
        "text"
    }
}

/// Send and Cancel under an editor of a row.
#[component]
fn EditorButtons(
    label: &'static str,
    pending: Signal<bool>,
    on_closed: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="variables__buttons">
            <button type="submit" class="button button--primary button--small" disabled=move || pending.get()>{label}</button>
            <button type="button" class="button button--secondary button--small" on:click=move |_| on_closed.run(())>"Cancel"</button>
        </div>
    }
}

#[component]
fn AddVariable(levels: Levels, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let key = RwSignal::new(String::new());
    let value = RwSignal::new(String::new());
    let secret = RwSignal::new(false);
    let mount_path = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let at = RwSignal::new(levels[0].0);
    let form = Form::new(
        move |request: VariableCreation| async move { api.create_variable(&request).await },
        move |created: EnvironmentVariable| {
            key.set(String::new());
            value.set(String::new());
            // The next variable is not a secret unless the person says so again.
            secret.set(false);
            mount_path.set(String::new());
            description.set(String::new());
            on_created.run(());
            format!("{} added.", created.key)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let level = at.get_untracked();
        let (path, description) = (mount_path.get_untracked(), description.get_untracked());
        let request = VariableCreation {
            variable: VariableRequest {
                key: key.get_untracked().trim().to_string(),
                value: Some(value.get_untracked()),
                mount_path: (!path.trim().is_empty()).then(|| path.trim().to_string()),
                description: (!description.trim().is_empty()).then_some(description),
                enable_interpolation_in_file: false,
            },
            is_secret: secret.get_untracked(),
            variable_scope: level.scope,
            variable_parent_id: level.parent,
        };
        let checked = request.variable.validate(false);
        form.submit(request, checked);
    };
    let options: Vec<(Level, String)> = levels
        .iter()
        .map(|(level, label)| (*level, label.to_string()))
        .collect();
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a variable">
            <h2>"New variable"</h2>
            <div class="form-grid">
                <TextField label="Key" name="key" value=key errors required=true placeholder="DATABASE_URL"
                    hint="Letters, digits and _; not starting with a digit. Case sensitive."/>
                {move || view! {
                    <TextField label="Value" name="value" value errors input_type=value_input(secret.get())/>
                }}
                <ChoiceField label="Defined at" name="variable_scope" value=at options errors/>
                <TextField label="File path" name="mount_path" value=mount_path errors placeholder="/etc/app/config.yaml"
                    hint="Optional: mounts the value as a file at this absolute path."/>
                <TextField label="Description" name="description" value=description errors/>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="is_secret" bind:checked=secret/>
                " Secret: its value is never shown again, not even here"
            </label>
            <p class="field__error">{move || error_for(errors, "variable_parent_id").get()}</p>
            <SubmitButton form label="Add variable"/>
        </form>
    }
}
