//! `.../environment/:env/services?compare=:other`: this environment against another of its
//! project (production against staging, a preview against its source). The services on each side
//! by name (missing on one side, of another kind), and for each service on both, opened on demand:
//! what each runs, its settings and its variables side by side with the differences marked (a
//! secret by whether it is set). The address holds both ids: a comparison is a link to share.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use platform_api::review::{compare_configurations, compare_variables, VariablePair, VariableSide};
use platform_api::{ServiceType, VariableScope, WireEnum};
use serde_json::Value;
use uuid::Uuid;

use crate::api::service::ServiceSummary;
use crate::api::{use_api, ApiError};
use crate::components::built_when_open::{BuiltWhenOpen, KeptOpen};
use crate::components::change_summary::shown;
use crate::components::loaded::loaded;
use crate::state::resource::resource;

use crate::api::review::Place;

/// The other environment the address names, if any.
pub(super) fn compared_with() -> Memo<Option<Uuid>> {
    let query = use_query_map();
    Memo::new(move |_| query.with(|query| query.get("compare")?.parse().ok()))
}

/// "Compare with…": the project's other environments; choosing one opens the comparison.
#[component]
pub(super) fn CompareWith(ids: Place, other: Memo<Option<Uuid>>) -> impl IntoView {
    let api = use_api();
    let navigate = use_navigate();
    let environments = resource(move || async move { api.environment_names(ids.project).await });
    let choose = move |event: leptos::ev::Event| {
        let chosen = event_target_value(&event);
        let query = if chosen.is_empty() {
            String::new()
        } else {
            format!("?compare={chosen}")
        };
        let here = window().location().pathname().unwrap_or_default();
        navigate(&format!("{here}{query}"), Default::default());
    };
    view! {
        <div class="field compare-with">
            <label for="compare-with">"Compare with…"</label>
            {loaded(environments, 1, move |environments| {
                let choose = choose.clone();
                let others: Vec<_> = environments.into_iter().filter(|e| e.id != ids.environment).collect();
                view! {
                    <select id="compare-with" on:change=choose>
                        <option value="" selected=move || other.get().is_none()>"No comparison"</option>
                        {others.into_iter().map(|environment| {
                            let id = environment.id;
                            view! {
                                <option value=id.to_string() selected=move || other.get() == Some(id)>
                                    {environment.name}
                                </option>
                            }
                        }).collect_view()}
                    </select>
                }
            })}
        </div>
    }
}

/// One name, and the service of that name on each side.
#[derive(Clone)]
struct Paired {
    name: String,
    here: Option<ServiceSummary>,
    there: Option<ServiceSummary>,
}

fn pair(here: Vec<ServiceSummary>, there: Vec<ServiceSummary>) -> Vec<Paired> {
    let mut names: Vec<String> = here.iter().chain(&there).map(|s| s.name.clone()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| Paired {
            here: here.iter().find(|s| s.name == name).cloned(),
            there: there.iter().find(|s| s.name == name).cloned(),
            name,
        })
        .collect()
}

/// The comparison of this environment's services (`here`) with `other`'s.
#[component]
pub fn EnvironmentComparison(here: Vec<ServiceSummary>, other: Uuid) -> impl IntoView {
    let api = use_api();
    let there = resource(move || async move {
        let (name, services) = futures::join!(api.environment_name(other), api.services(other));
        Ok::<_, ApiError>((name?.name, services?))
    });
    view! {
        <section class="card environment-compare" aria-labelledby="environment-compare-title">
            {loaded(there, 4, move |(name, there)| {
                let pairs = pair(here.clone(), there);
                let differing = pairs.iter().filter(|p| kind_of(&p.here) != kind_of(&p.there)).count();
                view! {
                    <h2 id="environment-compare-title">{format!("Compared with {name}")}</h2>
                    <p class="muted">{format!(
                        "{} services; {differing} on one side only or of another kind. Open a service to compare its settings and variables.",
                        pairs.len()
                    )}</p>
                    <ComparedServices pairs there_name=name/>
                }
            })}
        </section>
    }
}

fn kind_of(service: &Option<ServiceSummary>) -> Option<ServiceType> {
    service.as_ref().map(|s| s.service_type)
}

