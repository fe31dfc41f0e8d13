//! `/organization/:org/audit-log`: every change made through the API, newest first: what was
//! done to what, by whom, from where, when, and what it changed field by field. The filters and
//! the page are in the address (the document's parameter names), so that a project's, an
//! environment's or a service's "History of changes" is a link here.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use platform_api::audit::{
    link_token, EventQuery, EventType, FieldChange, OrganizationEvent, OrganizationEventList,
    Origin, TargetType,
};
use platform_api::{FieldError, WireEnum};
use serde_json::Value;
use uuid::Uuid;

use crate::api::use_api;
use crate::components::empty_state::EmptyState;
use crate::components::form_field::{any_or_one_of, ChoiceField, TextField};
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::paths;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::no_organization;
use crate::state::resource::resource;

const PAGE_SIZE: i64 = 25;
/// The width up to which the stylesheet lays pages out for a phone.
const NARROW_PX: f64 = 640.0;

#[component]
pub fn AuditLog() -> impl IntoView {
    let api = use_api();
    let org = current_id(|a: &OrganizationAddress| a.org);
    let address = use_query_map();
    let query = Memo::new(move |_| {
        address.with(|parameters| EventQuery::from_parameters(|name| parameters.get(name)))
    });
    let events = resource(move || {
        let (org, query) = (org.get(), query.get());
        async move {
            let org = org.ok_or_else(no_organization)?;
            let asked = EventQuery {
                page_size: Some(query.page_size.unwrap_or(PAGE_SIZE)),
                ..query.clone()
            };
            api.audit_events(org, &asked)
                .await
                .map(|list| (org, query, list))
        }
    });
    view! {
        <div class="page__header">
            <h1>"Audit log"</h1>
            <p class="page__lead">
                "Every change made through the API: what was done, by whom, from where, and what it changed."
            </p>
        </div>
        <section class="card" aria-labelledby="audit-title">
            <h2 id="audit-title">"Changes"</h2>
            {move || org.get().map(|org| view! { <Filters org query/> })}
            {loaded(events, 6, |(org, query, list)| view! { <Entries org query list/> })}
        </section>
    }
}

/// Narrows the log by what was done, to what kind of resource, from where and by whom; what it
/// is narrowed to beyond these (a project, an environment, a resource) is said, and can be left.
#[component]
fn Filters(org: Uuid, query: Memo<EventQuery>) -> impl IntoView {
    let current = query.get_untracked();
    let event_type = RwSignal::new(current.event_type);
    let target_type = RwSignal::new(current.target_type);
    let origin = RwSignal::new(current.origin);
    let triggered_by = RwSignal::new(current.triggered_by.clone().unwrap_or_default());
    let since = RwSignal::new(
        current
            .from_timestamp
            .as_deref()
            .map(local_time)
            .unwrap_or_default(),
    );
    let until = RwSignal::new(
        current
            .to_timestamp
            .as_deref()
            .map(local_time)
            .unwrap_or_default(),
    );
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let navigate = use_navigate();
    let apply = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let who = triggered_by.get_untracked().trim().to_string();
        let (from, to) = (
            instant(&since.get_untracked()),
            instant(&until.get_untracked()),
        );
        let wanted = EventQuery {
            event_type: event_type.get_untracked(),
            target_type: target_type.get_untracked(),
            origin: origin.get_untracked(),
            triggered_by: (!who.is_empty()).then_some(who),
            from_timestamp: from.clone(),
            to_timestamp: to.clone(),
            ..query.get_untracked().first_page()
        };
        // The rules of the document's parameters, checked here as the server checks them.
        let mut problems = wanted.window().err().unwrap_or_default();
        if let (Some(from), Some(to)) = (&from, &to) {
            if from > to {
                problems.push(FieldError::new("toTimestamp", "must be after Since"));
            }
        }
        for problem in &mut problems {
            // The form's fields are named after the parameters they fill.
            problem.field = problem
                .field
                .replace("fromTimestamp", "since")
                .replace("toTimestamp", "until");
        }
        let fine = problems.is_empty();
        errors.set(problems);
        if fine {
            navigate(&paths::audit_log(org, &wanted), NavigateOptions::default());
        }
    };
    let narrowed = move || {
        let query = query.get();
        (query.target_id.is_some()
            || query.service_project_id.is_some()
            || query.service_environment_id.is_some())
        .then(|| {
            let whole = EventQuery {
                target_id: None,
                service_project_id: None,
                service_environment_id: None,
                ..query.first_page()
            };
            view! {
                <p class="audit-scope">
                    {scope_words(&query)}" "
                    <A href=paths::audit_log(org, &whole)>"Show the whole organization"</A>
                </p>
            }
        })
    };
    // On a phone the filters would come before every change: closed there unless one is set.
    let narrow = web_sys::window()
        .and_then(|window| window.inner_width().ok())
        .and_then(|width| width.as_f64())
        .is_some_and(|width| width <= NARROW_PX);
    let filtering = current.event_type.is_some()
        || current.target_type.is_some()
        || current.origin.is_some()
        || current.triggered_by.is_some()
        || current.from_timestamp.is_some()
        || current.to_timestamp.is_some();
    view! {
        <details class="audit-filters" open=!narrow || filtering>
        <summary>"Filters"</summary>
        <form class="filters" role="search" aria-label="Filter changes" on:submit=apply>
            <ChoiceField label="What was done" name="eventType" value=event_type
                options=any_or_one_of(EventType::ALL) errors/>
            <ChoiceField label="To" name="targetType" value=target_type
                options=any_or_one_of(TargetType::ALL) errors/>
            <ChoiceField label="Origin" name="origin" value=origin options=any_or_one_of(Origin::ALL)
                errors/>
            <TextField label="By" name="triggeredBy" value=triggered_by errors form_id="audit"
                placeholder="API token ci"/>
            <TextField label="Since" name="since" input_type="datetime-local" value=since errors
                form_id="audit"/>
            <TextField label="Until" name="until" input_type="datetime-local" value=until errors
                form_id="audit"/>
            <button type="submit" class="button button--secondary">"Filter"</button>
        </form>
        </details>
        {narrowed}
    }
}

