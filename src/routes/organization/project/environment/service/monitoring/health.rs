//! Health at a glance: a tile per measure over the window (instances ready, restarts, OOM kills,
//! error lines, 5xx share, p99 latency, storage), each with how it compares with the window
//! before, coloured only when it calls for attention.

use futures::future::join_all;
use leptos::prelude::*;
use platform_api::monitoring::{sample_value, Workload};
use uuid::Uuid;

use super::units;
use super::window::Window;
use super::Watched;
use crate::api::{use_api, Api, ApiError};
use crate::components::loaded::loaded;
use crate::state::resource::resource;

/// How a measure reads.
#[derive(Clone, Copy)]
enum Reading {
    /// A number of things in the window.
    Count,
    /// One value, in a unit.
    Value(fn(f64) -> String),
    /// A value of a whole ("2 of 3", "1 GiB of 10 GiB"): its second query is the whole.
    Of(fn(f64) -> String),
}

struct Measure {
    label: &'static str,
    /// Its query, or its part and whole, over a window `range` long.
    queries: fn(&Workload, &str) -> Vec<String>,
    reading: Reading,
    /// Whether the value (the share for `Of`) calls for attention.
    attention: fn(f64) -> bool,
    /// Whether the service has it (requests only through an ingress).
    applies: fn(&Workload) -> bool,
}

const MEASURES: [Measure; 7] = [
    Measure {
        label: "Instances ready",
        queries: |w, _| vec![w.instances_ready(), w.instances_wanted()],
        reading: Reading::Of(units::count),
        attention: |share| share < 1.0,
        applies: |_| true,
    },
    Measure {
        label: "Restarts",
        queries: |w, range| vec![w.restarts(range)],
        reading: Reading::Count,
        attention: |count| count >= 0.5,
        applies: |_| true,
    },
    Measure {
        label: "Out-of-memory kills",
        queries: |w, range| vec![w.events("OOMKilled", range)],
        reading: Reading::Count,
        attention: |count| count >= 0.5,
        applies: |_| true,
    },
    Measure {
        label: "Error lines logged",
        queries: |w, range| vec![w.error_lines(range)],
        reading: Reading::Count,
        attention: |count| count >= 0.5,
        applies: |_| true,
    },
    Measure {
        label: "HTTP 5xx",
        queries: |w, range| vec![w.error_share(range)],
        reading: Reading::Value(units::share),
        attention: |share| share > 0.05,
        applies: |w| w.ingress.is_some(),
    },
    Measure {
        label: "Worst p99 latency",
        queries: |w, range| vec![w.worst_latency(range)],
        reading: Reading::Value(units::seconds),
        attention: |seconds| seconds > 0.25,
        applies: |w| w.ingress.is_some(),
    },
    Measure {
        label: "Storage used",
        queries: |w, _| vec![w.storage(false), w.storage(true)],
        reading: Reading::Of(units::bytes),
        attention: |share| share > 0.8,
        // Any kind may have volumes: a service without any has no sample, and no tile.
        applies: |_| true,
    },
];

/// A measure read over the window and the one before.
#[derive(Clone, Debug, PartialEq)]
struct Tile {
    label: &'static str,
    value: String,
    trend: String,
    attention: bool,
}

/// The first sample of an instant query, if it has one.
async fn sample(api: Api, cluster: Uuid, query: String, at: f64) -> Result<Option<f64>, ApiError> {
    let series = api.metrics_at(cluster, query, at).await?;
    Ok(series
        .first()
        .and_then(|series| sample_value(&series.value.1))
        .filter(|value| value.is_finite()))
}

/// What a measure's values say: a number to compare and the words for it.
fn read(measure: &Measure, values: &[Option<f64>]) -> Option<(f64, String)> {
    let first = values.first().copied().flatten()?;
    match measure.reading {
        Reading::Count => Some((first, units::count(first))),
        Reading::Value(unit) => Some((first, unit(first))),
        Reading::Of(unit) => {
            let whole = values.get(1).copied().flatten()?;
            let share = if whole > 0.0 { first / whole } else { 1.0 };
            Some((share, format!("{} of {}", unit(first), unit(whole))))
        }
    }
}

