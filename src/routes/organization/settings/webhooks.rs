//! `/organization/:org/settings/webhooks`: where the platform sends deployment events. Each
//! webhook with its filters and, on demand, its latest deliveries and every attempt made; a form
//! to add one.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{
    DeliveryStatus, EnvironmentMode, RolePermission, Webhook, WebhookEvent, WebhookRequest,
    WireEnum,
};
use uuid::Uuid;

use crate::api::webhook::Delivery;
use crate::api::{use_api, Enhancement};
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{error_for, field_id, EnumSelect, FieldScope, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::components::toggle_button::ToggleButton;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::settings::SettingsHeader;
use crate::routes::organization::{organization_records, replace_record};
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::toasts::use_toasts;

/// How often open deliveries are polled: often while one is being retried, calmly otherwise, so
/// that new events show up.
const POLL_PENDING: Duration = Duration::from_secs(2);
const POLL_SETTLED: Duration = Duration::from_secs(10);

#[component]
pub fn Webhooks() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let webhooks_list = organization_records(|api, org| async move { api.webhooks(org).await });
    view! {
        <SettingsHeader title="Webhooks"
            lead="Where the platform sends deployment events, signed with the webhook's secret."/>
        <section class="card" aria-labelledby="webhooks-title">
            <h2 id="webhooks-title">"All webhooks"</h2>
            {loaded(webhooks_list, 3, move |(org, webhooks)| view! {
                <WebhookList org webhooks on_changed=Callback::new(move |_| webhooks_list.refetch())
                    on_saved=Callback::new(move |saved| replace_record(webhooks_list, saved, |webhook: &Webhook| webhook.id))/>
            })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="New webhook" needs=RolePermission::Admin><WebhookForm org editing=None on_saved=Callback::new(move |_| webhooks_list.refetch())/></NewDialog>
        })}
    }
}

#[component]
fn WebhookList(
    org: Uuid,
    webhooks: Vec<Webhook>,
    on_changed: Callback<()>,
    on_saved: Callback<Webhook>,
) -> impl IntoView {
    if webhooks.is_empty() {
        return view! {
            <EmptyState title="No webhook yet"
                hint="Add one with the button below: its URL receives a POST at each deployment event."/>
        }
        .into_any();
    }
    view! {
        <ul class="record-list">
            {webhooks.into_iter().map(|webhook| view! { <WebhookItem org webhook on_changed on_saved/> }).collect_view()}
        </ul>
    }
    .into_any()
}

