//! The environment's deployment stages, on its settings tab: the stages in the order its
//! deployments run them, each with its services; a stage added, renamed, moved up or down (buttons, so the
//! keyboard moves them too, the focus kept on the stage moved) and deleted; a service moved to
//! another stage or skipped from the environment's deployments.

use std::collections::HashMap;

use leptos::prelude::*;
use platform_api::{DeploymentStage, DeploymentStageRequest, DeploymentStageService};
use uuid::Uuid;

use crate::api::service::ServiceSummary;
use crate::api::{use_api, ApiError};
use crate::components::built_when_open::{BuiltWhenOpen, KeptOpen};
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{optional_text, FieldScope, TextField};
use crate::components::format;
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::toggle_button::ToggleButton;
use crate::state::resource::resource;
use crate::state::toasts::use_toasts;

use crate::api::review::Place;

/// The most services a stage lists outright. Beyond it they are listed once asked for: a
/// thousand services' rows, each with its choice of stage, took the page ~300 ms to build
/// (12,000 elements) after its table had shown, and again after each move.
const MOST_SERVICES_SHOWN: usize = 12;

/// What the stages' rows share: the stages as last read, the services' names, where the focus
/// goes once the stages are drawn again after a move, and which stages' lists are open.
#[derive(Clone, Copy)]
struct Stages {
    all: LocalResource<Result<Vec<DeploymentStage>, ApiError>>,
    names: Memo<HashMap<Uuid, String>>,
    focus: RwSignal<Option<String>>,
    opened: KeptOpen,
}

#[component]
pub fn EnvironmentStages(
    ids: Place,
    services: LocalResource<Result<(Place, Vec<ServiceSummary>), ApiError>>,
) -> impl IntoView {
    let api = use_api();
    let environment = ids.environment;
    let all = resource(move || {
        // Read again when the services change (a new one lands in its kind's stage).
        services.track();
        async move { api.deployment_stages(environment).await }
    });
    let names = Memo::new(move |_| {
        services
            .get()
            .and_then(Result::ok)
            .map(|(_, services)| services.into_iter().map(|s| (s.id, s.name)).collect())
            .unwrap_or_default()
    });
    let stages = Stages {
        all,
        names,
        focus: RwSignal::new(None),
        opened: KeptOpen::default(),
    };
    // After a move, the button pressed is drawn anew: the focus goes back to it.
    Effect::new(move |_| {
        all.track();
        if let Some(selector) = stages.focus.get_untracked() {
            request_animation_frame(move || {
                let button = document().query_selector(&selector).ok().flatten();
                if let Some(button) = button
                    .and_then(|b| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(b).ok())
                {
                    let _ = button.focus();
                }
            });
        }
    });
    let changed = Callback::new(move |()| all.refetch());
    view! {
        <section class="card" aria-labelledby="stages-title">
            <h2 id="stages-title">"Deployment stages"</h2>
            <p class="muted">"A deployment of the whole environment runs its stages in this order, each once the one before has deployed; a failure stops the stages after it."</p>
            {loaded(all, 4, move |list: Vec<DeploymentStage>| {
                let count = list.len();
                let order: Vec<(Uuid, String)> = list.iter().map(|s| (s.id, s.name.clone())).collect();
                view! {
                    <ol class="stages" aria-label="Stages">
                        {list.into_iter().enumerate().map(|(at, stage)| {
                            let before = at.checked_sub(1).map(|i| order[i].0);
                            let after = order.get(at + 1).map(|next| next.0);
                            view! { <StageItem stage stages order=order.clone() before after last=count == 1/> }
                        }).collect_view()}
                    </ol>
                }
            })}
            <NewDialog label="Add a stage">
                <StageForm environment editing=None on_saved=changed/>
            </NewDialog>
        </section>
    }
}

#[component]
fn StageItem(
    stage: DeploymentStage,
    stages: Stages,
    /// Every stage of the environment, in order: where a service may go.
    order: Vec<(Uuid, String)>,
    /// The stages just before and after this one.
    before: Option<Uuid>,
    after: Option<Uuid>,
    last: bool,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let id = stage.id;
    let name = stage.name.clone();
    let editing = RwSignal::new(false);
    let moving = Action::new_local(move |(other, later): &(Uuid, bool)| {
        let (other, later) = (*other, *later);
        async move { api.move_deployment_stage(id, other, later).await }
    });
    // The move answers the stages in their new order: drawn from it.
    Effect::new(move |_| match moving.value().get() {
        Some(Ok(moved)) => stages.all.set(Some(Ok(moved))),
        Some(Err(error)) => toasts.error(error.to_string()),
        None => {}
    });
    let words = format::as_words(&name);
    let up_label = format!("Move {words} up");
    let down_label = format!("Move {words} down");
    let move_button = move |label: String, other: Option<Uuid>, later: bool| {
        let selector = format!("button[aria-label=\"{label}\"]");
        view! {
            <button type="button" class="button button--small button--secondary" aria-label=label.clone()
                disabled=move || other.is_none() || moving.pending().get()
                on:click=move |_| {
                    if let Some(other) = other {
                        stages.focus.set(Some(selector.clone()));
                        moving.dispatch_local((other, later));
                    }
                }>
                {if later { "↓" } else { "↑" }}
            </button>
        }
    };
    let changed = Callback::new(move |()| stages.all.refetch());
    let record = stage.clone();
    view! {
        <li class="record stage" data-stage=name.clone()>
            <div class="record__head">
                <span class="stage__order" aria-hidden="true">{stage.deployment_order}"."</span>
                <span class="record__title">{words.clone()}</span>
                <span class="muted">{stage.services.len()}" service"{if stage.services.len() == 1 { "" } else { "s" }}</span>
            </div>
            {stage.description.clone().filter(|d| !d.is_empty()).map(|d| view! { <p class="muted stage__description">{d}</p> })}
            {services_of_stage(&name, id, stage.services, order, stages)}
            <div class="record__actions">
                {move_button(up_label, before, false)}
                {move_button(down_label, after, true)}
                <ToggleButton open=editing label="Rename" open_label="Close the form"
                    name=format!("Rename {words}")/>
                {(!last).then(|| view! {
                    <DeleteButton question="Delete this stage?" item=words.clone()
                        consequence="Its services go back to their kind's default stage."
                        done="Stage deleted."
                        delete=move || async move { api.delete_deployment_stage(id).await }
                        on_deleted=changed/>
                })}
            </div>
            <Show when=move || editing.get()>
                <StageForm environment=record.environment.id editing=Some(record.clone()) on_saved=changed/>
            </Show>
        </li>
    }
}

