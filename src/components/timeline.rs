//! One story of what happened (`api::timeline`), newest first and grouped by day, filtered by
//! kind, person and range (kept in the address, so that a link shows the same), each entry
//! leading to its detail: a deployment's steps and log, a change in the audit log.

use chrono::{DateTime, Datelike, Duration, Utc, Weekday};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use uuid::Uuid;

use super::empty_state::EmptyState;
use super::format::{self, month_abbreviation};
use super::loaded::loaded;
use super::skeleton::Skeleton;
use crate::api::timeline::{EntryDetail, EntryKind, Timeline, TimelineEntry, TimelineScope};
use crate::api::use_api;
use crate::paths::{self, ServiceTab};
use crate::state::resource::resource;

/// The ranges offered, in days; the first is the default.
const RANGES: [(i64, &str); 3] = [(7, "7 days"), (1, "24 hours"), (30, "30 days")];

/// The filters, read from the address's query.
#[derive(Clone, Debug, Default, PartialEq)]
struct Filters {
    kind: Option<EntryKind>,
    who: Option<String>,
    days: Option<i64>,
}

impl Filters {
    fn days(&self) -> i64 {
        self.days.unwrap_or(RANGES[0].0)
    }

    fn query(&self) -> String {
        let mut pairs = Vec::new();
        if let Some(kind) = self.kind {
            pairs.push(format!("kind={}", kind.as_str()));
        }
        if let Some(who) = &self.who {
            pairs.push(format!("who={}", crate::api::query_value(who)));
        }
        if let Some(days) = self.days {
            pairs.push(format!("days={days}"));
        }
        if pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", pairs.join("&"))
        }
    }

    fn keeps(&self, entry: &TimelineEntry) -> bool {
        self.kind.is_none_or(|kind| entry.kind == kind)
            && self.who.as_ref().is_none_or(|who| &entry.who == who)
    }
}

#[component]
pub fn TimelineView(
    org: Memo<Option<Uuid>>,
    scope: Signal<Option<TimelineScope>>,
    /// A tab of a service of the page's environment (a deployment's, its instances').
    service_link: Callback<(Uuid, ServiceTab), Option<String>>,
) -> impl IntoView {
    let api = use_api();
    let address = use_query_map();
    let navigate = use_navigate();
    let filters = Memo::new(move |_| {
        address.with(|query| Filters {
            kind: query.get("kind").as_deref().and_then(EntryKind::parse),
            who: query.get("who").filter(|who| !who.is_empty()),
            days: query
                .get("days")
                .and_then(|days| days.parse().ok())
                .filter(|days| RANGES.iter().any(|(offered, _)| offered == days)),
        })
    });
    let days = Memo::new(move |_| filters.get().days());
    let read = resource(move || {
        let (org, scope, days) = (org.get(), scope.get(), days.get());
        async move {
            // Not shown until the address says whose (below).
            let (Some(org), Some(scope)) = (org, scope) else {
                return Ok(Timeline {
                    entries: Vec::new(),
                    unanswered: Vec::new(),
                });
            };
            api.timeline(org, scope, Utc::now() - Duration::days(days))
                .await
        }
    });
    let change = move |change: &dyn Fn(&mut Filters)| {
        let mut wanted = filters.get_untracked();
        change(&mut wanted);
        let path = window().location().pathname().unwrap_or_default();
        navigate(
            &format!("{path}{}", wanted.query()),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..NavigateOptions::default()
            },
        );
    };
    let people = Memo::new(move |_| {
        let mut people: Vec<String> = read.with(|read| match read {
            Some(Ok(timeline)) => timeline.entries.iter().map(|e| e.who.clone()).collect(),
            _ => Vec::new(),
        });
        people.sort();
        people.dedup();
        people.retain(|who| !who.is_empty());
        people
    });
    let change_kind = change.clone();
    let change_who = change.clone();
    view! {
        <form class="timeline__filters" role="search" aria-label="Filter the timeline"
            on:submit=|event| event.prevent_default()>
            <label>
                <span>"What"</span>
                <select on:change=move |event| {
                    let kind = EntryKind::parse(&event_target_value(&event));
                    change_kind(&|filters: &mut Filters| filters.kind = kind);
                }>
                    <option value="" selected=move || filters.get().kind.is_none()>"Everything"</option>
                    {EntryKind::ALL.into_iter().map(|kind| view! {
                        <option value=kind.as_str() selected=move || filters.get().kind == Some(kind)>
                            {kind.plural()}
                        </option>
                    }).collect_view()}
                </select>
            </label>
            <label>
                <span>"Who"</span>
                <select on:change=move |event| {
                    let who = Some(event_target_value(&event)).filter(|who| !who.is_empty());
                    change_who(&|filters: &mut Filters| filters.who = who.clone());
                }>
                    <option value="" selected=move || filters.get().who.is_none()>"Everyone"</option>
                    {move || people.get().into_iter().map(|who| {
                        let chosen = who.clone();
                        view! {
                            <option value=who.clone()
                                selected=move || filters.get().who.as_deref() == Some(chosen.as_str())>
                                {who.clone()}
                            </option>
                        }
                    }).collect_view()}
                </select>
            </label>
            <label>
                <span>"When"</span>
                <select on:change=move |event| {
                    let days = event_target_value(&event).parse().ok();
                    change(&|filters: &mut Filters| filters.days = days);
                }>
                    {RANGES.into_iter().map(|(range, label)| view! {
                        <option value=range.to_string() selected=move || days.get() == range>
                            {format!("The last {label}")}
                        </option>
                    }).collect_view()}
                </select>
            </label>
        </form>
        <Show when=move || org.with(Option::is_some) && scope.with(Option::is_some)
            fallback=|| view! { <Skeleton lines=6/> }>
        {loaded(read, 6, move |timeline: Timeline| {
            let entries = StoredValue::new(timeline.entries);
            // The kind and the person filter what was read; the range reads anew.
            let kept = move || {
                let filters = filters.get();
                entries.with_value(|entries| {
                    entries.iter().filter(|entry| filters.keeps(entry)).cloned().collect::<Vec<_>>()
                })
            };
            view! {
                {timeline.unanswered.into_iter().map(|source| view! {
                    <p class="muted timeline__unanswered">{format!("Not read: {source}")}</p>
                }).collect_view()}
                {move || {
                    let kept = kept();
                    if kept.is_empty() {
                        view! {
                            <EmptyState title="Nothing happened in this range"
                                hint="Widen the range, or show everything and everyone."/>
                        }.into_any()
                    } else {
                        days_of(kept, service_link, org.get_untracked()).into_any()
                    }
                }}
            }
        })}
        </Show>
    }
}

