//! The environment's schedule, in its overview: when auto-stop is on, the environment runs on
//! its weekdays between its start and stop times (in its time zone) and is stopped otherwise.

use leptos::prelude::*;
use platform_api::{EnvironmentDeploymentRule, EnvironmentDeploymentRuleRequest};
use uuid::Uuid;

use crate::api::{use_api, ApiError};
use crate::components::form::{Form, SubmitButton};
use crate::components::loaded::loaded;
use crate::components::schedule_fields::{describe, ScheduleFields, ScheduleInput};
use crate::state::resource::resource;

/// The environment's deployment rule, read once for its schedule and its previews' switches.
pub fn rule_of(environment: Uuid) -> LocalResource<Result<EnvironmentDeploymentRule, ApiError>> {
    let api = use_api();
    resource(move || async move { api.environment_deployment_rule(environment).await })
}

#[component]
pub fn EnvironmentSchedule(
    environment: Uuid,
    rule: LocalResource<Result<EnvironmentDeploymentRule, ApiError>>,
) -> impl IntoView {
    view! {
        <section class="card" aria-labelledby="schedule-title">
            <h2 id="schedule-title">"Schedule"</h2>
            {loaded(rule, 3, move |current: EnvironmentDeploymentRule| view! {
                <p class="schedule__summary">{summary(&current)}</p>
                <ScheduleForm environment current on_saved=Callback::new(move |saved| rule.set(Some(Ok(saved))))/>
            })}
        </section>
    }
}

/// The schedule in a sentence.
fn summary(rule: &EnvironmentDeploymentRule) -> String {
    let schedule = &rule.rule.schedule;
    if !schedule.auto_stop {
        return "Runs until stopped: no schedule.".into();
    }
    let mut words = describe(schedule);
    words[..1].make_ascii_uppercase();
    format!("{words}; stopped otherwise.")
}

/// A form that saves the environment's rule `(environment, rule)`, saying `saved` when it has.
pub fn rule_form(
    (environment, rule): (Uuid, Uuid),
    on_saved: Callback<EnvironmentDeploymentRule>,
    saved: &'static str,
) -> Form<EnvironmentDeploymentRuleRequest> {
    let api = use_api();
    Form::new(
        move |request: EnvironmentDeploymentRuleRequest| async move {
            api.update_environment_deployment_rule((environment, rule), &request)
                .await
        },
        move |answer: EnvironmentDeploymentRule| {
            on_saved.run(answer);
            saved.to_string()
        },
    )
}

#[component]
fn ScheduleForm(
    environment: Uuid,
    current: EnvironmentDeploymentRule,
    on_saved: Callback<EnvironmentDeploymentRule>,
) -> impl IntoView {
    let kept = current.rule.clone();
    let input = ScheduleInput::of(&current.rule.schedule);
    let form = rule_form((environment, current.id), on_saved, "Schedule saved.");
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        match input.read() {
            Ok(schedule) => {
                let request = EnvironmentDeploymentRuleRequest {
                    schedule,
                    ..kept.clone()
                };
                let checked = request.validate();
                form.submit(request, checked);
            }
            Err(problems) => errors.set(problems),
        }
    };
    view! {
        <form on:submit=submit novalidate aria-label="Schedule">
            <ScheduleFields input errors/>
            <SubmitButton form label="Save schedule"/>
        </form>
    }
}
