//! A project's deployment rules, in its overview: in priority order (moved up and down), each a
//! name pattern and the schedule, cluster and mode it gives to the environments created
//! afterwards whose names match; added, edited and deleted here.

use leptos::prelude::*;
use platform_api::{
    EnvironmentMode, ProjectDeploymentRule, ProjectDeploymentRuleRequest, Schedule, Weekday,
    WireEnum,
};
use uuid::Uuid;

use crate::api::cluster::ClusterChoice;
use crate::api::{use_api, ApiError};
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{
    optional_text, ChoiceField, EnumSelect, FieldScope, TextField,
};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::schedule_fields::{describe, ScheduleFields, ScheduleInput};
use crate::components::toggle_button::ToggleButton;
use crate::state::resource::resource;
use crate::state::toasts::use_toasts;

#[component]
pub fn ProjectDeploymentRules(
    project: Uuid,
    clusters: LocalResource<Result<Vec<ClusterChoice>, ApiError>>,
) -> impl IntoView {
    let api = use_api();
    let rules = resource(move || async move { api.project_deployment_rules(project).await });
    let changed = Callback::new(move |()| rules.refetch());
    let cluster_choices = Signal::derive(move || {
        clusters
            .get()
            .and_then(Result::ok)
            .unwrap_or_default()
            .into_iter()
            .map(|cluster| (cluster.id, cluster.name))
            .collect::<Vec<_>>()
    });
    view! {
        <section class="card" aria-labelledby="rules-title">
            <h2 id="rules-title">"Deployment rules"</h2>
            <p class="muted">"A new environment whose name matches a rule's pattern gets its schedule (and its cluster and mode, unless it names a cluster); the first rule that matches applies."</p>
            {loaded(rules, 2, move |list: Vec<ProjectDeploymentRule>| {
                if list.is_empty() {
                    return view! { <p class="muted">"None: new environments run until stopped."</p> }.into_any();
                }
                let order: Vec<Uuid> = list.iter().map(|rule| rule.id).collect();
                view! {
                    <ol class="stages" aria-label="Deployment rules">
                        {list.into_iter().map(|rule| view! {
                            <RuleItem project rule order=order.clone() clusters=cluster_choices on_changed=changed/>
                        }).collect_view()}
                    </ol>
                }.into_any()
            })}
            <NewDialog label="Add a deployment rule">
                <RuleForm project editing=None clusters=cluster_choices on_saved=changed/>
            </NewDialog>
        </section>
    }
}

#[component]
fn RuleItem(
    project: Uuid,
    rule: ProjectDeploymentRule,
    /// Every rule's id, in order.
    order: Vec<Uuid>,
    clusters: Signal<Vec<(Uuid, String)>>,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let id = rule.id;
    let name = rule.rule.name.clone();
    let editing = RwSignal::new(false);
    let at = order
        .iter()
        .position(|other| *other == id)
        .unwrap_or_default();
    let moved = move |by: isize| {
        let mut order = order.clone();
        let to = at.checked_add_signed(by).filter(|to| *to < order.len())?;
        order.swap(at, to);
        Some(order)
    };
    let reorder = Action::new_local(move |order: &Vec<Uuid>| {
        let order = order.clone();
        async move { api.order_project_deployment_rules(project, order).await }
    });
    Effect::new(move |_| match reorder.value().get() {
        Some(Ok(())) => on_changed.run(()),
        Some(Err(error)) => toasts.error(error.to_string()),
        None => {}
    });
    let (up, down) = (moved(-1), moved(1));
    let record = rule.clone();
    let pattern = if rule.rule.wildcard.is_empty() {
        "*".to_string()
    } else {
        rule.rule.wildcard.clone()
    };
    view! {
        <li class="record" data-rule=name.clone()>
            <div class="record__head">
                <span class="stage__order" aria-hidden="true">{rule.priority_index + 1}"."</span>
                <span class="record__title">{name.clone()}</span>
                <span class="mono">{pattern}</span>
                <span class="tag">{rule.rule.mode.label()}</span>
            </div>
            <p class="muted">{describe(&rule.rule.schedule)}</p>
            <div class="record__actions">
                <button type="button" class="button button--small button--secondary"
                    aria-label=format!("Move {name} up") disabled=up.is_none()
                    on:click=move |_| { if let Some(order) = up.clone() { reorder.dispatch_local(order); } }>"↑"</button>
                <button type="button" class="button button--small button--secondary"
                    aria-label=format!("Move {name} down") disabled=down.is_none()
                    on:click=move |_| { if let Some(order) = down.clone() { reorder.dispatch_local(order); } }>"↓"</button>
                <ToggleButton open=editing label="Edit" open_label="Close the form" name=format!("Edit {name}")/>
                <DeleteButton question="Delete this rule?" item=name.clone()
                    consequence="Environments created from now on no longer get its schedule."
                    done="Rule deleted."
                    delete=move || async move { api.delete_project_deployment_rule(project, id).await }
                    on_deleted=on_changed/>
            </div>
            <Show when=move || editing.get()>
                <RuleForm project editing=Some(record.clone()) clusters on_saved=on_changed/>
            </Show>
        </li>
    }
}

