//! "Alert me when…": the service's alert rules with their states, and a rule made from one of the
//! platform's presets, its threshold, duration, severity and receivers editable before it is
//! created. Without a receiver, the form says where to make one. The form's code is fetched when a
//! preset is first opened (`LoadPresetForm`): most visits to the tab only read the charts.

use std::time::Duration;

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use leptos_router::components::A;
use platform_api::{
    AlertReceiver, AlertRuleCreationRequest, AlertRuleResponse, AlertTarget, AlertTargetType,
    FieldError, Preset,
};
use uuid::Uuid;

use super::super::use_addressed_service;
use super::Watched;
use crate::api::use_api;
use crate::components::fetched::{fetched, FetchedContent};
use crate::components::form::Form;
use crate::components::form_field::{CheckboxGroup, EnumSelect, TextField};
use crate::components::loaded::loaded;
use crate::components::status_badge::AlertStateBadge;
use crate::paths;
use crate::state::polling::poll;
use crate::state::resource::resource;

/// How often the rules' states are read again while the tab is shown.
const RULES_EVERY: Duration = Duration::from_secs(30);

#[component]
pub fn ServiceAlerts(watched: Watched) -> impl IntoView {
    let watchable = AlertTargetType::of_service(watched.target.kind, None).is_some();
    if !watchable {
        return view! {
            <section class="card" aria-labelledby="alerts-title">
                <h2 id="alerts-title">"Alerts"</h2>
                <p class="muted">
                    "The platform's alert rules watch applications, containers and jobs; this \
                     service's health shows above."
                </p>
            </section>
        }
        .into_any();
    }
    let api = use_api();
    let addressed = use_addressed_service();
    let job_type = move || addressed.record.get()?.ok()?.job_type();
    let target_type = move || AlertTargetType::of_service(watched.target.kind, job_type());
    let (org, service) = (watched.organization, watched.target.id);
    let rules = resource(move || async move {
        let rules = api.alert_rules(org).await?;
        Ok(rules
            .into_iter()
            .filter(|rule| rule.target.target_id == service)
            .collect::<Vec<_>>())
    });
    poll(
        move || rules.get().map(|_| RULES_EVERY),
        move || rules.refetch(),
    );
    let watched = StoredValue::new(watched);
    view! {
        <section class="card" aria-labelledby="alerts-title">
            <div class="card__header">
                <h2 id="alerts-title">"Alerts"</h2>
                <A href=paths::alerts(org)>"Every rule of the organization"</A>
            </div>
            {loaded(rules, 2, |rules: Vec<AlertRuleResponse>| view! { <RuleList rules/> })}
            {move || target_type().map(|target_type| view! {
                <Presets watched=watched.get_value() target_type on_created=Callback::new(move |()| rules.refetch())/>
            })}
        </section>
    }
    .into_any()
}

