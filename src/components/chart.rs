//! A line chart drawn in SVG, by hand: no charting crate draws in a few kilobytes of wasm (the
//! maintained ones bring a renderer, fonts or a JavaScript library). Each series a line, a value
//! missing a gap; a legend whose buttons hide or show a series; a read-out of every series' value
//! at a time, moved by the pointer or by the arrow keys once the chart has focus; markers on the
//! time axis (deployments, restarts), each also a button below the chart; and, for a screen
//! reader, a summary of each series and its points as a table.

use std::collections::BTreeSet;

use chrono::{DateTime, Datelike, Timelike, Utc};
use leptos::prelude::*;

use super::format::month_abbreviation;

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    /// Unix seconds and values, in time order.
    pub points: Vec<(f64, f64)>,
    /// A bound (a request, a limit) rather than a measure: drawn dashed.
    pub bound: bool,
}

/// Something that happened at a time, drawn on the time axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub at: f64,
    pub label: String,
    pub kind: MarkerKind,
    /// The instance it concerns, for a restart.
    pub pod: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    Deployment,
    Failure,
    Restart,
}

impl MarkerKind {
    fn class(self) -> &'static str {
        match self {
            MarkerKind::Deployment => "chart__marker--deployment",
            MarkerKind::Failure => "chart__marker--failure",
            MarkerKind::Restart => "chart__marker--restart",
        }
    }
}

/// How the value axis counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    /// Quarters of 1, 2 or 5 times a power of ten.
    #[default]
    Decimal,
    /// Bytes: quarters of a power of two, round numbers of MiB or GiB.
    Binary,
    /// Whole things (instances, restarts): whole-number ticks only.
    Count,
}

/// How times read: on the browser's clock or in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub utc: bool,
}

impl Clock {
    /// `t` (unix seconds) as "14:05", with the day when `day` ("Nov 28 14:05").
    pub fn format(self, t: f64, day: bool) -> String {
        self.written(t, day, false)
    }

    /// `t` to the second: "14:05:09", with the day when `day`.
    pub fn precise(self, t: f64, day: bool) -> String {
        self.written(t, day, true)
    }

    /// `t` as its day alone: "Nov 28".
    pub fn day(self, t: f64) -> String {
        let at = DateTime::<Utc>::from_timestamp(t as i64, 0).unwrap_or_default();
        let (month, date) = if self.utc {
            (at.month(), at.day())
        } else {
            let local = at.with_timezone(&chrono::Local);
            (local.month(), local.day())
        };
        format!("{} {date}", month_abbreviation(month))
    }

    /// Seconds this clock is ahead of UTC at `t`.
    fn offset(self, t: f64) -> f64 {
        if self.utc {
            return 0.0;
        }
        let at = DateTime::<Utc>::from_timestamp(t as i64, 0).unwrap_or_default();
        f64::from(at.with_timezone(&chrono::Local).offset().local_minus_utc())
    }

    fn written(self, t: f64, day: bool, seconds: bool) -> String {
        let at = DateTime::<Utc>::from_timestamp(t as i64, 0).unwrap_or_default();
        let (month, date, hour, minute, second) = if self.utc {
            (at.month(), at.day(), at.hour(), at.minute(), at.second())
        } else {
            let local = at.with_timezone(&chrono::Local);
            (
                local.month(),
                local.day(),
                local.hour(),
                local.minute(),
                local.second(),
            )
        };
        let mut text = String::new();
        if day {
            text.push_str(&format!("{} {date} ", month_abbreviation(month)));
        }
        text.push_str(&format!("{hour:02}:{minute:02}"));
        if seconds {
            text.push_str(&format!(":{second:02}"));
        }
        if self.utc {
            text.push_str(" UTC");
        }
        text
    }
}

/// The width drawn before the chart's own is measured (then one unit is one CSS pixel, so
/// that its text reads the same at 375 px as at 1280).
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 200.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 24.0;
/// Rows the table of points holds at most: spread evenly over the range.
const TABLE_ROWS: usize = 48;
/// Markers listed under a chart at most, the newest.
const MARKERS_LISTED: usize = 30;