/// Adds a rule to the project, or, `editing` one, saves it.
#[component]
fn RuleForm(
    project: Uuid,
    editing: Option<ProjectDeploymentRule>,
    clusters: Signal<Vec<(Uuid, String)>>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let existing = editing.as_ref().map(|rule| rule.id);
    if let Some(id) = existing {
        provide_context(FieldScope(id.to_string()));
    }
    let request = editing.as_ref().map(|rule| rule.rule.clone());
    let name = RwSignal::new(request.as_ref().map(|r| r.name.clone()).unwrap_or_default());
    let description = RwSignal::new(
        request
            .as_ref()
            .and_then(|r| r.description.clone())
            .unwrap_or_default(),
    );
    let wildcard = RwSignal::new(
        request
            .as_ref()
            .map(|r| r.wildcard.clone())
            .unwrap_or_default(),
    );
    let mode = RwSignal::new(
        request
            .as_ref()
            .map_or(EnvironmentMode::Development, |r| r.mode),
    );
    let cluster = RwSignal::new(
        request
            .as_ref()
            .map(|r| r.cluster_id)
            .or_else(|| clusters.get_untracked().first().map(|(id, _)| *id))
            .unwrap_or_default(),
    );
    // The clusters may arrive after the form: the first is chosen then.
    Effect::new(move |_| {
        if cluster.get_untracked().is_nil() {
            if let Some((first, _)) = clusters.get().first() {
                cluster.set(*first);
            }
        }
    });
    let input = ScheduleInput::of(&request.as_ref().map_or_else(
        || Schedule {
            auto_stop: true,
            timezone: "Etc/UTC".into(),
            start_time: platform_api::at_time_of_day(
                chrono::NaiveTime::from_hms_opt(8, 0, 0).unwrap_or_default(),
            ),
            stop_time: platform_api::at_time_of_day(
                chrono::NaiveTime::from_hms_opt(19, 0, 0).unwrap_or_default(),
            ),
            weekdays: Weekday::ALL[..5].to_vec(),
        },
        |r| r.schedule.clone(),
    ));
    let form = Form::new(
        move |request: ProjectDeploymentRuleRequest| async move {
            match existing {
                Some(id) => {
                    api.update_project_deployment_rule(project, id, &request)
                        .await
                }
                None => api.create_project_deployment_rule(project, &request).await,
            }
        },
        move |saved: ProjectDeploymentRule| {
            if existing.is_none() {
                name.set(String::new());
                wildcard.set(String::new());
            }
            on_saved.run(());
            format!("Rule {} saved.", saved.rule.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        match input.read() {
            Ok(schedule) => {
                let request = ProjectDeploymentRuleRequest {
                    name: name.get_untracked().trim().to_string(),
                    description: optional_text(description),
                    mode: mode.get_untracked(),
                    cluster_id: cluster.get_untracked(),
                    wildcard: wildcard.get_untracked().trim().to_string(),
                    schedule,
                };
                let checked = request.validate();
                form.submit(request, checked);
            }
            Err(problems) => errors.set(problems),
        }
    };
    let (label, button) = if existing.is_some() {
        ("Edit the deployment rule", "Save rule")
    } else {
        ("Add a deployment rule", "Add rule")
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label=label>
            <h2>{label}</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="feature branches"/>
                <TextField label="Environments named" name="wildcard" value=wildcard errors
                    placeholder="feat-*" hint="? is one character, * any number; empty for every name."/>
                <TextField label="Description" name="description" value=description errors/>
                <EnumSelect label="Mode" name="mode" value=mode errors/>
                {move || view! { <ChoiceField label="Cluster" name="cluster_id" value=cluster options=clusters.get() errors/> }}
            </div>
            <ScheduleFields input errors/>
            <SubmitButton form label=button/>
        </form>
    }
}
