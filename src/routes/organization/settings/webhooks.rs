//! `/organization/:org/settings/webhooks`: where the platform sends deployment events. Each
//! webhook with its filters and, on demand, its latest deliveries and every attempt made; a form
//! to add one.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{
    DeliveryStatus, EnvironmentMode, Webhook, WebhookDelivery, WebhookEvent, WebhookKind,
    WebhookRequest, WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::Form;
use crate::components::form_field::{error_for, EnumSelect, TextField};
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;
use crate::routes::param_id;
use crate::state::polling::poll;

/// How often open deliveries are polled: often while one is being retried, calmly otherwise, so
/// that new events show up.
const POLL_PENDING: Duration = Duration::from_secs(2);
const POLL_SETTLED: Duration = Duration::from_secs(10);

#[component]
pub fn Webhooks() -> impl IntoView {
    let org = param_id("org");
    let webhooks_list = organization_records(|api, org| async move { api.webhooks(org).await });
    view! {
        <SettingsHeader title="Webhooks"
            lead="Where the platform sends deployment events, signed with the webhook's secret."/>
        <section class="card" aria-labelledby="webhooks-title">
            <h2 id="webhooks-title">"All webhooks"</h2>
            {loaded(webhooks_list, 3, move |(org, webhooks)| view! {
                <WebhookList org webhooks on_deleted=Callback::new(move |_| webhooks_list.refetch())/>
            })}
        </section>
        {move || org.get().map(|org| view! {
            <CreateWebhook org on_created=Callback::new(move |_| webhooks_list.refetch())/>
        })}
    }
}

#[component]
fn WebhookList(org: Uuid, webhooks: Vec<Webhook>, on_deleted: Callback<()>) -> impl IntoView {
    if webhooks.is_empty() {
        return view! {
            <EmptyState title="No webhook yet"
                hint="Add one with the form below: its URL receives a POST at each deployment event."/>
        }
        .into_any();
    }
    view! {
        <ul class="webhooks">
            {webhooks.into_iter().map(|webhook| view! { <WebhookItem org webhook on_deleted/> }).collect_view()}
        </ul>
    }
    .into_any()
}

#[component]
fn WebhookItem(org: Uuid, webhook: Webhook, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    let open = RwSignal::new(false);
    let id = webhook.id;
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
        <li class="webhook" data-webhook=id.to_string()>
            <div class="webhook__head">
                <span class="mono webhook__target">{webhook.target_url}</span>
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
            <div class="webhook__actions">
                <button type="button" class="button button--small button--secondary"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|open| *open = !*open)>
                    {move || if open.get() { "Hide deliveries" } else { "Deliveries" }}
                </button>
                <DeleteButton question="Delete this webhook?" item=target
                    consequence="It gets no more events, and the record of its deliveries goes with it."
                    done="Webhook deleted."
                    delete=move || async move { api.delete_webhook(org, id).await } on_deleted=on_deleted/>
            </div>
            <Show when=move || open.get()>
                <Deliveries org webhook=id/>
            </Show>
        </li>
    }
}

#[component]
fn Deliveries(org: Uuid, webhook: Uuid) -> impl IntoView {
    let api = use_api();
    let deliveries =
        LocalResource::new(move || async move { api.webhook_deliveries(org, webhook).await });
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
fn DeliveryTable(deliveries: Vec<WebhookDelivery>) -> impl IntoView {
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
                    };
                    let last = delivery.attempts.last().map(|attempt| match (attempt.status_code, &attempt.error) {
                        (Some(code), _) => code.to_string(),
                        (None, Some(error)) => error.clone(),
                        (None, None) => String::new(),
                    });
                    let payload = delivery.payload;
                    view! {
                        <tr data-delivery=delivery.id.to_string()>
                            <td>{delivery.event_type.label()}</td>
                            <td>{format!("{} · {} · {}", payload.project_name, payload.environment_name, payload.service_name)}</td>
                            <td>
                                <span class=format!("badge badge--{tone}") title=delivery.outcome.unwrap_or_default()>
                                    <span class="badge__dot" aria-hidden="true"></span>{label}
                                </span>
                            </td>
                            <td>{delivery.attempts.len()}</td>
                            <td class="mono">{last.unwrap_or_else(|| "—".into())}</td>
                            <td><RelativeTime at=delivery.created_at/></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn CreateWebhook(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let target_url = RwSignal::new(String::new());
    let secret = RwSignal::new(String::new());
    let kind = RwSignal::new(WebhookKind::Standard);
    let projects = RwSignal::new(String::new());
    let events: Vec<(WebhookEvent, RwSignal<bool>)> = WebhookEvent::ALL
        .iter()
        .map(|event| (*event, RwSignal::new(true)))
        .collect();
    let modes: Vec<(EnvironmentMode, RwSignal<bool>)> = EnvironmentMode::ALL
        .iter()
        .map(|mode| (*mode, RwSignal::new(false)))
        .collect();
    let form = Form::new(
        move |request: WebhookRequest| async move { api.create_webhook(org, &request).await },
        move |_: Webhook| {
            target_url.set(String::new());
            secret.set(String::new());
            projects.set(String::new());
            on_created.run(());
            "Webhook added.".to_string()
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
            description: None,
            enabled: true,
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
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add a webhook">
            <h2>"New webhook"</h2>
            <div class="form-grid">
                <TextField label="Target URL" name="target_url" value=target_url errors required=true
                    placeholder="https://hooks.example.com/deployments"/>
                <EnumSelect label="Kind" name="kind" value=kind errors/>
                <TextField label="Signing secret" name="target_secret" value=secret errors
                    input_type="password" hint="Signs each delivery (X-Platform-Signature); never shown again."/>
                <TextField label="Projects" name="project_names_filter" value=projects errors
                    placeholder="shop*, api" hint="Comma-separated names; * matches anything. Empty: every project."/>
            </div>
            <fieldset class="choices" aria-describedby="field-events-error">
                <legend>"Events *"</legend>
                {events.into_iter().map(|(event, on)| view! {
                    <label class="checkbox"><input type="checkbox" name="events" value=event.as_str() bind:checked=on/>{event.label()}</label>
                }).collect_view()}
                <p class="field__error" id="field-events-error">{move || events_error.get()}</p>
            </fieldset>
            <fieldset class="choices">
                <legend>"Environments (none ticked: every environment)"</legend>
                {modes.into_iter().map(|(mode, on)| view! {
                    <label class="checkbox"><input type="checkbox" name="environment_types_filter" value=mode.as_str() bind:checked=on/>{mode.label()}</label>
                }).collect_view()}
            </fieldset>
            <button type="submit" class="button button--primary" disabled=move || form.pending()>
                "Add webhook"
            </button>
        </form>
    }
}