#[component]
fn WebhookItem(
    org: Uuid,
    webhook: Webhook,
    on_changed: Callback<()>,
    on_saved: Callback<Webhook>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let open = RwSignal::new(false);
    let editing = RwSignal::new(false);
    let id = webhook.id;
    let enabled = webhook.enabled;
    let toggled = {
        let mut request = webhook.to_request();
        request.enabled = !enabled;
        request
    };
    let toggle = Action::new_local(move |request: &WebhookRequest| {
        let request = request.clone();
        async move {
            match api.update_webhook(org, id, &request).await {
                Ok(saved) => {
                    toasts.success(if request.enabled {
                        "Webhook enabled."
                    } else {
                        "Webhook disabled."
                    });
                    on_saved.run(saved);
                }
                Err(error) => toasts.error(error.to_string()),
            }
        }
    });
    // Offered while the API may send test events (the platform does not).
    let can_test = RwSignal::new(!api.lacks(Enhancement::WebhookTest));
    let send_test = Action::new_local(move |_: &()| async move {
        match api.test_webhook(org, id).await {
            Ok(Some(_)) => {
                toasts.success("Test event sent: its delivery is listed below.");
                open.set(true);
            }
            Ok(None) => can_test.set(false),
            Err(error) => toasts.error(error.to_string()),
        }
    });
    let test_refusal = (!enabled).then_some("Enable the webhook to send it a test event.");
    let record = webhook.clone();
    // Each button names its webhook, for a list of several read by a screen reader.
    let named = |action: &str| format!("{action} {}", webhook.target_url);
    let (edit_name, toggle_name, test_name) = (
        named("Edit"),
        named(if enabled { "Disable" } else { "Enable" }),
        named("Send a test event to"),
    );
    let events = webhook
        .events
        .iter()
        .map(|event| event.label())
        .collect::<Vec<_>>()
        .join(", ");
    let projects = if webhook.project_names_filter.is_empty() {
        "every project".to_string()
    } else {
        webhook.project_names_filter.join(", ")
    };
    let modes = if webhook.environment_types_filter.is_empty() {
        "every environment".to_string()
    } else {
        webhook
            .environment_types_filter
            .iter()
            .map(|mode| mode.label())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let target = webhook.target_url.clone();
    view! {
        <li class="record" data-webhook=id.to_string()>
            <div class="record__head">
                <span class="mono record__title">{webhook.target_url}</span>
                <span class="tag">{webhook.kind.label()}</span>
                {if webhook.enabled {
                    view! { <span class="tag tag--preview">"Enabled"</span> }.into_any()
                } else {
                    view! { <span class="tag">"Disabled"</span> }.into_any()
                }}
                <span class="muted">{if webhook.target_secret_set { "Signed" } else { "Unsigned" }}</span>
            </div>
            <dl class="facts">
                <dt>"Events"</dt><dd>{events}</dd>
                <dt>"Projects"</dt><dd>{projects}</dd>
                <dt>"Environments"</dt><dd>{modes}</dd>
            </dl>
            <div class="record__actions">
                <ToggleButton open label="Deliveries" open_label="Hide deliveries"/>
                <ToggleButton open=editing label="Edit" open_label="Close the form" name=edit_name/>
                <button type="button" class="button button--small button--secondary"
                    disabled=move || toggle.pending().get() aria-label=toggle_name
                    on:click=move |_| { toggle.dispatch_local(toggled.clone()); }>
                    {if enabled { "Disable" } else { "Enable" }}
                </button>
                <Show when=move || can_test.get()>
                    <button type="button" class="button button--small button--secondary"
                        disabled=move || test_refusal.is_some() || send_test.pending().get()
                        title=test_refusal aria-label=test_name.clone()
                        on:click=move |_| { send_test.dispatch_local(()); }>
                        "Send a test event"
                    </button>
                </Show>
                <DeleteButton question="Delete this webhook?" item=target
                    consequence="It gets no more events, and the record of its deliveries goes with it."
                    done="Webhook deleted."
                    delete=move || async move { api.delete_webhook(org, id).await } on_deleted=on_changed/>
            </div>
            <Show when=move || editing.get()>
                <WebhookForm org editing=Some(record.clone()) on_saved/>
            </Show>
            <Show when=move || open.get()>
                <Deliveries org webhook=id/>
            </Show>
        </li>
    }
}

#[component]
fn Deliveries(org: Uuid, webhook: Uuid) -> impl IntoView {
    let api = use_api();
    let deliveries = resource(move || async move { api.webhook_deliveries(org, webhook).await });
    poll(
        move || match deliveries.get() {
            Some(Ok(list)) if list.iter().any(|d| d.status == DeliveryStatus::Pending) => {
                Some(POLL_PENDING)
            }
            Some(_) => Some(POLL_SETTLED),
            None => None,
        },
        move || deliveries.refetch(),
    );
    view! {
        <div class="deliveries">
            {loaded(deliveries, 3, |deliveries| view! { <DeliveryTable deliveries/> })}
        </div>
    }
}

#[component]
fn DeliveryTable(deliveries: Vec<Delivery>) -> impl IntoView {
    if deliveries.is_empty() {
        return view! {
            <p class="muted">"Nothing sent yet: events arrive here as deployments start and end."</p>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Event"</th>
                <th scope="col">"Service"</th>
                <th scope="col">"Delivery"</th>
                <th scope="col">"Attempts"</th>
                <th scope="col">"Last answer"</th>
                <th scope="col">"When"</th>
            </tr></thead>
            <tbody>
                {deliveries.into_iter().map(|delivery| {
                    let (tone, label) = match delivery.status {
                        DeliveryStatus::Delivered => ("success", "Delivered"),
                        DeliveryStatus::Pending => ("progress", "Retrying"),
                        DeliveryStatus::Failed => ("failure", "Failed"),
                        DeliveryStatus::Other(status) => ("neutral", status),
                    };
                    view! {
                        <tr data-delivery=delivery.id.to_string()>
                            <td>{delivery.event.label()}</td>
                            <td>{delivery.about.unwrap_or_else(|| "—".into())}</td>
                            <td>
                                <span class=format!("badge badge--{tone}") title=delivery.outcome.unwrap_or_default()>
                                    <span class="badge__dot" aria-hidden="true"></span>{label}
                                </span>
                            </td>
                            <td>{delivery.attempts.map_or_else(|| "—".to_string(), |count| count.to_string())}</td>
                            <td class="mono">{delivery.last_answer.unwrap_or_else(|| "—".into())}</td>
                            <td><RelativeTime at=delivery.at/></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

/// Adds a webhook, or, `editing` one, saves it whole (its secret kept unless a new one is typed).
#[component]
fn WebhookForm(org: Uuid, editing: Option<Webhook>, on_saved: Callback<Webhook>) -> impl IntoView {
    let api = use_api();
    let saved = editing
        .as_ref()
        .map(Webhook::to_request)
        .unwrap_or_else(WebhookRequest::new_webhook);
    let secret_set = editing
        .as_ref()
        .is_some_and(|webhook| webhook.target_secret_set);
    let existing = editing.as_ref().map(|webhook| webhook.id);
    if let Some(id) = existing {
        provide_context(FieldScope(id.to_string()));
    }
    let events_error_id = format!("{}-error", field_id("events"));
    let events_described_by = events_error_id.clone();
    let target_url = RwSignal::new(saved.target_url.clone());
    let secret = RwSignal::new(String::new());
    let kind = RwSignal::new(saved.kind);
    let projects = RwSignal::new(saved.project_names_filter.join(", "));
    let enabled = saved.enabled;
    let events: Vec<(WebhookEvent, RwSignal<bool>)> = WebhookEvent::ALL
        .iter()
        .map(|event| (*event, RwSignal::new(saved.events.contains(event))))
        .collect();
    let modes: Vec<(EnvironmentMode, RwSignal<bool>)> = EnvironmentMode::ALL
        .iter()
        .map(|mode| {
            (
                *mode,
                RwSignal::new(saved.environment_types_filter.contains(mode)),
            )
        })
        .collect();
    let form = Form::new(
        move |request: WebhookRequest| async move {
            match existing {
                Some(id) => api.update_webhook(org, id, &request).await,
                None => api.create_webhook(org, &request).await,
            }
        },
        move |saved: Webhook| {
            secret.set(String::new());
            if existing.is_none() {
                target_url.set(String::new());
                projects.set(String::new());
            }
            on_saved.run(saved);
            if existing.is_some() {
                "Webhook saved."
            } else {
                "Webhook added."
            }
            .to_string()
        },
    );
    let errors = form.errors;
    let events_error = error_for(errors, "events");

    let (chosen_events, chosen_modes) = (events.clone(), modes.clone());
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let secret = secret.get_untracked();
        let request = WebhookRequest {
            kind: kind.get_untracked(),
            target_url: target_url.get_untracked().trim().to_string(),
            target_secret: (!secret.is_empty()).then_some(secret),
            description: saved.description.clone(),
            enabled,
            events: chosen_events
                .iter()
                .filter(|(_, on)| on.get_untracked())
                .map(|(event, _)| *event)
                .collect(),
            project_names_filter: projects
                .get_untracked()
                .split(',')
                .map(str::trim)
                .filter(|pattern| !pattern.is_empty())
                .map(str::to_string)
                .collect(),
            environment_types_filter: chosen_modes
                .iter()
                .filter(|(_, on)| on.get_untracked())
                .map(|(mode, _)| *mode)
                .collect(),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    let (label, title, button) = if existing.is_some() {
        ("Edit the webhook", "Edit", "Save webhook")
    } else {
        ("Add a webhook", "New webhook", "Add webhook")
    };
    let secret_hint = if secret_set {
        "A secret is set: leave empty to keep it, or type a new one."
    } else {
        "Signs each delivery (X-Platform-Signature); never shown again."
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label=label>
            <h2>{title}</h2>
            <div class="form-grid">
                <TextField label="Target URL" name="target_url" value=target_url errors required=true
                    placeholder="https://hooks.example.com/deployments"/>
                <EnumSelect label="Kind" name="kind" value=kind errors/>
                <TextField label="Signing secret" name="target_secret" value=secret errors
                    input_type="password" hint=secret_hint/>
                <TextField label="Projects" name="project_names_filter" value=projects errors
                    placeholder="shop*, api" hint="Comma-separated names; * matches anything. Empty: every project."/>
            </div>
            <fieldset class="choices" aria-describedby=events_described_by>
                <legend>"Events *"</legend>
                {events.into_iter().map(|(event, on)| view! {
                    <label class="checkbox"><input type="checkbox" name="events" value=event.as_str() bind:checked=on/>{event.label()}</label>
                }).collect_view()}
                <p class="field__error" id=events_error_id>{move || events_error.get()}</p>
            </fieldset>
            <fieldset class="choices">
                <legend>"Environments (none ticked: every environment)"</legend>
                {modes.into_iter().map(|(mode, on)| view! {
                    <label class="checkbox"><input type="checkbox" name="environment_types_filter" value=mode.as_str() bind:checked=on/>{mode.label()}</label>
                }).collect_view()}
            </fieldset>
            <SubmitButton form label=button/>
        </form>
    }
}