/// The service's rules and where each stands.
#[component]
fn RuleList(rules: Vec<AlertRuleResponse>) -> impl IntoView {
    if rules.is_empty() {
        return view! { <p class="muted">"No alert rule watches this service yet."</p> }.into_any();
    }
    view! {
        <ul class="presets" aria-label="This service's alert rules">
            {rules.into_iter().map(|rule| view! {
                <li data-rule=rule.id.to_string()>
                    <AlertStateBadge state=rule.state/>" "
                    <strong>{rule.rule.name.clone()}</strong>" "
                    <span class="muted">{rule.rule.description.clone()}</span>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}

/// The presets the service offers, one opened as a form.
#[component]
fn Presets(
    watched: Watched,
    target_type: AlertTargetType,
    on_created: Callback<()>,
) -> impl IntoView {
    let LoadPresetForm(load) = expect_context();
    let chosen = RwSignal::new(None::<Preset>);
    let offered: Vec<Preset> = Preset::ALL
        .into_iter()
        .filter(|preset| preset.applies_to(&watched.workload))
        .collect();
    let watched = StoredValue::new(watched);
    view! {
        <h3>"Alert me when…"</h3>
        <ul class="presets">
            {offered.into_iter().map(|preset| view! {
                <li>
                    <button type="button" class="link-button"
                        aria-expanded=move || (chosen.get() == Some(preset)).to_string()
                        on:click=move |_| chosen.set(Some(preset))>
                        {preset.label()}
                    </button>
                </li>
            }).collect_view()}
        </ul>
        {move || chosen.get().map(|preset| {
            let opened = OpenedPreset { watched: watched.get_value(), target_type, preset, chosen, on_created };
            let content: FetchedContent = Box::pin(async move { Ok(load().await?(opened)) });
            fetched(content, 3)
        })}
    }
}

/// A preset opened as a form, and where the form reports back.
pub struct OpenedPreset {
    watched: Watched,
    target_type: AlertTargetType,
    preset: Preset,
    /// The preset opened; the form sets it to none when it is done or cancelled.
    chosen: RwSignal<Option<Preset>>,
    on_created: Callback<()>,
}

/// Builds a preset's form.
pub type PresetFormOf = fn(OpenedPreset) -> AnyView;

/// Fetches a preset's form when one is first opened (behind the split point `app.rs` provides,
/// which hands back the function that builds the form): its code and its read of the receivers
/// are no part of the monitoring tab until then.
#[derive(Clone, Copy)]
pub struct LoadPresetForm(pub fn() -> BoxFuture<'static, Result<PresetFormOf, SplitLoaderError>>);

/// The preset's form, with the receivers it offers, as the split point builds it.
pub fn preset_form(opened: OpenedPreset) -> AnyView {
    let api = use_api();
    let org = opened.watched.organization;
    let receivers = resource(move || async move { api.alert_receivers(org).await });
    let opened = StoredValue::new(opened);
    loaded(receivers, 3, move |receivers: Vec<AlertReceiver>| {
        opened.with_value(|opened| {
            let OpenedPreset { watched, target_type, preset, chosen, on_created } = opened;
            view! {
                <PresetForm watched=watched.clone() target_type=*target_type preset=*preset receivers
                    chosen=*chosen on_created=*on_created/>
            }
        })
    })
    .into_any()
}

/// Minutes of an ISO 8601 duration the presets write (`PT5M`, `PT0S`).
fn minutes_of(duration: &str) -> String {
    platform_api::iso_duration_seconds(duration)
        .map(|seconds| (seconds / 60).to_string())
        .unwrap_or_default()
}

#[component]
fn PresetForm(
    watched: Watched,
    target_type: AlertTargetType,
    preset: Preset,
    receivers: Vec<AlertReceiver>,
    chosen: RwSignal<Option<Preset>>,
    on_created: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let org = watched.organization;
    if receivers.is_empty() {
        return view! {
            <div class="notice notice--info" role="status">
                <p>"An alert needs someone to tell, and the organization has no alert receiver yet."</p>
                <A href=paths::alert_receivers(org)>"Add a Slack or e-mail receiver"</A>
                " in the organization's settings, then come back to set up this alert."
            </div>
        }
        .into_any();
    }
    let preset_rule = preset.rule(&watched.workload, Vec::new());
    let name = RwSignal::new(preset_rule.name.clone());
    let threshold = RwSignal::new(
        preset_rule
            .condition
            .threshold
            .map(|t| t.to_string())
            .unwrap_or_default(),
    );
    let minutes = RwSignal::new(minutes_of(&preset_rule.for_duration));
    let severity = RwSignal::new(preset_rule.severity);
    let first = receivers.first().map(|r| r.id);
    let chosen_receivers = RwSignal::new(first.into_iter().collect::<Vec<Uuid>>());
    let form = Form::new(
        move |request: AlertRuleCreationRequest| async move { api.create_alert_rule(&request).await },
        move |created: platform_api::AlertRuleResponse| {
            chosen.set(None);
            on_created.run(());
            format!("Alert rule “{}” created", created.rule.name)
        },
    );
    let options: Vec<(Uuid, String)> = receivers
        .iter()
        .map(|receiver| (receiver.id, receiver.name.clone()))
        .collect();
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut rule = preset.rule(&watched.workload, chosen_receivers.get_untracked());
        rule.name = name.get_untracked();
        rule.severity = severity.get_untracked();
        let mut problems = Vec::new();
        match threshold.get_untracked().trim().parse::<f64>() {
            Ok(value) => rule.condition.threshold = Some(value),
            Err(_) => problems.push(FieldError::new("condition.threshold", "must be a number")),
        }
        match minutes.get_untracked().trim().parse::<u32>() {
            Ok(minutes) => rule.for_duration = format!("PT{minutes}M"),
            Err(_) => problems.push(FieldError::new(
                "for_duration",
                "must be a whole number of minutes",
            )),
        }
        let request = AlertRuleCreationRequest {
            organization_id: watched.organization,
            cluster_id: watched.cluster,
            target: AlertTarget {
                target_type,
                target_id: watched.target.id,
                service: None,
            },
            rule,
        };
        let checked = match (problems.is_empty(), request.validate()) {
            (true, result) => result,
            (false, Ok(())) => Err(problems),
            (false, Err(more)) => Err(problems.into_iter().chain(more).collect()),
        };
        form.submit(request, checked);
    };
    let errors = form.errors;
    view! {
        <form class="card form-grid" aria-label=preset.label() on:submit=submit>
            <p class="field--wide muted">{preset.label()}</p>
            <TextField label="Name" name="name" value=name errors required=true/>
            <TextField label="Threshold" name="condition.threshold" value=threshold errors
                input_type="number" hint=preset.threshold_hint()/>
            <TextField label="For (minutes)" name="for_duration" value=minutes errors input_type="number"
                hint="How long it must hold before it fires: 0 fires at once."/>
            <EnumSelect label="Severity" name="severity" value=severity errors/>
            <CheckboxGroup legend="Tell" name="alert_receiver_ids" options chosen=chosen_receivers errors/>
            <div class="form-actions field--wide">
                <button type="submit" class="button" disabled=move || form.pending()>"Create the alert"</button>
                <button type="button" class="button button--secondary" on:click=move |_| chosen.set(None)>"Cancel"</button>
            </div>
        </form>
    }
    .into_any()
}
