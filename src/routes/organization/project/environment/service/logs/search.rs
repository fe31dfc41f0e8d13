//! What a service's instances print, searched through the cluster's logs (`/cluster/{id}/logs`,
//! LogQL): by level, instance, version and text (any case), over a time range; newest first, 200
//! lines a page with "Older lines" for the next; following new lines by asking again from the
//! newest one seen; the lines shown downloaded as text. The filter and range are in the address,
//! so that a link shows the same lines. An API without that route gets the platform's last 1,000
//! lines instead.

use std::time::Duration;

use chrono::{DateTime, Utc};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_query_map;
use platform_api::monitoring::{LogFilter, LogsParameters, LOG_LEVELS};
use uuid::Uuid;

use super::super::monitoring::controls::Controls;
use super::super::monitoring::now_seconds;
use super::super::monitoring::window::{use_asked, use_parameters_setter};
use super::super::Target;
use super::instance_log::InstanceLog;
use super::virtual_log::VirtualLog;
use crate::api::monitoring::LogRecord;
use crate::api::{use_api, Api, ApiError};
use crate::components::download::download_text;
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::toasts::{use_toasts, Toasts};

/// Lines a page, as the platform's console pages them.
const PAGE: usize = 200;
/// How often new lines are asked for while following.
const FOLLOW_EVERY: Duration = Duration::from_secs(5);

/// Where the search stands.
#[derive(Clone, Debug, PartialEq)]
enum Reading {
    /// A new search: what is drawn is the last one's until it answers.
    Searching,
    /// Older lines of the search shown.
    Loading,
    /// Lines shown; whether older ones may be asked for.
    Shown {
        older: bool,
    },
    Failed(String),
    /// The API has no log search.
    Absent,
}

fn nanos(seconds: f64) -> i64 {
    (seconds * 1e9) as i64
}

/// A page of lines in `[start, end)` (unix nanoseconds), newest first or oldest first.
fn page(filter: &LogFilter, (start, end): (i64, i64), backward: bool) -> LogsParameters {
    LogsParameters {
        endpoint: "/loki/api/v1/query_range".to_string(),
        query: filter.query(),
        start: Some(start.to_string()),
        end: Some(end.to_string()),
        limit: Some(PAGE.to_string()),
        direction: Some(if backward { "backward" } else { "forward" }.to_string()),
        ..LogsParameters::default()
    }
}

/// The lines as a text file: a line each, its time (RFC 3339), level, instance and text.
fn as_text(records: &[LogRecord]) -> String {
    let mut text = String::with_capacity(records.len() * 120);
    for record in records {
        let at = DateTime::<Utc>::from_timestamp_nanos(record.nanos);
        text.push_str(&format!(
            "{} {} {} {}\n",
            at.to_rfc3339(),
            record.level,
            record.pod,
            record.text
        ));
    }
    text
}

/// The address's filter of the service's lines.
fn use_filter(service_id: Uuid) -> Memo<LogFilter> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|query| LogFilter {
            service_id,
            level: query.get("level").filter(|v| !v.is_empty()),
            pod: query.get("pod").filter(|v| !v.is_empty()),
            version: query.get("version").filter(|v| !v.is_empty()),
            text: query.get("q").unwrap_or_default(),
        })
    })
}

/// The values a label takes in the service's lines over the window: the choices of a filter.
async fn choices(
    api: Api,
    cluster: Uuid,
    service: Uuid,
    (start, end): (f64, f64),
) -> (Vec<String>, Vec<String>) {
    let selector = LogFilter {
        service_id: service,
        ..LogFilter::default()
    }
    .selector();
    let span = (nanos(start), nanos(end));
    let (pods, versions) = futures::join!(
        api.log_label_values(cluster, "pod", selector.clone(), span),
        api.log_label_values(cluster, "app", selector, span),
    );
    (pods.unwrap_or_default(), versions.unwrap_or_default())
}

/// What the lines shown are: how many, whether filtered.
fn summary_of(count: usize, filter: &LogFilter) -> String {
    let filtered = filter.level.is_some()
        || filter.pod.is_some()
        || filter.version.is_some()
        || !filter.text.trim().is_empty();
    let lines = if count == 1 { "line" } else { "lines" };
    match (count, filtered) {
        (0, true) => "No line matches the filter in this range.".to_string(),
        (0, false) => "No line printed in this range.".to_string(),
        (count, true) => format!("{count} {lines} matching, newest first."),
        (count, false) => format!("{count} {lines}, newest first."),
    }
}

/// A search's state: the lines found and how reading them goes, its window, and its count (each
/// new search outdates the answers of the searches before it).
#[derive(Clone, Copy)]
struct Search {
    api: Api,
    toasts: Toasts,
    cluster: Signal<Option<Uuid>>,
    filter: Memo<LogFilter>,
    window: RwSignal<(f64, f64)>,
    records: RwSignal<Vec<LogRecord>>,
    reading: RwSignal<Reading>,
    searches: StoredValue<u64>,
}

