//! Where things are unwell, at a glance: the services of the organization (or of one
//! environment) with an alert rule firing or instances restarting in the last hour, each a link to
//! its Monitoring tab. Read when the page is shown and every minute after, never while the tab is
//! hidden: the firing rules, and one query per cluster for the restarts. Its code is fetched
//! after the page's first paint, behind the split point `app.rs` provides (`LoadUnwell`): the
//! rules' and series' decoders are no part of the pages' first load.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::future::{join_all, BoxFuture};
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use leptos_router::components::A;
use platform_api::monitoring::{restarting_services, sample_value};
use platform_api::WireEnum;
use uuid::Uuid;

use crate::api::{use_api, Api, ApiError};
use crate::components::after_first_paint::AfterFirstPaint;
use crate::paths::{self, ServiceTab};
use crate::state::polling::{every, page_visible};
use crate::state::resource::resource;

/// How often it is read again while the page is shown.
const EVERY: Duration = Duration::from_secs(60);

/// Whose services are watched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scope {
    Organization,
    Environment { project: Uuid, environment: Uuid },
}

/// A service that calls for attention, and why.
#[derive(Clone, Debug, PartialEq)]
struct Unwell {
    name: String,
    href: Option<String>,
    reasons: Vec<String>,
}

/// Where a service is, for its link.
#[derive(Clone, Debug)]
struct Place {
    name: String,
    project: Uuid,
    environment: Uuid,
}

/// Where the services of the scope are: the organization's in one read, an environment's in
/// one; only asked for restarting services no firing rule named.
async fn places(api: Api, org: Uuid, scope: Scope) -> BTreeMap<Uuid, Place> {
    match scope {
        Scope::Environment {
            project,
            environment,
        } => api
            .services(environment)
            .await
            .unwrap_or_default()
            .into_iter()
            .map(|service| {
                let place = Place {
                    name: service.name,
                    project,
                    environment,
                };
                (service.id, place)
            })
            .collect(),
        Scope::Organization => api
            .organization_services(org)
            .await
            .unwrap_or_default()
            .into_iter()
            .map(|service| {
                let place = Place {
                    name: service.name,
                    project: service.project_id,
                    environment: service.environment_id,
                };
                (service.id, place)
            })
            .collect(),
    }
}

async fn read(api: Api, org: Uuid, scope: Scope) -> Result<Vec<Unwell>, ApiError> {
    let in_scope = |environment: Uuid| match scope {
        Scope::Organization => true,
        Scope::Environment {
            environment: shown, ..
        } => shown == environment,
    };
    let mut unwell: BTreeMap<Uuid, (Option<Place>, Vec<String>)> = BTreeMap::new();
    // A role that may not read the rules still sees the restarts.
    for rule in api.alert_rules(org).await.unwrap_or_default() {
        let Some(service) = rule.target.service.filter(|_| rule.state.is_firing()) else {
            continue;
        };
        if !in_scope(service.environment_id) {
            continue;
        }
        let place = Place {
            name: service.name,
            project: service.project_id,
            environment: service.environment_id,
        };
        let entry = unwell
            .entry(service.id)
            .or_insert((Some(place), Vec::new()));
        entry.1.push(format!(
            "“{}” {}",
            rule.rule.name,
            rule.state.label().to_lowercase()
        ));
    }
    let clusters: Vec<Uuid> = match scope {
        Scope::Organization => api
            .cluster_names(org)
            .await?
            .into_iter()
            .map(|cluster| cluster.id)
            .collect(),
        Scope::Environment { environment, .. } => {
            vec![api.environment(environment).await?.cluster_id]
        }
    };
    let now = js_sys::Date::now() / 1000.0;
    let answers = join_all(
        clusters
            .iter()
            .map(|cluster| api.metrics_at(*cluster, restarting_services("1h"), now)),
    )
    .await;
    let mut restarting = Vec::new();
    for series in answers.into_iter().flat_map(Result::unwrap_or_default) {
        let id = series
            .metric
            .get("label_qovery_com_service_id")
            .and_then(|id| id.parse().ok());
        let count = sample_value(&series.value.1).unwrap_or_default().round();
        if let (Some(id), true) = (id, count >= 1.0) {
            restarting.push((id, count));
        }
    }
    let unknown: Vec<Uuid> = restarting
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !unwell.contains_key(id))
        .collect();
    let found = if unknown.is_empty() {
        BTreeMap::new()
    } else {
        places(api, org, scope).await
    };
    for (id, count) in restarting {
        let place = found.get(&id).cloned();
        // A restart in another environment of the cluster is not this page's.
        if place.is_none() && !unwell.contains_key(&id) && scope != Scope::Organization {
            continue;
        }
        let words = match count as i64 {
            1 => "1 restart in the last hour".to_string(),
            n => format!("{n} restarts in the last hour"),
        };
        let entry = unwell.entry(id).or_insert((place, Vec::new()));
        entry.1.push(words);
    }
    let mut list: Vec<Unwell> = unwell
        .into_iter()
        .map(|(id, (place, reasons))| Unwell {
            name: place.as_ref().map_or_else(
                || format!("Service {}", platform_api::short_id(&id.to_string())),
                |p| p.name.clone(),
            ),
            href: place.map(|place| {
                paths::service_tab(
                    org,
                    place.project,
                    place.environment,
                    id,
                    ServiceTab::Monitoring,
                )
            }),
            reasons,
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(list)
}

/// Fetches the panel's module and builds the panel from it (`UnwellServices`).
#[derive(Clone, Copy)]
pub struct LoadUnwell(pub fn(Uuid, Scope) -> BoxFuture<'static, Result<AnyView, SplitLoaderError>>);

/// The panel, once the page is drawn and shown; nothing when its code cannot be fetched (it is
/// an addition to the page, not the page).
#[component]
pub fn Unwell(org: Uuid, scope: Scope) -> impl IntoView {
    let load = use_context::<LoadUnwell>();
    view! {
        <AfterFirstPaint ready=page_visible()>
            {move || load.map(|LoadUnwell(load)| {
                let panel = Suspend::new(async move { load(org, scope).await.unwrap_or_else(|_| ().into_any()) });
                view! { <Suspense>{panel}</Suspense> }
            })}
        </AfterFirstPaint>
    }
}

#[component]
pub fn UnwellServices(org: Uuid, scope: Scope) -> impl IntoView {
    let api = use_api();
    let visible = page_visible();
    // Counts the reads asked for: none until the page is first shown.
    let reads = RwSignal::new(0u32);
    Effect::new(move |_| {
        if visible.get() && reads.get_untracked() == 0 {
            reads.set(1);
        }
    });
    let unwell = resource(move || {
        let asked = reads.get();
        async move {
            match asked {
                0 => Ok(None),
                _ => read(api, org, scope).await.map(Some),
            }
        }
    });
    every(
        EVERY,
        move || unwell.with(|read| matches!(read, Some(Ok(Some(_))))),
        move || reads.update(|count| *count += 1),
    );
    move || {
        let list = unwell.get()?.ok()??;
        (!list.is_empty()).then(|| view! {
            <section class="card unwell" aria-labelledby="unwell-title">
                <h2 id="unwell-title">"Needs attention"</h2>
                <ul class="unwell__list">
                    {list.into_iter().map(|service| view! {
                        <li>
                            {match service.href {
                                Some(href) => view! { <A href=href>{service.name}</A> }.into_any(),
                                None => view! { <span>{service.name}</span> }.into_any(),
                            }}
                            <span class="muted">{format!(" — {}", service.reasons.join("; "))}</span>
                        </li>
                    }).collect_view()}
                </ul>
            </section>
        })
    }
}