/// A tidy top for the value axis at or above `max`: 1, 2 or 5 times a power of ten, or for a
/// `binary` unit (bytes) a power of two, whose quarters read as round numbers of MiB or GiB.
fn nice_top(max: f64, binary: bool) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    if binary {
        return 2f64.powf(max.log2().ceil().max(2.0));
    }
    let power = 10f64.powf(max.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|step| step * power)
        .find(|top| *top >= max)
        .unwrap_or(10.0 * power)
}

/// The value axis for values up to `max`: its top and its ticks, no two of which read the same
/// in `unit` (a count's ticks are whole numbers).
fn value_ticks(max: f64, scale: Scale, unit: fn(f64) -> String) -> (f64, Vec<f64>) {
    let (top, step) = match scale {
        Scale::Count => {
            let max = if max.is_finite() { max.max(0.0) } else { 0.0 };
            let step = nice_top((max / 4.0).max(1.0), false);
            let top = ((max / step).ceil() * step).max(step);
            (top, step)
        }
        Scale::Decimal | Scale::Binary => {
            let top = nice_top(max, scale == Scale::Binary);
            (top, top / 4.0)
        }
    };
    // Fewer, wider steps until no two ticks read the same (a label must name its line's value).
    let divisions = (top / step).round() as usize;
    let ticks = [divisions, divisions.div_ceil(2), 1]
        .into_iter()
        .map(|count| {
            (0..=count)
                .map(|i| top * i as f64 / count as f64)
                .collect::<Vec<_>>()
        })
        .find(|ticks| {
            let labels: BTreeSet<String> = ticks.iter().map(|v| unit(*v)).collect();
            labels.len() == ticks.len()
        })
        .unwrap_or_else(|| vec![0.0, top]);
    (top, ticks)
}

/// Seconds between two time ticks: the shortest round step that puts at most `room` ticks
/// across `span`.
fn tick_every(span: f64, room: f64) -> f64 {
    const STEPS: [f64; 12] = [
        60.0, 300.0, 900.0, 1800.0, 3600.0, 10_800.0, 21_600.0, 43_200.0, 86_400.0, 172_800.0,
        345_600.0, 604_800.0,
    ];
    STEPS
        .iter()
        .copied()
        .find(|step| span / step <= room.max(2.0))
        .unwrap_or(604_800.0)
}

/// The times of `series` (all the points' times, once each, in order).
fn times(series: &[Series]) -> Vec<f64> {
    let mut times: Vec<u64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|(t, _)| t.to_bits()))
        .collect();
    times.sort_by(|a, b| f64::from_bits(*a).total_cmp(&f64::from_bits(*b)));
    times.dedup();
    times.into_iter().map(f64::from_bits).collect()
}

/// The value of a series at `t`, if it has a point there.
fn value_at(series: &Series, t: f64) -> Option<f64> {
    series
        .points
        .binary_search_by(|(at, _)| at.total_cmp(&t))
        .ok()
        .map(|index| series.points[index].1)
}

/// The SVG path of a series: a gap where points are further apart than twice `step`.
fn path(
    points: &[(f64, f64)],
    x: impl Fn(f64) -> f64,
    y: impl Fn(f64) -> f64,
    step: f64,
) -> String {
    let mut path = String::new();
    let mut last: Option<f64> = None;
    for (t, v) in points {
        if !v.is_finite() {
            last = None;
            continue;
        }
        let command = match last {
            Some(before) if t - before <= step * 2.0 => 'L',
            _ => 'M',
        };
        path.push_str(&format!("{command}{:.1},{:.1}", x(*t), y(*v)));
        last = Some(*t);
    }
    path
}