impl Search {
    /// The page of lines before the oldest shown.
    fn older(self) {
        let (Some(cluster), Some(oldest)) = (
            self.cluster.get_untracked(),
            self.records.with_untracked(|r| r.last().map(|r| r.nanos)),
        ) else {
            return;
        };
        let (filter, window) = (self.filter.get_untracked(), self.window.get_untracked());
        let (api, toasts, searches, records, reading) = (
            self.api,
            self.toasts,
            self.searches,
            self.records,
            self.reading,
        );
        let search = searches.get_value();
        reading.set(Reading::Loading);
        spawn_local(async move {
            let answer = api
                .log_records(cluster, &page(&filter, (nanos(window.0), oldest), true))
                .await;
            if searches.get_value() != search {
                return;
            }
            match answer {
                Ok(found) => {
                    let older = found.len() >= PAGE;
                    records.update(|records| records.extend(found));
                    reading.set(Reading::Shown { older });
                }
                Err(error) => {
                    toasts.error(error.to_string());
                    reading.set(Reading::Shown { older: true });
                }
            }
        });
    }

    /// The lines after the newest one seen, above it.
    fn follow(self) {
        let Some(cluster) = self.cluster.get_untracked() else {
            return;
        };
        let (filter, window) = (self.filter.get_untracked(), self.window.get_untracked());
        let from = self
            .records
            .with_untracked(|r| r.first().map(|r| r.nanos + 1))
            .unwrap_or_else(|| nanos(window.0));
        let (api, toasts, searches, records) = (self.api, self.toasts, self.searches, self.records);
        let search = searches.get_value();
        spawn_local(async move {
            let span = (from, nanos(now_seconds()));
            let answer = api.log_records(cluster, &page(&filter, span, false)).await;
            if searches.get_value() != search {
                return;
            }
            match answer {
                // Newest first already (`log_records`): above the lines shown.
                Ok(found) => records.update(|records| {
                    records.splice(0..0, found);
                }),
                Err(error) => toasts.error(error.to_string()),
            }
        });
    }
}

#[component]
pub fn LogSearch(target: Target, environment: Uuid) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let cluster = resource(move || async move {
        api.environment(environment)
            .await
            .map(|environment| environment.cluster_id)
    });
    let cluster_id = move || cluster.get().and_then(Result::ok);
    let filter = use_filter(target.id);
    let query = use_query_map();
    let following = Memo::new(move |_| query.with(|q| q.get("tail").as_deref() == Some("1")));
    let asked = use_asked();
    // The range of the latest search, up to the time it was asked for (unix seconds).
    let window = RwSignal::new(asked.get_untracked().bounds(now_seconds()));
    let clock = Signal::derive(move || asked.get().clock);
    let days = Signal::derive(move || {
        let (start, end) = window.get();
        end - start > 86_400.0
    });

    let records = RwSignal::new(Vec::<LogRecord>::new());
    let reading = RwSignal::new(Reading::Searching);
    // Each new search outdates the answers of the searches before it.
    let searches = StoredValue::new(0u64);
    Effect::new(move |_| {
        let (Some(cluster), filter) = (cluster_id(), filter.get()) else {
            return;
        };
        let searched = asked.get().bounds(now_seconds());
        window.set(searched);
        let (start, end) = searched;
        searches.update_value(|count| *count += 1);
        let search = searches.get_value();
        reading.set(Reading::Searching);
        spawn_local(async move {
            let span = (nanos(start), nanos(end));
            let answer = api.log_records(cluster, &page(&filter, span, true)).await;
            if searches.get_value() != search {
                return;
            }
            match answer {
                Ok(found) => {
                    let older = found.len() >= PAGE;
                    records.set(found);
                    reading.set(Reading::Shown { older });
                }
                Err(ApiError::NotFound(_) | ApiError::Server { status: 405, .. }) => {
                    reading.set(Reading::Absent)
                }
                Err(error) => reading.set(Reading::Failed(error.to_string())),
            }
        });
    });

    let search = Search {
        api,
        toasts,
        cluster: Signal::derive(cluster_id),
        filter,
        window,
        records,
        reading,
        searches,
    };
    let older = move |_| search.older();

    // Following: the lines after the newest one seen, every few seconds while the tab is shown.
    poll(
        move || {
            records.track();
            let shown = matches!(reading.get(), Reading::Shown { .. });
            (following.get() && shown).then_some(FOLLOW_EVERY)
        },
        move || search.follow(),
    );

    let choices = resource(move || {
        let (cluster, window) = (cluster_id(), window.get());
        async move {
            match cluster {
                Some(cluster) => choices(api, cluster, target.id, window).await,
                None => (Vec::new(), Vec::new()),
            }
        }
    });
    let download = move |_| {
        let text = records.with(|records| as_text(records));
        let name = format!(
            "logs-{}.txt",
            platform_api::short_id(&target.id.to_string())
        );
        if let Err(refusal) = download_text(&name, &text) {
            toasts.error(refusal);
        }
    };
    let summary = move || {
        let count = records.with(Vec::len);
        filter.with(|filter| summary_of(count, filter))
    };

    // Drawn again only when the API is found to lack log search, not at each answer.
    let absent = Memo::new(move |_| reading.get() == Reading::Absent);
    view! {
        <section class="card" aria-labelledby="instances-title">
            <div class="card__header">
                <h2 id="instances-title">"What its instances print"</h2>
            </div>
            {move || match absent.get() {
                true => view! { <InstanceLog kind=target.kind id=target.id/> }.into_any(),
                false => view! {
                    <Controls asked/>
                    <Filters filter choices=Signal::derive(move || choices.get().unwrap_or_default())/>
                    <div class="log-controls">
                        <label class="checkbox">
                            <input type="checkbox" prop:checked=move || following.get()
                                on:change={
                                    let set = use_parameters_setter();
                                    move |event| set(&[("tail", event_target_checked(&event).then(|| "1".to_string()))])
                                }/>
                            "Follow new lines"
                        </label>
                        <button type="button" class="button button--secondary button--small"
                            disabled=move || records.with(Vec::is_empty) on:click=download>
                            "Download the lines shown"
                        </button>
                    </div>
                    {move || match reading.get() {
                        Reading::Failed(message) => Some(view! {
                            <p class="notice notice--error" role="alert">{message}</p>
                        }),
                        _ => None,
                    }}
                    <p class="muted log-summary" aria-live="polite">
                        {move || match reading.get() {
                            // The count is the last search's until this one answers.
                            Reading::Searching => "Searching…".to_string(),
                            _ => summary(),
                        }}
                    </p>
                    <VirtualLog records clock days/>
                    {move || matches!(reading.get(), Reading::Shown { older: true }).then(|| view! {
                        <button type="button" class="button button--secondary" on:click=older>
                            "Older lines"
                        </button>
                    })}
                }.into_any(),
            }}
        </section>
    }
}

