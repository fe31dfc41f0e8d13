//! The advanced settings of a service or a cluster (`AdvancedSettingsEditor`): every setting of
//! its owner, grouped by what it tunes, each with what it does, its type and its default, marked
//! when changed from it; found by name, edited, reset to its default, and saved together once
//! `platform_api::advanced_settings` finds them of their types.

use leptos::prelude::*;
use platform_api::advanced_settings::{AdvancedSettings, Setting, SettingType, SettingsOf};
use platform_api::text_rule::TextRule;
use platform_api::{FieldError, RolePermission};
use serde_json::Value;

use crate::api::advanced_settings::SettingsOwner;
use crate::api::{use_api, ApiError};
use crate::components::form::Form;
use crate::components::form_field::{error_for, field_id};
use crate::components::loaded::loaded;
use crate::state::resource::resource;
use crate::state::role::Permitted;

/// The settings of `owner`, read with their defaults (the platform's, or the document's when
/// the API does not answer them), for `on_saved` to learn of a save.
#[component]
pub fn AdvancedSettingsEditor(
    owner: SettingsOwner,
    /// Who may change them: writers for a service, admins for a cluster.
    needed: RolePermission,
    #[prop(into)] on_saved: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let Some(of) = owner.settings_of() else {
        return view! { <p class="muted">"This kind of service has no advanced settings."</p> }
            .into_any();
    };
    let settings = resource(move || async move {
        let (current, defaults) = futures::join!(
            api.advanced_settings(owner),
            api.advanced_settings_defaults(of)
        );
        Ok::<_, ApiError>((current?, defaults.unwrap_or_else(|_| of.defaults())))
    });
    view! {
        {loaded(settings, 10, move |(current, defaults)| view! {
            <Editor owner of current defaults needed on_saved/>
        })}
    }
    .into_any()
}

/// One setting as the editor holds it: the text typed, and the default it is compared with.
#[derive(Clone, Copy)]
struct Row {
    setting: &'static Setting,
    draft: RwSignal<String>,
    default: StoredValue<Value>,
}

impl Row {
    fn changed(&self) -> bool {
        self.draft
            .with(|draft| parse(self.setting, draft).ok())
            .is_some_and(|value| self.default.with_value(|default| value != *default))
    }

    fn matches(&self, words: &str) -> bool {
        words.is_empty()
            || self.setting.key.contains(words)
            || self.setting.about.to_lowercase().contains(words)
    }
}