/// How the window compares with the one before.
fn trend(measure: &Measure, now: f64, before: Option<(f64, String)>, length: &str) -> String {
    let Some((then, words)) = before else {
        return format!("no data the {length} before");
    };
    match measure.reading {
        Reading::Count => match (now - then).round() {
            d if d > 0.0 => format!("↑ {d} on the {length} before"),
            d if d < 0.0 => format!("↓ {} on the {length} before", -d),
            _ => format!("as many as the {length} before"),
        },
        _ if (now - then).abs() <= now.abs().max(then.abs()) * 0.05 => {
            format!("about as the {length} before")
        }
        _ => format!("{words} the {length} before"),
    }
}

/// Every measure of the service, read over `window` and the window before.
async fn tiles(api: Api, watched: Watched, window: Window) -> Result<Vec<Tile>, ApiError> {
    let range = window.range();
    let before = window.before();
    let length = super::window::length_words(window.end - window.start);
    let measures: Vec<&Measure> = MEASURES
        .iter()
        .filter(|measure| (measure.applies)(&watched.workload))
        .collect();
    let reads = measures.iter().map(|measure| {
        let queries = (measure.queries)(&watched.workload, &range);
        async move {
            let at = |time: f64| {
                join_all(
                    queries
                        .iter()
                        .map(|query| sample(api, watched.cluster, query.clone(), time)),
                )
            };
            let (now, then) = futures::join!(at(window.end), at(before.end));
            let now: Result<Vec<_>, _> = now.into_iter().collect();
            let then: Result<Vec<_>, _> = then.into_iter().collect();
            Ok::<_, ApiError>((now?, then?))
        }
    });
    let values = join_all(reads).await;
    let mut tiles = Vec::new();
    for (measure, values) in measures.into_iter().zip(values) {
        let (now, then) = values?;
        let Some((number, value)) = read(measure, &now) else {
            continue;
        };
        tiles.push(Tile {
            label: measure.label,
            value,
            trend: trend(measure, number, read(measure, &then), &length),
            attention: (measure.attention)(number),
        });
    }
    Ok(tiles)
}

#[component]
pub fn Health(watched: Watched, window: Memo<Window>) -> impl IntoView {
    let api = use_api();
    let read = resource(move || tiles(api, watched.clone(), window.get()));
    view! {
        <section aria-labelledby="health-title">
            <h2 id="health-title" class="visually-hidden">"Health at a glance"</h2>
            {loaded(read, 2, |tiles: Vec<Tile>| {
                if tiles.is_empty() {
                    return view! { <p class="muted">"No data in this range."</p> }.into_any();
                }
                view! {
                    <ul class="health">
                        {tiles.into_iter().map(|tile| view! {
                            <li class="health__tile" class:health__tile--attention=tile.attention>
                                <p class="health__label">{tile.label}</p>
                                <p class="health__value">{tile.value}</p>
                                <p class="health__trend">{tile.trend}</p>
                            </li>
                        }).collect_view()}
                    </ul>
                }
                .into_any()
            })}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_measure_reads_with_its_trend() {
        let instances = &MEASURES[0];
        let now = read(instances, &[Some(1.0), Some(2.0)]).unwrap();
        assert_eq!(now, (0.5, "1 of 2".to_string()));
        assert!((instances.attention)(now.0));
        let before = read(instances, &[Some(2.0), Some(2.0)]);
        assert_eq!(
            trend(instances, now.0, before, "1 h"),
            "2 of 2 the 1 h before"
        );
        let restarts = &MEASURES[1];
        let now = read(restarts, &[Some(3.0000002)]).unwrap();
        assert_eq!(now.1, "3");
        assert_eq!(
            trend(restarts, now.0, read(restarts, &[Some(1.0)]), "1 h"),
            "↑ 2 on the 1 h before"
        );
        assert_eq!(read(restarts, &[None]), None);
    }
}
