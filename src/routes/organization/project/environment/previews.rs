//! The environment's preview environments, on its settings tab: whether it makes them (its
//! deployment rule's `auto_preview`, for each new branch of a service's repository, and
//! `on_demand_preview`, for a new tag of a container's image), and, where the API says
//! (`Enhancement::Previews`), the previews it has and what this environment previews.

use leptos::prelude::*;
use leptos_router::components::A;
use platform_api::{EnvironmentDeploymentRule, EnvironmentDeploymentRuleRequest, Preview};
use uuid::Uuid;

use super::schedule::rule_form;
use crate::api::review::Place;
use crate::api::ApiError;
use crate::components::form::SubmitButton;
use crate::components::form_field::CheckboxField;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::paths;

/// "Preview of staging for branch feat-login", with a link back, when the environment is one.
#[component]
pub fn PreviewOf(
    ids: Place,
    previews: LocalResource<Result<Option<platform_api::EnvironmentPreviews>, ApiError>>,
) -> impl IntoView {
    let of = move || previews.get()?.ok()??.preview_of;
    move || {
        of().map(|preview: Preview| {
            let source = paths::environment(ids.org, ids.project, preview.source_environment_id);
            let what = preview.describe();
            view! {
                <p class="notice notice--info preview-of" role="status">
                    "A preview of "
                    <A href=source>{preview.source_environment_name}</A>
                    " for " {what} ", made and removed on its own."
                </p>
            }
        })
    }
}

#[component]
pub fn EnvironmentPreviews(
    ids: Place,
    rule: LocalResource<Result<EnvironmentDeploymentRule, ApiError>>,
    previews: LocalResource<Result<Option<platform_api::EnvironmentPreviews>, ApiError>>,
) -> impl IntoView {
    let listed = move || previews.get()?.ok()?.map(|previews| previews.previews);
    view! {
        <section class="card" aria-labelledby="previews-title">
            <h2 id="previews-title">"Preview environments"</h2>
            <p class="muted">
                "A preview is a copy of this environment deployed at a branch (a branch stands for \
                 a pull request) or at a new tag of a container's image, for the services with \
                 \"Add to preview environments\" in their settings; it is deleted when its branch is."
            </p>
            {loaded(rule, 2, move |current: EnvironmentDeploymentRule| view! {
                <PreviewSwitches environment=ids.environment current on_saved=Callback::new(move |saved| {
                    rule.set(Some(Ok(saved)));
                })/>
            })}
            {move || listed().map(|list| view! { <PreviewList ids list/> })}
        </section>
    }
}

#[component]
fn PreviewSwitches(
    environment: Uuid,
    current: EnvironmentDeploymentRule,
    on_saved: Callback<EnvironmentDeploymentRule>,
) -> impl IntoView {
    let kept = current.rule.clone();
    let auto = RwSignal::new(current.rule.auto_preview);
    let on_demand = RwSignal::new(current.rule.on_demand_preview);
    let form = rule_form(
        (environment, current.id),
        on_saved,
        "Preview settings saved.",
    );
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = EnvironmentDeploymentRuleRequest {
            auto_preview: auto.get_untracked(),
            on_demand_preview: on_demand.get_untracked(),
            ..kept.clone()
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    view! {
        <form on:submit=submit novalidate aria-label="Preview settings">
            <CheckboxField label="A preview for each new branch" name="auto_preview" checked=auto
                hint="Made when a branch appears in a service's repository, deleted when it goes."/>
            <CheckboxField label="Previews on demand" name="on_demand_preview" checked=on_demand
                hint="Made when a new tag of a container's image is announced for a preview."/>
            <SubmitButton form label="Save preview settings"/>
        </form>
    }
}

#[component]
fn PreviewList(ids: Place, list: Vec<Preview>) -> impl IntoView {
    if list.is_empty() {
        return view! { <p class="muted">"No preview environment yet."</p> }.into_any();
    }
    view! {
        <ul class="record-list" aria-label="Previews">
            {list.into_iter().map(|preview| {
                let href = paths::environment(ids.org, ids.project, preview.environment_id);
                let what = preview.describe();
                view! {
                    <li class="record">
                        <div class="record__head">
                            <A href=href>{preview.name}</A>
                            <span class="muted">
                                {what} " · made " <RelativeTime at=preview.created_at/>
                            </span>
                        </div>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}