/// The filter's fields, each written into the address: the selects as they change, the text
/// when searched for.
#[component]
fn Filters(filter: Memo<LogFilter>, choices: Signal<(Vec<String>, Vec<String>)>) -> impl IntoView {
    let set = use_parameters_setter();
    let text = RwSignal::new(filter.get_untracked().text);
    let select = |label: &'static str,
                  parameter: &'static str,
                  options: Signal<Vec<String>>,
                  current: Signal<Option<String>>| {
        let set = set.clone();
        let id = format!("log-filter-{parameter}");
        let label_for = id.clone();
        let change = move |event: leptos::ev::Event| {
            let value = event_target_value(&event);
            set(&[(parameter, (!value.is_empty()).then_some(value))]);
        };
        view! {
            <label class="log-controls__field" for=label_for>
                {label}
                <select id=id on:change=change prop:value=move || current.get().unwrap_or_default()>
                    <option value="">"Any"</option>
                    {move || {
                        let mut options = options.get();
                        // The address's choice, even when the range holds none of its lines.
                        if let Some(current) = current.get().filter(|c| !options.contains(c)) {
                            options.push(current);
                        }
                        options.into_iter().map(|option| {
                            let selected = current.get().as_deref() == Some(option.as_str());
                            view! { <option value=option.clone() selected=selected>{option.clone()}</option> }
                        }).collect_view()
                    }}
                </select>
            </label>
        }
    };
    let levels = Signal::derive(|| LOG_LEVELS.iter().map(|level| level.to_string()).collect());
    let pods = Signal::derive(move || choices.get().0);
    let versions = Signal::derive(move || choices.get().1);
    let search = {
        let set = set.clone();
        move |event: leptos::ev::SubmitEvent| {
            event.prevent_default();
            let text = text.get_untracked();
            set(&[("q", (!text.trim().is_empty()).then_some(text))]);
        }
    };
    view! {
        <form class="log-controls" role="search" aria-label="Filter the lines" on:submit=search>
            {select("Level", "level", levels, Signal::derive(move || filter.get().level))}
            {select("Instance", "pod", pods, Signal::derive(move || filter.get().pod))}
            {select("Version", "version", versions, Signal::derive(move || filter.get().version))}
            <label class="log-controls__field" for="log-filter-text">
                "Text"
                <input type="search" id="log-filter-text" placeholder="Any case" bind:value=text/>
            </label>
            <button type="submit" class="button button--secondary button--small">"Search"</button>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn lines_download_as_a_line_each() {
        let record = LogRecord {
            nanos: 1_795_844_709_000_000_000,
            level: "error".into(),
            pod: "web-1".into(),
            version: "v1".into(),
            text: "out of memory".into(),
        };
        assert_eq!(
            as_text(&[record]),
            "2026-11-28T05:45:09+00:00 error web-1 out of memory\n"
        );
    }
}