/// A stage's services, each with its choice of stage; behind "Show its N services" when they
/// are more than `MOST_SERVICES_SHOWN`, built once opened.
fn services_of_stage(
    name: &str,
    stage: Uuid,
    services: Vec<DeploymentStageService>,
    order: Vec<(Uuid, String)>,
    stages: Stages,
) -> Option<AnyView> {
    let count = services.len();
    let label = format!("Services of {name}");
    let services = StoredValue::new(services);
    let order = StoredValue::new(order);
    let list = move || {
        view! {
            <ul class="plain-list" aria-label=label.clone()>
                {services.with_value(|services| services.iter().cloned().map(|service| view! {
                    <StageService service stage order=order.get_value() stages/>
                }).collect_view())}
            </ul>
        }
    };
    match count {
        0 => None,
        1..=MOST_SERVICES_SHOWN => Some(list().into_any()),
        _ => Some(
            view! {
                <BuiltWhenOpen summary=format!("Show its {count} services")
                    key=stage.to_string() opened=stages.opened>
                    {list()}
                </BuiltWhenOpen>
            }
            .into_any(),
        ),
    }
}

/// A service of a stage: the stage it is in (a choice among the environment's, which moves it)
/// and whether the environment's deployments skip it.
#[component]
fn StageService(
    service: DeploymentStageService,
    stage: Uuid,
    order: Vec<(Uuid, String)>,
    stages: Stages,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let service_id = service.service_id;
    // Read in place: a copy of the names for each of a thousand services' rows cost ~60 ms.
    let name = move || {
        stages
            .names
            .with(|names| names.get(&service_id).cloned())
            .unwrap_or_else(|| service_id.to_string())
    };
    let attach = Action::new_local(move |(to, skipped): &(Uuid, bool)| {
        let (to, skipped) = (*to, *skipped);
        async move {
            api.attach_to_deployment_stage(to, service_id, skipped)
                .await
        }
    });
    Effect::new(move |_| match attach.value().get() {
        Some(Ok(placed)) => stages.all.set(Some(Ok(placed))),
        Some(Err(error)) => toasts.error(error.to_string()),
        None => {}
    });
    let select_id = format!("stage-of-{service_id}");
    let options = StoredValue::new(order.clone());
    let choose = move |event: leptos::ev::Event| {
        let chosen = event_target_value(&event).parse::<usize>().ok();
        let to = chosen.and_then(|at| options.with_value(|order| order.get(at).map(|(id, _)| *id)));
        if let Some(to) = to {
            attach.dispatch_local((to, false));
        }
    };
    let skipped = service.is_skipped;
    view! {
        <li class="stage__service" data-service=service_id.to_string()>
            <span class="stage__service-name">{name}</span>
            {skipped.then(|| view! { <span class="tag">"Skipped"</span> })}
            <label class="visually-hidden" for=select_id.clone()>{move || format!("Stage of {}", name())}</label>
            <select id=select_id on:change=choose disabled=move || attach.pending().get()>
                {order.iter().enumerate().map(|(at, (id, stage_name))| view! {
                    <option value=at.to_string() selected=*id == stage>{format::as_words(stage_name)}</option>
                }).collect_view()}
            </select>
            <label class="checkbox">
                <input type="checkbox" prop:checked=skipped
                    disabled=move || attach.pending().get()
                    on:change=move |event| { attach.dispatch_local((stage, event_target_checked(&event))); }/>
                " Skip in the environment's deployments"
            </label>
        </li>
    }
}

/// Adds a stage to the environment, or, `editing` one, renames it.
#[component]
fn StageForm(
    environment: Uuid,
    editing: Option<DeploymentStage>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let existing = editing.as_ref().map(|stage| stage.id);
    if let Some(id) = existing {
        provide_context(FieldScope(id.to_string()));
    }
    let name = RwSignal::new(editing.as_ref().map(|s| s.name.clone()).unwrap_or_default());
    let description = RwSignal::new(
        editing
            .as_ref()
            .and_then(|s| s.description.clone())
            .unwrap_or_default(),
    );
    let form = Form::new(
        move |request: DeploymentStageRequest| async move {
            match existing {
                Some(id) => api.update_deployment_stage(id, &request).await,
                None => api.create_deployment_stage(environment, &request).await,
            }
        },
        move |saved: DeploymentStage| {
            if existing.is_none() {
                name.set(String::new());
                description.set(String::new());
            }
            on_saved.run(());
            format!("Stage {} saved.", saved.name)
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = DeploymentStageRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    let (label, button) = if existing.is_some() {
        ("Rename the stage", "Save stage")
    } else {
        ("Add a stage", "Add stage")
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label=label>
            <h2>{label}</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="smoke tests"/>
                <TextField label="Description" name="description" value=description errors/>
            </div>
            <SubmitButton form label=button/>
        </form>
    }
}