/// A time the browser's `datetime-local` input gave (the person's own time zone) as the RFC 3339
/// instant the API takes; none when empty or unreadable.
fn instant(local: &str) -> Option<String> {
    let local = local.trim();
    let date = js_sys::Date::new(&local.into());
    (!local.is_empty() && !date.get_time().is_nan()).then(|| String::from(date.to_iso_string()))
}

/// An instant of the address (RFC 3339, or nanoseconds since the epoch) as a `datetime-local`
/// input shows it, in the person's own time zone.
fn local_time(instant: &str) -> String {
    let date = match instant.parse::<i64>() {
        Ok(nanos) => js_sys::Date::new(&((nanos / 1_000_000) as f64).into()),
        Err(_) => js_sys::Date::new(&instant.into()),
    };
    if date.get_time().is_nan() {
        return String::new();
    }
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}",
        date.get_full_year(),
        date.get_month() + 1,
        date.get_date(),
        date.get_hours(),
        date.get_minutes()
    )
}

/// What the log is narrowed to beyond the filters of the form.
fn scope_words(query: &EventQuery) -> &'static str {
    if query.target_id.is_some() {
        "Showing the changes of one resource."
    } else if query.service_environment_id.is_some() {
        "Showing the changes of one environment and what it holds."
    } else {
        "Showing the changes of one project and what it holds."
    }
}

#[component]
fn Entries(org: Uuid, query: EventQuery, list: OrganizationEventList) -> impl IntoView {
    if list.events.is_empty() {
        return view! {
            <EmptyState title="No change recorded"
                hint="Changes made through the API are listed here as they are made; change or clear the filters to see others."/>
        }
        .into_any();
    }
    let token = |link: &Option<String>, name: &str| link_token(link.as_deref()?, name);
    let older = token(&list.links.next, "continueToken").map(|token| EventQuery {
        continue_token: Some(token),
        ..query.first_page()
    });
    let newer = token(&list.links.previous, "stepBackToken").map(|token| EventQuery {
        step_back_token: Some(token),
        ..query.first_page()
    });
    let link = move |query: EventQuery| paths::audit_log(org, &query);
    view! {
        <ol class="audit">
            {list.events.into_iter().map(|event| view! { <Entry org event/> }).collect_view()}
        </ol>
        <nav class="pager" aria-label="Pages of changes">
            {newer.map(|query| view! { <A href=link(query)>"← Newer"</A> })}
            {older.map(|query| view! { <A href=link(query)>"Older →"</A> })}
        </nav>
    }
    .into_any()
}

