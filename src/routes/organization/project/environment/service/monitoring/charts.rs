//! The service's charts over the window: CPU and memory per instance against what each instance
//! reserves, instances ready, requests by status, latency, storage; and what happened on their
//! time axis: deployments (the organization's events) and restarts (the restarts' counter), a
//! restart opening the Kubernetes events around it.

use futures::future::join_all;
use leptos::prelude::*;
use platform_api::audit::{EventQuery, EventType};
use platform_api::monitoring::{sample_value, Quantile, RangeSeries, Workload};
use platform_api::WireEnum;
use uuid::Uuid;

use super::events::EventsAround;
use super::units;
use super::window::Window;
use super::Watched;
use crate::api::{use_api, Api, ApiError};
use crate::components::chart::{Clock, LineChart, Marker, MarkerKind, Scale, Series};
use crate::state::resource::resource;

/// How a line of a chart is named: once, or a line per value of a label (an instance, a status).
#[derive(Clone, Copy)]
enum Naming {
    Fixed(&'static str),
    PerLabel(&'static str),
}

#[derive(Clone)]
struct Line {
    naming: Naming,
    query: String,
    /// A bound (a request, a limit, what is wanted) rather than a measure.
    bound: bool,
}

fn measured(naming: Naming, query: String) -> Line {
    Line {
        naming,
        query,
        bound: false,
    }
}

fn bound(name: &'static str, query: String) -> Line {
    Line {
        naming: Naming::Fixed(name),
        query,
        bound: true,
    }
}

#[derive(Clone)]
struct Chart {
    title: &'static str,
    unit: fn(f64) -> String,
    scale: Scale,
    lines: Vec<Line>,
    /// Shown only when it has data (storage: most services have none).
    only_with_data: bool,
    /// Where the window's markers are listed, each a button (the instances').
    lists_markers: bool,
}

/// The service's charts, with the windows their rates are taken over.
fn charts_of(workload: &Workload, window: &Window) -> Vec<Chart> {
    // A rate over less than two minutes of a counter scraped every 30 s is mostly noise.
    let rate = format!("{}s", window.step.max(120.0) as i64);
    let mut charts = vec![
        Chart {
            title: "CPU per instance",
            unit: units::cores,
            scale: Scale::Decimal,
            lines: vec![
                measured(Naming::PerLabel("pod"), workload.cpu_by_instance(&rate)),
                bound("request", workload.cpu_per_instance(false)),
                bound("limit", workload.cpu_per_instance(true)),
            ],
            only_with_data: false,
            lists_markers: false,
        },
        Chart {
            title: "Memory per instance",
            unit: units::bytes,
            scale: Scale::Binary,
            lines: vec![
                measured(Naming::PerLabel("pod"), workload.memory_by_instance()),
                bound("limit", workload.memory_limit()),
            ],
            only_with_data: false,
            lists_markers: false,
        },
        Chart {
            title: "Instances",
            unit: units::count,
            scale: Scale::Count,
            lines: vec![
                measured(Naming::Fixed("ready"), workload.instances_ready()),
                bound("wanted", workload.instances_wanted()),
            ],
            only_with_data: false,
            lists_markers: true,
        },
    ];
    if workload.ingress.is_some() {
        charts.push(Chart {
            title: "Requests by status",
            unit: units::per_second,
            scale: Scale::Decimal,
            lines: vec![measured(
                Naming::PerLabel("status"),
                workload.requests_by_status(),
            )],
            only_with_data: false,
            lists_markers: false,
        });
        charts.push(Chart {
            title: "Latency",
            unit: units::seconds,
            scale: Scale::Decimal,
            lines: Quantile::ALL
                .iter()
                .map(|quantile| {
                    measured(Naming::Fixed(quantile.label()), workload.latency(*quantile))
                })
                .collect(),
            only_with_data: false,
            lists_markers: false,
        });
    }
    charts.push(Chart {
        title: "Storage",
        unit: units::bytes,
        scale: Scale::Binary,
        lines: vec![
            measured(Naming::Fixed("used"), workload.storage(false)),
            bound("capacity", workload.storage(true)),
        ],
        only_with_data: true,
        lists_markers: false,
    });
    charts
}

/// A series of the answer as a chart draws it.
fn drawn(line: &Line, series: RangeSeries) -> Series {
    let name = match line.naming {
        Naming::Fixed(name) => name.to_string(),
        Naming::PerLabel(label) => series.metric.get(label).cloned().unwrap_or_default(),
    };
    Series {
        name,
        points: series
            .values
            .iter()
            .filter_map(|(t, v)| sample_value(v).map(|v| (*t, v)))
            .collect(),
        bound: line.bound,
    }
}

/// Every line of a chart over the window.
async fn read(
    api: Api,
    cluster: Uuid,
    lines: Vec<Line>,
    window: Window,
) -> Result<Vec<Series>, ApiError> {
    let span = (window.start, window.end, window.step);
    let answers = join_all(
        lines
            .iter()
            .map(|line| api.metrics_range(cluster, line.query.clone(), span)),
    )
    .await;
    let mut drawn_lines = Vec::new();
    for (line, answer) in lines.iter().zip(answers) {
        let mut series: Vec<Series> = answer?.into_iter().map(|s| drawn(line, s)).collect();
        series.sort_by(|a, b| a.name.cmp(&b.name));
        drawn_lines.extend(series);
    }
    Ok(drawn_lines)
}

/// The deployments of the window, from the organization's events on the service.
async fn deployments(api: Api, watched: &Watched, window: Window) -> Result<Vec<Marker>, ApiError> {
    let nanos = |seconds: f64| Some(((seconds * 1e9) as i64).to_string());
    let query = EventQuery {
        target_id: Some(watched.target.id),
        from_timestamp: nanos(window.start),
        to_timestamp: nanos(window.end),
        page_size: Some(platform_api::audit::EVENT_PAGE_SIZE_MAX),
        ..EventQuery::default()
    };
    let events = api.audit_events(watched.organization, &query).await?;
    Ok(events
        .events
        .into_iter()
        .filter_map(|event| {
            let kind = match event.event_type {
                EventType::TriggerDeploy | EventType::Deployed | EventType::Restarted => {
                    MarkerKind::Deployment
                }
                EventType::DeployFailed => MarkerKind::Failure,
                _ => return None,
            };
            Some(Marker {
                at: event.timestamp.timestamp() as f64,
                label: event.event_type.label().to_string(),
                kind,
                pod: None,
            })
        })
        .collect())
}

/// The restarts of the window: a marker per instance and point where its count rose.
async fn restarts(api: Api, watched: &Watched, window: Window) -> Result<Vec<Marker>, ApiError> {
    let query = watched.workload.restarts_by_instance();
    let series = api
        .metrics_range(
            watched.cluster,
            query,
            (window.start, window.end, window.step),
        )
        .await?;
    Ok(series
        .into_iter()
        .flat_map(|series| {
            let pod = series.metric.get("pod").cloned().unwrap_or_default();
            rises(&series.values)
                .into_iter()
                .map(move |(at, count)| Marker {
                    at,
                    label: format!("{} of {pod}", restarts_words(count)),
                    kind: MarkerKind::Restart,
                    pod: Some(pod.clone()),
                })
        })
        .collect())
}

/// Where a count rose from one point to the next, and by how much.
fn rises(values: &[(f64, String)]) -> Vec<(f64, f64)> {
    let counts: Vec<(f64, f64)> = values
        .iter()
        .filter_map(|(t, v)| sample_value(v).map(|v| (*t, v)))
        .collect();
    counts
        .windows(2)
        .filter(|pair| pair[1].1 > pair[0].1)
        .map(|pair| (pair[1].0, pair[1].1 - pair[0].1))
        .collect()
}

fn restarts_words(count: f64) -> String {
    match count.round() as i64 {
        1 => "Restart".to_string(),
        n => format!("{n} restarts"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_restart_is_where_the_count_rose() {
        let values: Vec<(f64, String)> = [(0.0, "0"), (30.0, "2"), (60.0, "2"), (90.0, "3")]
            .iter()
            .map(|(t, v)| (*t, v.to_string()))
            .collect();
        assert_eq!(rises(&values), vec![(30.0, 2.0), (90.0, 1.0)]);
        assert_eq!(restarts_words(2.0), "2 restarts");
    }
}

async fn markers(api: Api, watched: Watched, window: Window) -> Result<Vec<Marker>, ApiError> {
    let (deployed, restarted) = futures::join!(
        deployments(api, &watched, window),
        restarts(api, &watched, window)
    );
    // Without the organization's events (a role that may not read them), the restarts alone.
    let mut markers = deployed.unwrap_or_default();
    markers.extend(restarted?);
    markers.sort_by(|a, b| a.at.total_cmp(&b.at));
    Ok(markers)
}

#[component]
pub fn Charts(watched: Watched, window: Memo<Window>, clock: Signal<Clock>) -> impl IntoView {
    let api = use_api();
    let marked = {
        let watched = watched.clone();
        resource(move || markers(api, watched.clone(), window.get()))
    };
    let markers = Signal::derive(move || marked.get().and_then(Result::ok).unwrap_or_default());
    let chosen = RwSignal::new(None::<Marker>);
    let open = Callback::new(move |marker: Marker| chosen.set(Some(marker)));
    let charts = charts_of(&watched.workload, &window.get_untracked());
    let range = Signal::derive(move || {
        let window = window.get();
        (window.start, window.end)
    });
    view! {
        <div class="charts">
            {charts.into_iter().map(|chart| {
                let (workload, cluster) = (watched.workload.clone(), watched.cluster);
                let title = chart.title;
                // The lines again for each window: a rate's range follows its step.
                let read = resource(move || {
                    let window = window.get();
                    let lines = charts_of(&workload, &window)
                        .into_iter()
                        .find(|chart| chart.title == title)
                        .map(|chart| chart.lines)
                        .unwrap_or_default();
                    read(api, cluster, lines, window)
                });
                let series = Signal::derive(move || read.get().and_then(Result::ok).unwrap_or_default());
                let failed = move || read.get().and_then(Result::err);
                let shown = move || !chart.only_with_data || series.with(|s| s.iter().any(|s| !s.points.is_empty()));
                let on_marker = chart.lists_markers.then_some(open);
                view! {
                    <Show when=shown>
                        <section class="card">
                            {move || failed().map(|error| view! {
                                <p class="notice notice--error" role="alert">{error.to_string()}</p>
                            })}
                            <LineChart title=title series range unit=chart.unit scale=chart.scale clock markers on_marker/>
                        </section>
                    </Show>
                }
            }).collect_view()}
        </div>
        <EventsAround watched chosen window/>
    }
}