#[component]
fn Editor(
    owner: SettingsOwner,
    of: SettingsOf,
    current: AdvancedSettings,
    defaults: AdvancedSettings,
    needed: RolePermission,
    on_saved: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let permitted = Permitted::new(needed, "change advanced settings");
    // As the API last answered: what a save sends back, the drafts laid over it.
    let saved = RwSignal::new(current);
    let rows: Vec<Row> = of
        .settings()
        .map(|setting| Row {
            setting,
            draft: RwSignal::new(
                saved.with_untracked(|saved| text_of(setting, saved.get(setting.key))),
            ),
            default: StoredValue::new(
                defaults
                    .get(setting.key)
                    .cloned()
                    .unwrap_or_else(|| setting.default()),
            ),
        })
        .collect();
    let rows = StoredValue::new(rows);
    let edited = move || {
        rows.with_value(|rows| {
            saved.with(|saved| {
                rows.iter()
                    .filter(|row| {
                        row.draft.get() != text_of(row.setting, saved.get(row.setting.key))
                    })
                    .count()
            })
        })
    };
    let form = Form::new(
        move |settings: AdvancedSettings| async move {
            api.edit_advanced_settings(owner, &settings).await
        },
        move |answer: AdvancedSettings| {
            rows.with_value(|rows| {
                for row in rows {
                    row.draft
                        .set(text_of(row.setting, answer.get(row.setting.key)));
                }
            });
            saved.set(answer);
            on_saved.run(());
            "Advanced settings saved.".to_string()
        },
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut settings = saved.get_untracked();
        let mut problems = Vec::new();
        rows.with_value(|rows| {
            for row in rows {
                match row.draft.with_untracked(|draft| parse(row.setting, draft)) {
                    Ok(value) => {
                        settings.insert(row.setting.key.to_string(), value);
                    }
                    Err(problem) => problems.push(problem),
                }
            }
        });
        let checked = if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        };
        form.submit(settings, checked);
    };
    let discard = move |_| {
        rows.with_value(|rows| {
            saved.with_untracked(|saved| {
                for row in rows {
                    row.draft
                        .set(text_of(row.setting, saved.get(row.setting.key)));
                }
            })
        });
        form.errors.set(Vec::new());
    };
    let words = RwSignal::new(String::new());
    let only_changed = RwSignal::new(false);
    let shown = move |row: &Row| {
        row.matches(&words.get().trim().to_lowercase()) && (!only_changed.get() || row.changed())
    };
    let changed_count = move || rows.with_value(|rows| rows.iter().filter(|r| r.changed()).count());
    let groups = rows.with_value(|rows| grouped(rows));
    let find_id = field_id("advanced-settings-find");
    view! {
        <form class="advanced-settings" on:submit=submit novalidate>
            <div class="filters">
                <div class="field">
                    <label for=find_id.clone()>"Find a setting"</label>
                    <input id=find_id type="search" placeholder="timeout, cors, build…"
                        bind:value=words/>
                </div>
                <label class="checkbox">
                    <input type="checkbox" bind:checked=only_changed/>
                    {move || format!("Only the {} changed from their defaults", changed_count())}
                </label>
            </div>
            {groups.into_iter().map(|(title, group)| {
                let group_shown = {
                    let group = group.clone();
                    move || group.iter().any(&shown)
                };
                view! {
                    <fieldset class="settings-group" hidden=move || !group_shown()>
                        <legend>{title}</legend>
                        {group.into_iter().map(|row| view! {
                            <SettingRow row errors=form.errors hidden=Signal::derive(move || !shown(&row))/>
                        }).collect_view()}
                    </fieldset>
                }
            }).collect_view()}
            <p class="muted" hidden=move || rows.with_value(|rows| rows.iter().any(&shown))>
                "No setting matches."
            </p>
            <div class="actions advanced-settings__actions">
                <button type="button" class="button button--secondary" on:click=discard
                    disabled=move || edited() == 0>
                    "Discard changes"
                </button>
                <button type="submit" class="button button--primary"
                    disabled=move || edited() == 0 || form.pending() || permitted.refusal().is_some()
                    title=move || permitted.refusal()>
                    {move || match edited() {
                        0 => "Nothing to save".to_string(),
                        1 => "Save 1 change".to_string(),
                        n => format!("Save {n} changes"),
                    }}
                </button>
                <p class="actions__refusal">{move || permitted.refusal()}</p>
            </div>
        </form>
    }
}

/// The rows under the first part of their keys (`build`, `network`…), in the catalogue's order.
fn grouped(rows: &[Row]) -> Vec<(String, Vec<Row>)> {
    let mut groups: Vec<(String, Vec<Row>)> = Vec::new();
    for row in rows {
        let title = group_title(row.setting.key);
        match groups.iter_mut().find(|(t, _)| *t == title) {
            Some((_, group)) => group.push(*row),
            None => groups.push((title, vec![*row])),
        }
    }
    groups
}

fn group_title(key: &str) -> String {
    let first = key.split('.').next().unwrap_or(key);
    match first {
        "hpa" => "Autoscaling".to_string(),
        "aws" => "AWS".to_string(),
        "k8s" => "Kubernetes API".to_string(),
        "cronjob" | "job" => "Job".to_string(),
        other => {
            let mut letters = other.chars();
            letters
                .next()
                .map(|first| first.to_uppercase().chain(letters).collect())
                .unwrap_or_default()
        }
    }
}

