//! `/organization/:org/settings/alert-receivers`: where alerts go (a Slack channel, or an e-mail
//! address through an SMTP relay), each with whether resolved alerts are sent too; a webhook URL
//! and an SMTP password are kept secret and never shown. A form to add one, which can send a test
//! message before saving; each receiver sends one on request ("Send a test", the platform's
//! `validate`); delete after a confirmation.

use leptos::prelude::*;
use platform_api::{
    AlertReceiver, AlertReceiverCreation, AlertReceiverType, AlertReceiverUpdate, EmailRelay,
    EmailRelayRequest, WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{optional_text, CheckboxField, EnumSelect, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::SettingsHeader;
use crate::state::toasts::use_toasts;

#[component]
pub fn AlertReceivers() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let receivers = organization_records(|api, org| async move { api.alert_receivers(org).await });
    let changed = Callback::new(move |()| receivers.refetch());
    view! {
        <SettingsHeader title="Alert receivers"
            lead="Where the platform's alerts go."/>
        <section class="card" aria-labelledby="receivers-title">
            <h2 id="receivers-title">"All receivers"</h2>
            {loaded(receivers, 3, move |(_, receivers)| view! { <ReceiverTable receivers on_deleted=changed/> })}
        </section>
        {move || org.get().map(|org| view! { <NewDialog label="New alert receiver"><CreateReceiver org on_created=changed/></NewDialog> })}
    }
}

#[component]
fn ReceiverTable(receivers: Vec<AlertReceiver>, on_deleted: Callback<()>) -> impl IntoView {
    if receivers.is_empty() {
        return view! {
            <EmptyState title="No alert receiver yet"
                hint="Add one with the button below: a Slack channel's webhook or an email relay."/>
        }
        .into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Type"</th>
                <th scope="col">"Resolved alerts"</th>
                <th scope="col">"Owner"</th>
                <th scope="col">"Severity"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {receivers.into_iter().map(|receiver| view! { <ReceiverRow receiver on_deleted/> }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn ReceiverRow(receiver: AlertReceiver, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    let id = receiver.id;
    let or_dash = |value: Option<String>| {
        value
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "—".into())
    };
    let toasts = use_toasts();
    let send_test = Action::new_local(move |_: &()| async move {
        match api.test_alert_receiver(id).await {
            Ok(()) => toasts.success("Test message sent."),
            Err(error) => toasts.error(error.to_string()),
        }
    });
    let test_label = format!("Send a test message to {}", receiver.name);
    let goes_to = receiver
        .email
        .to
        .clone()
        .map(|to| format!("to {to}"))
        .unwrap_or_default();
    view! {
        <tr data-receiver=receiver.name.clone()>
            <td>
                <strong>{receiver.name.clone()}</strong>
                <div class="muted cell-note">{receiver.description.clone()}</div>
            </td>
            <td><span class="tag">{receiver.receiver_type.label()}</span>" "<span class="muted">{goes_to}</span></td>
            <td>{if receiver.send_resolved { "Sent" } else { "Not sent" }}</td>
            <td>{or_dash(receiver.owner.clone())}</td>
            <td>{or_dash(receiver.severity.clone())}</td>
            <td class="row-actions">
                <button type="button" class="button button--small button--secondary"
                    aria-label=test_label disabled=move || send_test.pending().get()
                    on:click=move |_| { send_test.dispatch_local(()); }>
                    "Send a test"
                </button>
                <DeleteButton question="Delete this alert receiver?" item=receiver.name.clone()
                    consequence="Alerts no longer go there."
                    done="Alert receiver deleted."
                    delete=move || async move { api.delete_alert_receiver(id).await } on_deleted/>
            </td>
        </tr>
    }
}

#[component]
fn CreateReceiver(org: Uuid, on_created: Callback<()>) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let name = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let receiver_type = RwSignal::new(AlertReceiverType::Slack);
    let webhook_url = RwSignal::new(String::new());
    let (to, from, smarthost) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let (auth_username, auth_password) =
        (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let require_tls = RwSignal::new(true);
    let owner = RwSignal::new(String::new());
    let severity = RwSignal::new(String::new());
    let send_resolved = RwSignal::new(true);
    let form = Form::new(
        move |request: AlertReceiverCreation| async move { api.create_alert_receiver(&request).await },
        move |created: AlertReceiver| {
            for field in [
                name,
                description,
                webhook_url,
                to,
                from,
                smarthost,
                auth_username,
                auth_password,
                owner,
                severity,
            ] {
                field.set(String::new());
            }
            on_created.run(());
            format!("Alert receiver {} added.", created.name)
        },
    );
    let errors = form.errors;
    // The receiver as the form describes it: a Slack channel's URL, or an e-mail relay.
    let request = move || {
        let email = receiver_type.get_untracked() == AlertReceiverType::Email;
        AlertReceiverCreation {
            organization_id: org,
            receiver: AlertReceiverUpdate {
                name: name.get_untracked().trim().to_string(),
                description: description.get_untracked().trim().to_string(),
                receiver_type: receiver_type.get_untracked(),
                send_resolved: send_resolved.get_untracked(),
                webhook_url: (!email).then(|| webhook_url.get_untracked().trim().to_string()),
                owner: optional_text(owner),
                severity: optional_text(severity),
                email: if email {
                    EmailRelayRequest {
                        relay: EmailRelay {
                            to: optional_text(to),
                            from: optional_text(from),
                            smarthost: optional_text(smarthost),
                            auth_username: optional_text(auth_username),
                            require_tls: Some(require_tls.get_untracked()),
                        },
                        auth_password: optional_text(auth_password),
                    }
                } else {
                    EmailRelayRequest::default()
                },
            },
        }
    };
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = request();
        let checked = request.validate();
        form.submit(request, checked);
    };
    let send_test = Action::new_local(move |request: &AlertReceiverCreation| {
        let request = request.clone();
        async move {
            match api.test_new_alert_receiver(&request).await {
                Ok(()) => toasts.success("Test message sent: check that it arrived."),
                Err(error) => {
                    errors.set(error.fields().to_vec());
                    toasts.error(error.to_string());
                }
            }
        }
    });
    let test = move |_| {
        let request = request();
        match request.validate() {
            Ok(()) => {
                errors.set(Vec::new());
                send_test.dispatch_local(request);
            }
            Err(problems) => errors.set(problems),
        }
    };
    let email = move || receiver_type.get() == AlertReceiverType::Email;
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Add an alert receiver">
            <h2>"New alert receiver"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="on-call"/>
                <TextField label="Description" name="description" value=description errors
                    placeholder="The on-call channel"/>
                <EnumSelect label="Type" name="type" value=receiver_type errors/>
                <Show when=move || !email()>
                    <TextField label="Webhook URL" name="webhook_url" value=webhook_url errors required=true
                        input_type="password" hint="Kept secret: it is never shown again."/>
                </Show>
                <Show when=email>
                    <TextField label="To" name="to" value=to errors required=true input_type="email"
                        placeholder="oncall@example.com"/>
                    <TextField label="From" name="from" value=from errors required=true input_type="email"
                        placeholder="alerts@example.com"/>
                    <TextField label="SMTP server" name="smarthost" value=smarthost errors required=true
                        placeholder="smtp.example.com:587" hint="host:port"/>
                    <TextField label="User" name="auth_username" value=auth_username errors
                        hint="The sender's address when left empty."/>
                    <TextField label="Password" name="auth_password" value=auth_password errors required=true
                        input_type="password" hint="Kept secret: it is never shown again."/>
                    <CheckboxField label=" Require TLS (STARTTLS)" name="require_tls" checked=require_tls/>
                </Show>
                <TextField label="Owner" name="owner" value=owner errors placeholder="platform-team"/>
                <TextField label="Severity" name="severity" value=severity errors placeholder="critical"/>
            </div>
            <label class="checkbox">
                <input type="checkbox" name="send_resolved" bind:checked=send_resolved/>
                " Also send when an alert is resolved"
            </label>
            <div class="form-actions">
                <button type="button" class="button button--secondary"
                    disabled=move || send_test.pending().get() on:click=test>
                    "Send a test"
                </button>
                <SubmitButton form label="Add receiver"/>
            </div>
        </form>
    }
}
