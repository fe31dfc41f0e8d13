//! `/organization/:org/alerts`: every alert rule of the organization, with where it stands (OK,
//! pending, triggered, notified), the service it watches (a link to its Monitoring tab), and a
//! switch and a delete for each. The firing ones first.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{AlertRuleResponse, AlertRuleState, AlertTarget, WireEnum};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::components::status_badge::AlertStateBadge;
use crate::paths::{self, ServiceTab};
use crate::routes::organization::{organization_records, replace_record};
use crate::state::polling::poll;
use crate::state::toasts::use_toasts;

/// How often the states are read again while the page is shown.
const STATES_EVERY: Duration = Duration::from_secs(30);

type Rules = LocalResource<Result<(Uuid, Vec<AlertRuleResponse>), ApiError>>;

/// Firing first, then pending, then the others; by name within each.
fn order(rules: &mut [AlertRuleResponse]) {
    let rank = |state: AlertRuleState| match state {
        state if state.is_firing() => 0,
        AlertRuleState::PendingNotification => 1,
        _ => 2,
    };
    rules.sort_by(|a, b| (rank(a.state), &a.rule.name).cmp(&(rank(b.state), &b.rule.name)));
}

#[component]
pub fn Alerts() -> impl IntoView {
    let rules = organization_records(|api, org| async move { api.alert_rules(org).await });
    poll(
        move || rules.get().map(|_| STATES_EVERY),
        move || rules.refetch(),
    );
    view! {
        <div class="page__header">
            <h1>"Alerts"</h1>
            <p class="page__lead">
                "Every alert rule of the organization and where it stands, read again every 30 s. \
                 Rules are made on a service's Monitoring tab (“Alert me when…”)."
            </p>
        </div>
        <section class="card" aria-labelledby="rules-title">
            <h2 id="rules-title">"Alert rules"</h2>
            {loaded(rules, 4, move |(org, list)| view! { <RuleTable org list rules/> })}
        </section>
    }
}

/// Where a rule's target is: the service's Monitoring tab, or what it watches in words.
fn watches(org: Uuid, target: &AlertTarget) -> AnyView {
    match &target.service {
        Some(service) => {
            let href = paths::service_tab(
                org,
                service.project_id,
                service.environment_id,
                service.id,
                ServiceTab::Monitoring,
            );
            let place = format!("{} · {}", service.project_name, service.environment_name);
            let name = service.name.clone();
            view! {
                <A href=href>{name}</A>
                <br/><span class="muted">{place}</span>
            }
            .into_any()
        }
        None => view! { <span>{target.target_type.label()}</span> }.into_any(),
    }
}

#[component]
fn RuleTable(org: Uuid, mut list: Vec<AlertRuleResponse>, rules: Rules) -> impl IntoView {
    if list.is_empty() {
        return view! {
            <EmptyState title="No alert rule yet"
                hint="Open a service's Monitoring tab and choose what to be alerted of under “Alert me when…”."/>
        }
        .into_any();
    }
    order(&mut list);
    let firing = list.iter().filter(|rule| rule.state.is_firing()).count();
    view! {
        <p class="muted" aria-live="polite">
            {match list.len() {
                1 => format!("1 rule, {firing} firing."),
                count => format!("{count} rules, {firing} firing."),
            }}
        </p>
        <table class="table">
            <thead><tr>
                <th scope="col">"Rule"</th>
                <th scope="col">"Watches"</th>
                <th scope="col">"State"</th>
                <th scope="col">"Severity"</th>
                <th scope="col">"Actions"</th>
            </tr></thead>
            <tbody>
                {list.into_iter().map(|rule| view! { <RuleRow org rule rules/> }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn RuleRow(org: Uuid, rule: AlertRuleResponse, rules: Rules) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let id = rule.id;
    let enabled = rule.rule.enabled;
    let definition = rule.rule.clone();
    let switch = Action::new_local(move |_: &()| {
        let mut changed = definition.clone();
        changed.enabled = !changed.enabled;
        async move {
            match api.update_alert_rule(id, &changed).await {
                Ok(saved) => {
                    toasts.success(if saved.rule.enabled {
                        "Alert rule turned on"
                    } else {
                        "Alert rule turned off"
                    });
                    replace_record(rules, saved, |rule| rule.id);
                }
                Err(error) => toasts.error(error.to_string()),
            }
        }
    });
    let condition = rule.rule.condition.expression();
    view! {
        <tr data-rule=id.to_string()>
            <td>
                <strong>{rule.rule.name.clone()}</strong>
                <br/><span class="muted">{rule.rule.description.clone()}</span>
                <details><summary class="muted">"Condition"</summary>
                    <code class="mono">{condition}</code>
                    <p class="muted">{format!("Holding for {}", rule.rule.for_duration)}</p>
                </details>
            </td>
            <td>{watches(org, &rule.target)}</td>
            <td>
                <AlertStateBadge state=rule.state/>
                {rule.starts_at.map(|at| view! { <br/><span class="muted">"since "<RelativeTime at/></span> })}
                {(!enabled).then(|| view! { <br/><span class="muted">"Turned off"</span> })}
            </td>
            <td>{rule.rule.severity.label()}</td>
            <td class="row-actions">
                <button type="button" class="button button--small button--secondary"
                    disabled=move || switch.pending().get()
                    on:click=move |_| { switch.dispatch_local(()); }>
                    {if enabled { "Turn off" } else { "Turn on" }}
                </button>
                <DeleteButton question="Delete this alert rule?"
                    consequence="It stops watching its service and its receivers hear nothing more of it."
                    done="Alert rule deleted" item=rule.rule.name.clone()
                    delete=move || async move { api.delete_alert_rule(id).await }
                    on_deleted=Callback::new(move |()| rules.refetch())/>
            </td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn rule(name: &str, state: AlertRuleState) -> AlertRuleResponse {
        let body = serde_json::json!({
            "id": Uuid::new_v4(), "created_at": "2026-11-28T10:00:00Z", "source": "MANAGED",
            "state": state.as_str(), "organization_id": Uuid::nil(), "cluster_id": Uuid::nil(),
            "target": {"target_type": "APPLICATION", "target_id": Uuid::nil()},
            "name": name, "condition": {"kind": "BUILT", "promql": "up"},
            "for_duration": "PT5M", "severity": "LOW", "enabled": true,
            "alert_receiver_ids": [], "is_up_to_date": true
        });
        serde_json::from_value(body).unwrap()
    }

    #[wasm_bindgen_test]
    fn firing_rules_come_first() {
        let mut rules = vec![
            rule("b", AlertRuleState::Ok),
            rule("c", AlertRuleState::PendingNotification),
            rule("a", AlertRuleState::Ok),
            rule("d", AlertRuleState::Notified),
        ];
        order(&mut rules);
        let names: Vec<&str> = rules.iter().map(|r| r.rule.name.as_str()).collect();
        assert_eq!(names, ["d", "c", "a", "b"]);
    }
}