/// One change: a sentence, who and when, and what it changed once opened.
#[component]
fn Entry(org: Uuid, event: OrganizationEvent) -> impl IntoView {
    let changes = event.field_changes();
    let target = target_link(org, &event);
    let place = [event.project_name.as_str(), event.environment_name.as_str()]
        .into_iter()
        .filter(|name| !name.is_empty() && *name != event.target_name)
        .collect::<Vec<_>>()
        .join(" / ");
    let summary = match event.event_type {
        EventType::Create | EventType::Clone | EventType::Import => "What it set",
        EventType::Delete => "What it was",
        EventType::Update => "What changed",
        _ => "What was asked",
    };
    let secrets = event.changed_secrets.clone();
    let shown = !changes.is_empty() || !secrets.is_empty();
    let count = changes.len() + secrets.len();
    view! {
        <li class="audit__entry">
            <p class="audit__what">
                <strong>{event.event_type.label()}</strong>" "
                <span class="muted">{event.target_type.label()}</span>" "
                {match target {
                    Some(href) => view! { <A href=href>{event.target_name.clone()}</A> }.into_any(),
                    None => view! { <span>{event.target_name.clone()}</span> }.into_any(),
                }}
                {event.sub_target_type.map(|part| view! {
                    <span class="muted">" · "{part.label()}</span>
                })}
                {(!place.is_empty()).then(|| view! { <span class="muted">" in "{place}</span> })}
            </p>
            <p class="audit__who muted">
                "By "{event.triggered_by.clone()}" · "{event.origin.label()}" · "
                <RelativeTime at=event.timestamp/>
            </p>
            {shown.then(|| view! {
                <details class="audit__diff">
                    <summary>{format!("{summary} ({count})")}</summary>
                    <Diff changes secrets/>
                </details>
            })}
        </li>
    }
}

/// Each field a change touched, with its value before and after; a secret's value never shown.
#[component]
fn Diff(changes: Vec<FieldChange>, secrets: Vec<String>) -> impl IntoView {
    view! {
        <table class="table diff">
            <thead><tr>
                <th scope="col">"Field"</th>
                <th scope="col">"Before"</th>
                <th scope="col">"After"</th>
            </tr></thead>
            <tbody>
                {changes.into_iter().map(|change| view! {
                    <tr>
                        <th scope="row"><code>{change.path}</code></th>
                        <td class="diff__before">{shown(change.before)}</td>
                        <td class="diff__after">{shown(change.after)}</td>
                    </tr>
                }).collect_view()}
                {secrets.into_iter().map(|name| view! {
                    <tr>
                        <th scope="row"><code>{name}</code></th>
                        <td class="muted" colspan="2">"Secret value set (never shown)"</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// A value of a field as the diff shows it: text as written, anything else as JSON, nothing as
/// a dash.
fn shown(value: Option<Value>) -> String {
    match value {
        None => "—".to_string(),
        Some(Value::String(text)) => text,
        Some(other) => other.to_string(),
    }
}

/// The page of the change's target, while it exists and this console has one.
fn target_link(org: Uuid, event: &OrganizationEvent) -> Option<String> {
    if event.event_type == EventType::Delete && event.sub_target_type.is_none() {
        return None;
    }
    let id = event.target_id?;
    match event.target_type {
        TargetType::Project => Some(paths::project(org, id)),
        TargetType::Environment => Some(paths::environment(org, event.project_id?, id)),
        TargetType::Application
        | TargetType::Container
        | TargetType::Database
        | TargetType::Job
        | TargetType::Helm
        | TargetType::Terraform => Some(paths::service(
            org,
            event.project_id?,
            event.environment_id?,
            id,
        )),
        TargetType::Cluster => Some(paths::cluster(org, id)),
        _ => None,
    }
}

/// A link to the changes `query` narrows the organization's log to: "History of changes".
#[component]
pub fn HistoryOfChanges(query: EventQuery) -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    move || {
        org.get().map(|org| {
            view! {
                <A href=paths::audit_log(org, &query) attr:class="history-link">
                    "History of changes"
                </A>
            }
        })
    }
}
