use leptos::prelude::*;
use platform_api::WireEnum;
use platform_api::{Status, StepStatus};

use super::format;

/// The steps of the last deployment: each step's name, outcome and duration, the step running now
/// while the deployment is in progress, and the totals.
#[component]
pub fn StepsTimeline(#[prop(into)] status: Signal<Status>) -> impl IntoView {
    let steps = move || status.with(|s| s.steps.clone());
    let running = move || status.with(|s| s.state.is_in_progress().then(|| s.state.label()));
    view! {
        <section class="timeline" aria-label="Deployment steps">
            {move || match steps() {
                None if running().is_none() => view! {
                    <p class="timeline__empty">"No deployment yet. Deploy to see its steps here."</p>
                }.into_any(),
                steps => {
                    let (details, total, computing) = steps
                        .map(|s| (s.details, s.total_duration_sec, s.total_computing_duration_sec))
                        .unwrap_or_default();
                    view! {
                        <ol class="timeline__steps">
                            {details.into_iter().map(|step| {
                                let outcome = match step.status {
                                    StepStatus::Success => "success",
                                    StepStatus::Error => "failure",
                                    StepStatus::Cancel | StepStatus::Other(_) => "neutral",
                                    StepStatus::Skip => "skipped",
                                };
                                view! {
                                    <li class=format!("step step--{outcome}") data-step=step.step_name.as_str()>
                                        <span class="step__marker" aria-hidden="true"></span>
                                        <span class="step__name">{step.step_name.label()}</span>
                                        <span class="step__status">{step.status.as_str().to_ascii_lowercase()}</span>
                                        <span class="step__duration">{format::duration(step.duration_sec)}</span>
                                    </li>
                                }
                            }).collect_view()}
                            {move || running().map(|state| view! {
                                <li class="step step--running" aria-live="polite">
                                    <span class="step__marker" aria-hidden="true"></span>
                                    <span class="step__name">{state}</span>
                                    <span class="step__status">"in progress"</span>
                                    <span class="step__duration"></span>
                                </li>
                            })}
                        </ol>
                        <p class="timeline__totals">
                            "Total " <strong data-total>{format::duration(total)}</strong>
                            " · computing " <strong>{format::duration(computing)}</strong>
                        </p>
                    }.into_any()
                }
            }}
        </section>
    }
}