#[component]
pub fn LineChart(
    /// The chart's title, its heading and its name for assistive technology.
    #[prop(into)]
    title: String,
    series: Signal<Vec<Series>>,
    /// The time range shown, in unix seconds.
    range: Signal<(f64, f64)>,
    /// A value as a person reads it ("0.25 vCPU", "512 MiB").
    unit: fn(f64) -> String,
    clock: Signal<Clock>,
    /// How the value axis counts.
    #[prop(optional)]
    scale: Scale,
    #[prop(optional, into)] markers: Signal<Vec<Marker>>,
    /// What a restart marker's button does (opens the events around it); the markers are listed
    /// under the chart that has it.
    #[prop(default = None)]
    on_marker: Option<Callback<Marker>>,
) -> impl IntoView {
    let hidden = RwSignal::new(BTreeSet::<String>::new());
    let cursor = RwSignal::new(None::<f64>);
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();
    let shown = Memo::new(move |_| {
        let hidden = hidden.get();
        series
            .get()
            .into_iter()
            .filter(|s| !hidden.contains(&s.name))
            .collect::<Vec<_>>()
    });
    let axis = Memo::new(move |_| {
        value_ticks(
            shown
                .get()
                .iter()
                .flat_map(|s| s.points.iter().map(|(_, v)| *v))
                .filter(|v| v.is_finite())
                .fold(0.0, f64::max),
            scale,
            unit,
        )
    });
    let top = move || axis.with(|(top, _)| *top);
    // Drawn at its own width, measured when shown and when the window is resized.
    let width = RwSignal::new(WIDTH);
    let plot_ref = NodeRef::<leptos::html::Div>::new();
    let measure = move || {
        if let Some(plot) = plot_ref.get_untracked() {
            let measured = f64::from(plot.client_width());
            if measured > 0.0 && measured != width.get_untracked() {
                width.set(measured);
            }
        }
    };
    let resized = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resized.remove());
    let all_times = Memo::new(move |_| times(&series.get()));
    let x = move |t: f64| {
        let (start, end) = range.get();
        LEFT + (t - start) / (end - start).max(1.0) * (width.get() - LEFT - RIGHT)
    };
    let y = move |v: f64| TOP + (1.0 - v / top()) * (HEIGHT - TOP - BOTTOM);
    let step = move || {
        let times = all_times.get();
        times
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min)
            .min(3600.0)
    };
    let title_id = format!("chart-{}", title.to_lowercase().replace(' ', "-"));
    let readout_id = format!("{title_id}-readout");

    // The read-out moves to the point nearest the pointer.
    let pointer = move |event: leptos::ev::PointerEvent| {
        let Some(svg) = svg_ref.get() else { return };
        let bounds = svg.get_bounding_client_rect();
        let fraction = (f64::from(event.client_x()) - bounds.left()) / bounds.width().max(1.0);
        let at_x = fraction * width.get_untracked();
        let times = all_times.get_untracked();
        let nearest = times
            .iter()
            .copied()
            .min_by(|a, b| (x(*a) - at_x).abs().total_cmp(&(x(*b) - at_x).abs()));
        cursor.set(nearest);
    };
    let keys = move |event: leptos::ev::KeyboardEvent| {
        let times = all_times.get_untracked();
        let at = cursor
            .get_untracked()
            .and_then(|t| times.iter().position(|at| *at == t));
        match read_out_moved(&event.key(), times.len(), at) {
            // Escape hides the read-out and goes on to the page (a dialog closes).
            Some(None) => cursor.set(None),
            Some(Some(next)) => {
                event.prevent_default();
                cursor.set(Some(times[next]));
            }
            None => {}
        }
    };
    let readout = move || {
        let t = cursor.get()?;
        let lines: Vec<String> = shown
            .get()
            .iter()
            .filter_map(|s| value_at(s, t).map(|v| format!("{}: {}", s.name, unit(v))))
            .collect();
        Some(format!(
            "{} — {}",
            clock.get().format(t, true),
            lines.join(", ")
        ))
    };
    let summary = move || series.with(|series| summary_of(series, unit));
    let empty = move || series.get().iter().all(|s| s.points.is_empty());
    Effect::new(move |_| {
        if plot_ref.get().is_some() && !empty() {
            request_animation_frame(measure);
        }
    });
    let legend_label = format!("{title}: series shown");
    let plot_label = format!("{title}: the arrow keys move the read-out along the time axis");
    let markers_label = format!("{title}: what happened");
    let svg_title = title.clone();
    let described_by = readout_id.clone();

    view! {
        <figure class="chart" aria-labelledby=title_id.clone()>
            <figcaption class="chart__head">
                <h3 id=title_id.clone()>{title.clone()}</h3>
                {legend(series, hidden, legend_label)}
            </figcaption>
            <Show when=empty>
                <p class="muted chart__empty">"No data in this range."</p>
            </Show>
            <div class="chart__plot" node_ref=plot_ref hidden=empty tabindex="0" role="group"
                aria-label=plot_label aria-describedby=described_by on:keydown=keys>
                <svg node_ref=svg_ref viewBox=move || format!("0 0 {} {HEIGHT}", width.get()) class="chart__svg"
                    role="img" aria-label=move || format!("{svg_title}. {}", summary())
                    on:pointermove=pointer on:pointerleave=move |_| cursor.set(None)>
                    {move || value_axis(axis.get().1, width.get(), y, unit)}
                    {move || time_axis(range.get(), width.get(), x, clock.get())}
                    {move || shown.get().into_iter().map(|s| {
                        let index = series.get_untracked().iter().position(|o| o.name == s.name).unwrap_or(0);
                        view! {
                            <path class=format!("chart__line chart__series-{}", index % 8)
                                class:chart__line--bound=s.bound
                                d=path(&s.points, x, y, step())/>
                        }
                    }).collect_view()}
                    {move || markers.get().into_iter().map(|m| view! {
                        <line class=format!("chart__marker {}", m.kind.class())
                            x1=x(m.at) x2=x(m.at) y1=TOP y2=HEIGHT - BOTTOM>
                            <title>{m.label.clone()}</title>
                        </line>
                    }).collect_view()}
                    {move || cursor.get().map(|t| view! {
                        <line class="chart__cursor" x1=x(t) x2=x(t) y1=TOP y2=HEIGHT - BOTTOM/>
                    })}
                </svg>
                <p class="chart__readout" id=readout_id aria-live="polite">{readout}</p>
            </div>
            {move || {
                let open = on_marker?;
                marker_list(markers.get(), clock, open, markers_label.clone())
            }}
            {data_table(series, all_times, clock, unit)}
        </figure>
    }
}

