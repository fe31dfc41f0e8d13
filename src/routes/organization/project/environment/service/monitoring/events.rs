//! What Kubernetes said around a restart (`/cluster/{id}/events` for the instance's pod): why it
//! happened — killed for memory, a probe failing, a back-off.

use chrono::{DateTime, Utc};
use leptos::prelude::*;
use platform_api::monitoring::EventsParameters;
use platform_api::KubernetesEvent;

use super::window::Window;
use super::Watched;
use crate::api::use_api;
use crate::components::chart::Marker;
use crate::components::format;
use crate::components::loaded::loaded;
use crate::state::resource::resource;

/// How far before a restart's step and after it the events are read.
const AROUND_SECONDS: f64 = 120.0;

fn instant(seconds: f64) -> String {
    DateTime::<Utc>::from_timestamp(seconds as i64, 0)
        .unwrap_or_default()
        .to_rfc3339()
}

#[component]
pub fn EventsAround(
    watched: Watched,
    chosen: RwSignal<Option<Marker>>,
    window: Memo<Window>,
) -> impl IntoView {
    let api = use_api();
    let cluster = watched.cluster;
    let read = resource(move || {
        let marker = chosen.get();
        let step = window.get_untracked().step;
        async move {
            let Some(marker) = marker else {
                return Ok(Vec::new());
            };
            // The restart happened within the step that ends at the marker.
            let parameters = EventsParameters {
                from_date_time: instant(marker.at - step - AROUND_SECONDS),
                to_date_time: instant(marker.at + AROUND_SECONDS),
                pod_name: marker.pod.clone(),
                ..EventsParameters::default()
            };
            api.cluster_events(cluster, &parameters).await
        }
    });
    let heading = move || {
        chosen.get().map(|marker| {
            format!(
                "What Kubernetes said about {}",
                marker.pod.unwrap_or_else(|| "the instance".into())
            )
        })
    };
    view! {
        <Show when=move || chosen.with(Option::is_some)>
            <section class="card k8s-events" aria-labelledby="k8s-events-title">
                <div class="card__header">
                    <h2 id="k8s-events-title" tabindex="-1">{heading}</h2>
                    <button type="button" class="button button--secondary button--small"
                        on:click=move |_| chosen.set(None)>"Close"</button>
                </div>
                {loaded(read, 3, |events: Vec<KubernetesEvent>| {
                    if events.is_empty() {
                        return view! { <p class="muted">"No event around that time."</p> }.into_any();
                    }
                    view! {
                        <table class="table">
                            <thead><tr>
                                <th scope="col">"When"</th>
                                <th scope="col">"Type"</th>
                                <th scope="col">"Reason"</th>
                                <th scope="col">"What it says"</th>
                                <th scope="col">"Times"</th>
                            </tr></thead>
                            <tbody>
                                {events.into_iter().map(|event| view! {
                                    <tr>
                                        <td title=format::exact(event.last_occurrence)>{format::clock(event.last_occurrence)}</td>
                                        <td class:warning-text=event.event_type == "Warning">{event.event_type.clone()}</td>
                                        <td>{event.reason}</td>
                                        <td>{event.message}</td>
                                        <td>{event.count}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }
                    .into_any()
                })}
            </section>
        </Show>
    }
}