#[component]
fn SettingRow(row: Row, errors: RwSignal<Vec<FieldError>>, hidden: Signal<bool>) -> impl IntoView {
    let setting = row.setting;
    let id = field_id(setting.key);
    let error = error_for(errors, setting.key);
    let error_id = format!("{id}-error");
    let default_text = row
        .default
        .with_value(|default| text_of(setting, Some(default)));
    let default_shown = match (&setting.kind, default_text.as_str()) {
        (_, "") => "empty".to_string(),
        (SettingType::Boolean, "true") => "on".to_string(),
        (SettingType::Boolean, _) => "off".to_string(),
        (SettingType::TextList(_) | SettingType::Labels, text) => text.replace('\n', ", "),
        (_, text) => text.to_string(),
    };
    let reset_to = default_text.clone();
    let at_default = move || row.draft.get() == default_text;
    let input = match setting.kind {
        SettingType::Boolean => view! {
            <input id=id.clone() type="checkbox"
                prop:checked=move || row.draft.get() == "true"
                on:change=move |event| row.draft.set(event_target_checked(&event).to_string())
                aria-describedby=error_id.clone()/>
        }
        .into_any(),
        SettingType::OneOf(values) | SettingType::Text(TextRule::Word(values)) => view! {
            <select id=id.clone() prop:value=move || row.draft.get()
                on:change=move |event| row.draft.set(event_target_value(&event))
                aria-describedby=error_id.clone()>
                {values.iter().map(|value| view! {
                    <option value=*value selected=move || row.draft.get() == *value>{*value}</option>
                }).collect_view()}
            </select>
        }
        .into_any(),
        SettingType::TextList(_) | SettingType::Labels => view! {
            <textarea id=id.clone() rows="2" bind:value=row.draft
                placeholder=if setting.kind == SettingType::Labels { "name=value, a line each" } else { "a value per line" }
                aria-describedby=error_id.clone()></textarea>
        }
        .into_any(),
        SettingType::Integer { .. } => view! {
            <input id=id.clone() type="text" inputmode="numeric" bind:value=row.draft
                aria-describedby=error_id.clone()/>
        }
        .into_any(),
        SettingType::Text(_) => view! {
            <input id=id.clone() type="text" bind:value=row.draft
                aria-describedby=error_id.clone()/>
        }
        .into_any(),
    };
    view! {
        <div class="setting field" class:field--invalid=move || error.get().is_some()
            data-key=setting.key data-changed=move || row.changed().to_string() hidden=hidden>
            <div class="setting__head">
                <label for=id><code>{setting.key}</code></label>
                <span class="badge badge--progress" hidden=move || !row.changed()>"Changed"</span>
            </div>
            <p class="setting__about">{setting.about}</p>
            <div class="setting__value">
                {input}
                <button type="button" class="button button--small button--secondary"
                    disabled=at_default.clone()
                    on:click=move |_| row.draft.set(reset_to.clone())>
                    "Reset to default"
                </button>
            </div>
            <p class="field__hint">
                {setting.kind.label()}{setting.nullable.then_some(", or empty")}
                " · Default: "{default_shown}
            </p>
            <p class="field__error" id=error_id>{move || error.get()}</p>
        </div>
    }
}

/// A setting's value as typed: a list a line per value, names a line each as `name=value`,
/// nothing for null.
fn text_of(setting: &Setting, value: Option<&Value>) -> String {
    match value.unwrap_or(&Value::Null) {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map_or_else(|| item.to_string(), str::to_string)
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(labels) if setting.kind == SettingType::Labels => labels
            .iter()
            .map(|(name, value)| format!("{name}={}", value.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

/// The value `text` stands for, checked against the setting's type.
fn parse(setting: &Setting, text: &str) -> Result<Value, FieldError> {
    let trimmed = text.trim();
    let problem = |message: &str| FieldError::new(setting.key, message);
    let value = match setting.kind {
        _ if setting.nullable && trimmed.is_empty() => Value::Null,
        SettingType::Boolean => Value::Bool(trimmed == "true"),
        SettingType::Integer { .. } => trimmed
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| problem("must be a whole number"))?,
        SettingType::OneOf(_) | SettingType::Text(TextRule::Word(_)) => {
            Value::String(trimmed.to_string())
        }
        SettingType::Text(_) => Value::String(text.to_string()),
        SettingType::TextList(_) => Value::Array(
            lines(text)
                .map(|line| Value::String(line.to_string()))
                .collect(),
        ),
        SettingType::Labels => {
            let mut labels = serde_json::Map::new();
            for (number, line) in lines(text).enumerate() {
                let (name, value) = line
                    .split_once('=')
                    .ok_or_else(|| problem(&format!("line {} must be name=value", number + 1)))?;
                labels.insert(
                    name.trim().to_string(),
                    Value::String(value.trim().to_string()),
                );
            }
            Value::Object(labels)
        }
    };
    match setting.check(&value) {
        Some(broken) => Err(broken),
        None => Ok(value),
    }
}

/// The lines of `text` that hold something, trimmed.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim).filter(|line| !line.is_empty())
}