/// Where a key moves the read-out among `count` times from `at`: `Some(None)` hides it, `None`
/// leaves the key to the page.
fn read_out_moved(key: &str, count: usize, at: Option<usize>) -> Option<Option<usize>> {
    if count == 0 {
        return None;
    }
    match (key, at) {
        ("ArrowRight", Some(i)) => Some(Some((i + 1).min(count - 1))),
        ("ArrowLeft", Some(i)) => Some(Some(i.saturating_sub(1))),
        ("ArrowRight" | "ArrowLeft" | "End", None) | ("End", _) => Some(Some(count - 1)),
        ("Home", _) => Some(Some(0)),
        ("Escape", _) => Some(None),
        _ => None,
    }
}

/// The value axis: a line at each tick, with its value.
fn value_axis(
    ticks: Vec<f64>,
    width: f64,
    y: impl Fn(f64) -> f64,
    unit: fn(f64) -> String,
) -> impl IntoView {
    ticks
        .into_iter()
        .map(|v| {
            let at = y(v);
            view! {
                <line class="chart__grid" x1=LEFT x2=width - RIGHT y1=at y2=at/>
                <text class="chart__tick" x=LEFT - 6.0 y=at + 4.0 text-anchor="end">{unit(v)}</text>
            }
        })
        .collect_view()
}

/// The time axis: a tick at each round time of the range on the clock chosen, as many as fit
/// `width`; days named by their date alone once a tick is a day or more apart.
fn time_axis(
    (start, end): (f64, f64),
    width: f64,
    x: impl Fn(f64) -> f64,
    clock: Clock,
) -> impl IntoView {
    time_ticks((start, end), width, clock)
        .into_iter()
        .map(|(t, label)| {
            view! {
                <text class="chart__tick" x=x(t) y=HEIGHT - 6.0 text-anchor="middle">{label}</text>
            }
        })
        .collect_view()
}