/// The entries under a heading for each day, on the browser's clock.
fn days_of(
    entries: Vec<TimelineEntry>,
    service_link: Callback<(Uuid, ServiceTab), Option<String>>,
    org: Option<Uuid>,
) -> impl IntoView {
    let mut days: Vec<(String, Vec<TimelineEntry>)> = Vec::new();
    for entry in entries {
        let day = day_of(entry.at);
        match days.last_mut() {
            Some((last, entries)) if *last == day => entries.push(entry),
            _ => days.push((day, vec![entry])),
        }
    }
    days.into_iter()
        .enumerate()
        .map(|(index, (day, entries))| {
            let heading = format!("timeline-day-{index}");
            let labelled_by = heading.clone();
            view! {
                <section class="card timeline__day" aria-labelledby=labelled_by>
                    <h2 id=heading>{day}</h2>
                    <ol class="timeline__entries">
                        {entries.into_iter().map(|entry| entry_view(entry, service_link, org)).collect_view()}
                    </ol>
                </section>
            }
        })
        .collect_view()
}

fn entry_view(
    entry: TimelineEntry,
    service_link: Callback<(Uuid, ServiceTab), Option<String>>,
    org: Option<Uuid>,
) -> impl IntoView {
    let link = match &entry.link {
        EntryDetail::Deployment { service } => {
            service_link.run((*service, ServiceTab::Deployments))
        }
        EntryDetail::Instances { service } => service_link.run((*service, ServiceTab::Monitoring)),
        EntryDetail::Event(query) => org.map(|org| paths::audit_log(org, query)),
    };
    let title = entry.title.clone();
    view! {
        <li class="timeline__entry" class:timeline__entry--failed=entry.failed>
            <time class="timeline__time" datetime=entry.at.to_rfc3339() title=format::exact(entry.at)>
                {format::clock(entry.at)}
            </time>
            <span class=format!("timeline__kind timeline__kind--{}", entry.kind.as_str())>
                {entry.kind.singular()}
            </span>
            <span class="timeline__what">
                {match link {
                    Some(link) => view! { <A href=link>{title}</A> }.into_any(),
                    None => view! { <span>{title}</span> }.into_any(),
                }}
                {(!entry.who.is_empty()).then(|| view! { <span class="muted">{format!(" by {}", entry.who)}</span> })}
            </span>
            {(!entry.detail.is_empty()).then(|| view! { <p class="timeline__detail">{entry.detail.clone()}</p> })}
        </li>
    }
}

/// "Tue Dec 8", on the browser's clock.
fn day_of(at: DateTime<Utc>) -> String {
    let local = at.with_timezone(&chrono::Local);
    let weekday = match local.weekday() {
        Weekday::Mon => "Mon",
        Weekday::Tue => "Tue",
        Weekday::Wed => "Wed",
        Weekday::Thu => "Thu",
        Weekday::Fri => "Fri",
        Weekday::Sat => "Sat",
        Weekday::Sun => "Sun",
    };
    format!(
        "{weekday} {} {}",
        month_abbreviation(local.month()),
        local.day()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_filters_are_written_in_the_address() {
        let filters = Filters {
            kind: Some(EntryKind::Deployment),
            who: Some("Ada Lovelace".into()),
            days: Some(30),
        };
        assert_eq!(
            filters.query(),
            "?kind=deployment&who=Ada%20Lovelace&days=30"
        );
        assert_eq!(Filters::default().query(), "");
        assert_eq!(Filters::default().days(), 7);
        for kind in EntryKind::ALL {
            assert_eq!(EntryKind::parse(kind.as_str()), Some(kind));
        }
    }
}