#[component]
fn ComparedServices(pairs: Vec<Paired>, there_name: String) -> impl IntoView {
    let opened = KeptOpen::default();
    view! {
        <ul class="review-list" aria-label="Services compared">
            {pairs.into_iter().map(|paired| {
                let said = match (&paired.here, &paired.there) {
                    (Some(_), None) => format!("only here, not in {there_name}"),
                    (None, Some(_)) => format!("only in {there_name}"),
                    (Some(here), Some(there)) if here.service_type != there.service_type => format!(
                        "{} here, {} in {there_name}",
                        here.service_type.label(),
                        there.service_type.label()
                    ),
                    _ => "on both sides".to_string(),
                };
                let key = paired.name.clone();
                let summary = format!("{} — {said}", paired.name);
                match (paired.here, paired.there) {
                    (Some(here), Some(there)) if here.service_type == there.service_type => view! {
                        <li data-compared=paired.name.clone()>
                            <BuiltWhenOpen summary key opened>
                                <ServicePair kind=here.service_type here=here.id there=there.id/>
                            </BuiltWhenOpen>
                        </li>
                    }
                    .into_any(),
                    _ => view! {
                        <li data-compared=key class="compare__missing">
                            <strong>{summary}</strong>
                        </li>
                    }
                    .into_any(),
                }
            }).collect_view()}
        </ul>
    }
}

/// One service's two sides: what runs, the settings and the variables that differ.
#[component]
fn ServicePair(kind: ServiceType, here: Uuid, there: Uuid) -> impl IntoView {
    let api = use_api();
    let scope = VariableScope::of_service(kind).unwrap_or(VariableScope::Application);
    let sides = resource(move || async move {
        let (left, right, left_variables, right_variables) = futures::join!(
            api.service(kind, here),
            api.service(kind, there),
            api.variables(scope, here),
            api.variables(scope, there)
        );
        let (left, right) = (left?, right?);
        Ok::<_, ApiError>(Sides {
            running: (left.running(), right.running()),
            settings: compare_configurations(&left.to_json(), &right.to_json())
                .into_iter()
                .map(|change| (change.path, change.before, change.after))
                .collect(),
            variables: compare_variables(&left_variables?, &right_variables?),
        })
    });
    view! { {loaded(sides, 3, sides_view)} }
}

#[derive(Clone)]
struct Sides {
    running: (Option<String>, Option<String>),
    settings: Vec<(String, Option<Value>, Option<Value>)>,
    variables: Vec<VariablePair>,
}

fn sides_view(sides: Sides) -> impl IntoView {
    let never = || "not deployed".to_string();
    let (here, there) = sides.running;
    let variables_differing = sides.variables.iter().filter(|p| p.differs()).count();
    view! {
        <p>"Runs "<span class="mono">{here.unwrap_or_else(never)}</span>" here, "
            <span class="mono">{there.unwrap_or_else(never)}</span>" there."</p>
        <h3>"Settings"</h3>
        {if sides.settings.is_empty() {
            view! { <p class="muted">"The same settings."</p> }.into_any()
        } else {
            view! {
                <table class="table change-summary__settings">
                    <caption class="visually-hidden">"Settings that differ"</caption>
                    <thead><tr><th scope="col">"Setting"</th><th scope="col">"Here"</th><th scope="col">"There"</th></tr></thead>
                    <tbody>
                        {sides.settings.into_iter().map(|(path, left, right)| view! {
                            <tr class="differs" data-setting=path.clone()>
                                <th scope="row" class="mono">{path.clone()}</th>
                                <td class="mono">{shown(left)}</td>
                                <td class="mono">{shown(right)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            }
            .into_any()
        }}
        <h3>{format!("Variables ({variables_differing} differ)")}</h3>
        <table class="table change-summary__settings">
            <caption class="visually-hidden">"Variables and secrets"</caption>
            <thead><tr><th scope="col">"Key"</th><th scope="col">"Here"</th><th scope="col">"There"</th><th scope="col">"Differs"</th></tr></thead>
            <tbody>
                {sides.variables.into_iter().map(|pair| {
                    let differs = pair.differs();
                    view! {
                        <tr class:differs=differs data-variable=pair.key.clone()>
                            <th scope="row" class="mono">{pair.key.clone()}</th>
                            <td class="mono">{side(pair.left)}</td>
                            <td class="mono">{side(pair.right)}</td>
                            <td>{if differs { "differs" } else { "" }}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

fn side(side: Option<VariableSide>) -> String {
    match side {
        None => "—".into(),
        Some(VariableSide { secret: true, .. }) => "secret, set".into(),
        Some(VariableSide { value, .. }) => value.unwrap_or_default(),
    }
}