/// The time axis's ticks and their labels.
fn time_ticks((start, end): (f64, f64), width: f64, clock: Clock) -> Vec<(f64, String)> {
    let span = end - start;
    let days = span > 2.0 * 86_400.0;
    let with_day = span > 86_400.0;
    // A label's width at the tick's font, with room between two.
    let sample = if days {
        clock.day(start)
    } else {
        clock.format(start, with_day)
    };
    let label_width = sample.chars().count() as f64 * 6.5 + 18.0;
    let mut every = tick_every(span, (width - LEFT - RIGHT) / label_width);
    if days {
        every = every.max(86_400.0);
    }
    let offset = clock.offset(start);
    let first = ((start + offset) / every).ceil() * every - offset;
    (0..16)
        .map(|i| first + every * f64::from(i))
        .take_while(|t| *t <= end)
        .map(|t| {
            let label = if every >= 86_400.0 {
                clock.day(t)
            } else {
                clock.format(t, with_day)
            };
            (t, label)
        })
        .collect()
}

/// The chart in words, for assistive technology: each series' range and last value.
fn summary_of(series: &[Series], unit: fn(f64) -> String) -> String {
    if series.iter().all(|s| s.points.is_empty()) {
        return "No data in this range.".to_string();
    }
    series
        .iter()
        .filter(|s| !s.points.is_empty())
        .map(|s| {
            let values = s.points.iter().map(|(_, v)| *v).filter(|v| v.is_finite());
            let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
                (l.min(v), h.max(v))
            });
            let last = s.points.last().map_or(0.0, |(_, v)| *v);
            format!(
                "{}: from {} to {}, last {}",
                s.name,
                unit(low),
                unit(high),
                unit(last)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The keys that show or hide each series.
fn legend(
    series: Signal<Vec<Series>>,
    hidden: RwSignal<BTreeSet<String>>,
    label: String,
) -> impl IntoView {
    view! {
        <div class="chart__legend" role="group" aria-label=label>
            <For each=move || series.get() key=|s| s.name.clone() let:one>
                {
                    let name = one.name.clone();
                    let index = series.get_untracked().iter().position(|s| s.name == name).unwrap_or(0);
                    let pressed = {
                        let name = name.clone();
                        move || (!hidden.get().contains(&name)).to_string()
                    };
                    let toggle = {
                        let name = name.clone();
                        move |_| hidden.update(|hidden| {
                            if !hidden.remove(&name) {
                                hidden.insert(name.clone());
                            }
                        })
                    };
                    view! {
                        <button type="button" class="chart__key" aria-pressed=pressed on:click=toggle>
                            <span class=format!("chart__swatch chart__series-{}", index % 8)
                                class:chart__swatch--bound=one.bound></span>
                            {name}
                        </button>
                    }
                }
            </For>
        </div>
    }
}

/// What happened in the range, newest first, a restart opening the events around it.
fn marker_list(
    markers: Vec<Marker>,
    clock: Signal<Clock>,
    open: Callback<Marker>,
    label: String,
) -> Option<impl IntoView> {
    let more = markers.len().saturating_sub(MARKERS_LISTED);
    (!markers.is_empty()).then(|| view! {
        <ul class="chart__markers" aria-label=label>
            {markers.into_iter().rev().take(MARKERS_LISTED).map(|m| {
                let when = clock.get_untracked().format(m.at, true);
                let text = format!("{when} {}", m.label);
                match m.kind {
                    MarkerKind::Restart => view! {
                        <li><button type="button" class=format!("link-button {}", m.kind.class())
                            on:click=move |_| open.run(m.clone())>{text}</button></li>
                    }.into_any(),
                    _ => view! { <li class=m.kind.class()>{text}</li> }.into_any(),
                }
            }).collect_view()}
            {(more > 0).then(|| view! { <li class="muted">{format!("and {more} earlier")}</li> })}
        </ul>
    })
}

/// The series as a table, a row per time (at most `TABLE_ROWS`), on demand.
fn data_table(
    series: Signal<Vec<Series>>,
    all_times: Memo<Vec<f64>>,
    clock: Signal<Clock>,
    unit: fn(f64) -> String,
) -> impl IntoView {
    view! {
        <details class="chart__table">
            <summary>"Show the data as a table"</summary>
            {move || {
                let series = series.get();
                let times = all_times.get();
                let every = (times.len() / TABLE_ROWS).max(1);
                view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Time"</th>
                            {series.iter().map(|s| view! { <th scope="col">{s.name.clone()}</th> }).collect_view()}
                        </tr></thead>
                        <tbody>
                            {times.iter().step_by(every).map(|t| view! {
                                <tr>
                                    <th scope="row">{clock.get_untracked().format(*t, true)}</th>
                                    {series.iter().map(|s| view! {
                                        <td>{value_at(s, *t).map(unit).unwrap_or_else(|| "—".into())}</td>
                                    }).collect_view()}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                }
            }}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_value_axis_ends_on_a_round_number() {
        assert_eq!(nice_top(0.37, false), 0.5);
        assert_eq!(nice_top(3.0, false), 5.0);
        assert_eq!(nice_top(512.0, false), 1000.0);
        assert_eq!(nice_top(0.0, false), 1.0);
        assert_eq!(
            nice_top(300.0 * 1024.0 * 1024.0, true),
            512.0 * 1024.0 * 1024.0
        );
    }

    #[wasm_bindgen_test]
    fn no_axis_repeats_a_label_and_counts_tick_whole() {
        fn count(v: f64) -> String {
            format!("{}", v.round())
        }
        fn cores(v: f64) -> String {
            format!("{v}")
        }
        // The Instances chart once read 0, 0, 1, 1, 1.
        assert_eq!(value_ticks(1.0, Scale::Count, count), (1.0, vec![0.0, 1.0]));
        assert_eq!(value_ticks(0.0, Scale::Count, count), (1.0, vec![0.0, 1.0]));
        assert_eq!(
            value_ticks(3.0, Scale::Count, count),
            (3.0, vec![0.0, 1.0, 2.0, 3.0])
        );
        assert_eq!(
            value_ticks(7.0, Scale::Count, count),
            (8.0, vec![0.0, 2.0, 4.0, 6.0, 8.0])
        );
        assert_eq!(
            value_ticks(0.37, Scale::Decimal, cores).1,
            vec![0.0, 0.125, 0.25, 0.375, 0.5]
        );
        // A unit too coarse for quarters ticks less, never a label at another value.
        assert_eq!(value_ticks(1.0, Scale::Decimal, count).1, vec![0.0, 1.0]);
    }

    #[wasm_bindgen_test]
    fn a_weeks_axis_names_days_and_narrow_charts_tick_less() {
        let utc = Clock { utc: true };
        // Dec 1 2026 00:00 UTC.
        let start = 1_796_083_200.0 + 3_600.0;
        let week = (start, start + 7.0 * 86_400.0);
        let wide = time_ticks(week, 1280.0, utc);
        assert_eq!(
            wide.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>(),
            ["Dec 2", "Dec 3", "Dec 4", "Dec 5", "Dec 6", "Dec 7", "Dec 8"]
        );
        let narrow = time_ticks(week, 330.0, utc);
        assert!(narrow.len() <= 4, "{narrow:?}");
        assert!(narrow.iter().all(|(_, l)| l.len() <= 6), "{narrow:?}");
        let labels: BTreeSet<_> = narrow.iter().map(|(_, l)| l.clone()).collect();
        assert_eq!(labels.len(), narrow.len());
        let hour = time_ticks((start, start + 3_600.0), 330.0, utc);
        assert!((2..=5).contains(&hour.len()), "{hour:?}");
    }

    #[wasm_bindgen_test]
    fn times_read_on_the_clock_chosen() {
        let utc = Clock { utc: true };
        assert_eq!(utc.format(1_795_844_709.0, false), "05:45 UTC");
        assert_eq!(utc.precise(1_795_844_709.0, true), "Nov 28 05:45:09 UTC");
    }

    #[wasm_bindgen_test]
    fn a_gap_in_the_points_is_a_gap_in_the_line() {
        let points = [(0.0, 1.0), (30.0, 2.0), (300.0, 1.0)];
        let drawn = path(&points, |t| t, |v| v, 30.0);
        assert_eq!(drawn, "M0.0,1.0L30.0,2.0M300.0,1.0");
    }
}
