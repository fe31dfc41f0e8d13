//! The services table of an environment's page. Its rows are written as one piece of HTML and
//! parsed once: built as views, a thousand rows' reactive parts cost several times the browser's
//! whole parse of the table (decisions.md, "Fast at scale"). A row's status cells are written
//! again when a poll changes its status, and nowhere else; the checkboxes answer through one
//! listener on the table's body.

use chrono::{DateTime, Utc};
use html_escape::{encode_double_quoted_attribute, encode_text};
use leptos::ev::MouseEvent;
use leptos::html::Tbody;
use leptos::prelude::*;
use platform_api::{StateTone, WireEnum};
use uuid::Uuid;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlTableRowElement};

use super::row_statuses::{RowStatus, RowStatuses};
use super::selection::{Selection, SelectionActions};
use crate::api::review::Place;
use crate::api::service::ServiceSummary;
use crate::components::empty_state::EmptyState;
use crate::components::pager::{page_range, use_page, ListPager};
use crate::components::relative_time::relative_time_html;
use crate::components::status_badge::{service_badge_html, set_service_badge};
use crate::paths;

/// Services shown at once: an environment of the issue-14 scale (1,000) shows whole, a larger one
/// a page at a time.
const SERVICES_PER_PAGE: usize = 1000;

/// The cells after the kind's: status, deployment, last deployed.
const FIRST_STATUS_CELL: u32 = 3;

/// The most status dots of the table that pulse. Each pulsing dot is a layer of its own for the
/// compositor: a thousand starting together (an environment deployed whole) held a frame for
/// 200 ms, and they held another for 100 ms when they stopped. Beyond it the dots stay still;
/// the state's words and colour say the same.
const MOST_PULSING: usize = 50;

/// The services, a row each, with its status from `rows` and its checkbox of the selection.
#[component]
pub(super) fn ServiceTable(
    ids: Place,
    services: Vec<ServiceSummary>,
    rows: RowStatuses,
    on_deleted: Callback<()>,
) -> impl IntoView {
    if services.is_empty() {
        return view! {
            <EmptyState title="No service yet"
                hint="Create one with New service below, from a git repository or an image, then deploy it."/>
        }
        .into_any();
    }
    let page = use_page();
    let total = services.len();
    let services = StoredValue::new(services);
    let selection = Selection::new();
    let table = move || {
        let page = page.get();
        let shown =
            services.with_value(|all| all[page_range(total, SERVICES_PER_PAGE, page)].to_vec());
        let shown_ids =
            StoredValue::new(shown.iter().map(|service| service.id).collect::<Vec<_>>());
        let body = NodeRef::<Tbody>::new();
        let now = Utc::now();
        let html = shown
            .iter()
            .map(|service| row_html(ids, service, rows.status(service.id), now))
            .collect::<String>();
        follow_statuses(body, shown_ids, rows);
        follow_selection(body, shown_ids, selection);
        let tick = move |event: MouseEvent| {
            let Some(checkbox) = event
                .target()
                .and_then(|target| target.dyn_into::<HtmlInputElement>().ok())
                .filter(|input| input.type_() == "checkbox")
            else {
                return;
            };
            let Some(row) = checkbox
                .closest("tr")
                .ok()
                .flatten()
                .and_then(|row| row.dyn_into::<HtmlTableRowElement>().ok())
            else {
                return;
            };
            let at = row.section_row_index() as usize;
            shown_ids.with_value(|shown| {
                selection.click(shown, at, checkbox.checked(), event.shift_key())
            });
        };
        view! {
            <SelectionActions environment=ids.environment services selection rows on_deleted/>
            <table class="table table--selectable services-table">
                <thead><tr>
                    <th scope="col" class="table__select">
                        <label class="table__select-all">
                            <input type="checkbox" aria-label="Select every service shown"
                                prop:checked=move || shown_ids.with_value(|shown| selection.all_of(shown))
                                on:change=move |event| {
                                    let ticked = event_target_checked(&event);
                                    shown_ids.with_value(|shown| selection.set_all(shown, ticked));
                                }/>
                            // On a phone the table's headings are gone: the box says what it does.
                            <span class="phone-only" aria-hidden="true">"Select every service shown"</span>
                        </label>
                    </th>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Kind"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Deployment"</th>
                    <th scope="col">"Last deployed"</th>
                </tr></thead>
                <tbody node_ref=body inner_html=html on:click=tick></tbody>
            </table>
            <ListPager label="Pages of services" total size=SERVICES_PER_PAGE page/>
        }
    };
    table.into_any()
}

/// A service's row. Its link is a plain one: the router takes its clicks.
fn row_html(
    ids: Place,
    service: &ServiceSummary,
    status: Option<RowStatus>,
    now: DateTime<Utc>,
) -> String {
    let href = paths::service(ids.org, ids.project, ids.environment, service.id);
    let name = encode_double_quoted_attribute(&service.name);
    let [state, deployment, last_deployed] = status_cells(status.as_ref(), now);
    format!(
        r#"<tr data-service="{name}"><td class="table__select"><input type="checkbox" aria-label="Select {name}"></td><td><a href="{href}">{name}</a></td><td class="muted">{kind}</td><td>{state}</td><td class="muted">{deployment}</td><td>{last_deployed}</td></tr>"#,
        href = encode_double_quoted_attribute(&href),
        kind = encode_text(service.service_type.label()),
    )
}

/// What a row's status cells hold, as HTML: the badge, the deployment, when it was last deployed
/// (seen from `now`).
fn status_cells(status: Option<&RowStatus>, now: DateTime<Utc>) -> [String; 3] {
    let Some(status) = status else {
        return Default::default();
    };
    [
        service_badge_html(status.state, status.never_deployed()),
        encode_text(&status.deployment.label()).into_owned(),
        status
            .last_deployed
            .map(|at| relative_time_html(at, now))
            .unwrap_or_default(),
    ]
}

/// Changes the status cells of each row whose service's status changed, at each answer.
fn follow_statuses(body: NodeRef<Tbody>, shown: StoredValue<Vec<Uuid>>, rows: RowStatuses) {
    let showing = StoredValue::new(
        shown.with_value(|shown| shown.iter().map(|id| rows.status(*id)).collect::<Vec<_>>()),
    );
    Effect::new(move |_| {
        rows.track_answers();
        let Some(body) = body.get() else { return };
        let table_rows = body.rows();
        let now = Utc::now();
        shown.with_value(|shown| {
            showing.update_value(|showing| {
                for (at, id) in shown.iter().enumerate() {
                    let status = rows.status(*id);
                    if showing[at] == status {
                        continue;
                    }
                    let Some(row) = table_rows
                        .item(at as u32)
                        .and_then(|row| row.dyn_into::<HtmlTableRowElement>().ok())
                    else {
                        continue;
                    };
                    show_status(&row, showing[at].as_ref(), status.as_ref(), now);
                    showing[at] = status;
                }
                let still = too_busy_to_pulse(showing.iter().map(Option::as_ref));
                let _ = body.toggle_attribute_with_force("data-still", still);
            });
        });
    });
}

/// Whether the dots of rows showing `statuses` stay still: more than `MOST_PULSING` of them are
/// in progress.
fn too_busy_to_pulse<'a>(statuses: impl Iterator<Item = Option<&'a RowStatus>>) -> bool {
    statuses
        .flatten()
        .filter(|status| status.state.tone() == StateTone::Progress)
        .nth(MOST_PULSING)
        .is_some()
}

/// Changes a row's status cells from showing `was` to showing `status` (seen from `now`): only
/// the parts that differ, in place (a poll that changes every status changes a thousand rows).
fn show_status(
    row: &HtmlTableRowElement,
    was: Option<&RowStatus>,
    status: Option<&RowStatus>,
    now: DateTime<Utc>,
) {
    let cells = row.cells();
    let cell = |offset: u32| cells.item(FIRST_STATUS_CELL + offset);
    let (Some(was), Some(status)) = (was, status) else {
        for (offset, html) in (0..).zip(status_cells(status, now)) {
            if let Some(cell) = cell(offset) {
                cell.set_inner_html(&html);
            }
        }
        return;
    };
    if (was.state, was.deployment) != (status.state, status.deployment) {
        if let Some(badge) = cell(0).and_then(|cell| cell.first_element_child()) {
            set_service_badge(&badge, status.state, status.never_deployed());
        }
    }
    if was.deployment != status.deployment {
        if let Some(cell) = cell(1) {
            cell.set_text_content(Some(status.deployment.label()));
        }
    }
    if was.last_deployed != status.last_deployed {
        if let Some(cell) = cell(2) {
            let html = status.last_deployed.map(|at| relative_time_html(at, now));
            cell.set_inner_html(&html.unwrap_or_default());
        }
    }
}

/// Ticks each row's checkbox as the selection says, again at each change of the selection.
fn follow_selection(body: NodeRef<Tbody>, shown: StoredValue<Vec<Uuid>>, selection: Selection) {
    Effect::new(move |_| {
        let Some(body) = body.get() else { return };
        let Ok(checkboxes) = body.query_selector_all("input[type=checkbox]") else {
            return;
        };
        selection.with_chosen(|chosen| {
            shown.with_value(|shown| {
                for (at, id) in shown.iter().enumerate() {
                    if let Some(checkbox) = checkboxes
                        .item(at as u32)
                        .and_then(|node| node.dyn_into::<HtmlInputElement>().ok())
                    {
                        checkbox.set_checked(chosen.contains(id));
                    }
                }
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform_api::{DeploymentStatus, ServiceState, ServiceType};
    use wasm_bindgen_test::wasm_bindgen_test;

    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    /// A row as the browser reads the HTML written for it.
    fn parsed(html: &str) -> HtmlTableRowElement {
        let body = document().create_element("tbody").unwrap();
        body.set_inner_html(html);
        body.first_element_child().unwrap().dyn_into().unwrap()
    }

    fn status(state: ServiceState, deployment: DeploymentStatus) -> RowStatus {
        RowStatus {
            state,
            deployment,
            last_deployed: None,
            execution_id: None,
        }
    }

    #[wasm_bindgen_test]
    fn dots_stay_still_once_more_than_the_most_pulsing_rows_are_in_progress() {
        let deploying = status(ServiceState::Deploying, DeploymentStatus::OutOfDate);
        let deployed = status(ServiceState::Deployed, DeploymentStatus::UpToDate);
        let table = |in_progress: usize| {
            let mut rows = vec![Some(deployed.clone()), None];
            rows.extend(std::iter::repeat_n(Some(deploying.clone()), in_progress));
            too_busy_to_pulse(rows.iter().map(Option::as_ref))
        };
        assert!(!table(0));
        assert!(!table(MOST_PULSING));
        assert!(table(MOST_PULSING + 1));
        assert!(table(1000));
    }

    #[wasm_bindgen_test]
    fn a_row_written_as_html_shows_its_name_as_text_and_changes_in_place() {
        let ids = Place {
            org: Uuid::from_u128(1),
            project: Uuid::from_u128(2),
            environment: Uuid::from_u128(3),
        };
        let service = ServiceSummary {
            id: Uuid::from_u128(4),
            name: r#"<img src=x onerror="alert(1)">&"#.to_string(),
            service_type: ServiceType::Application,
        };
        let ready = status(ServiceState::Ready, DeploymentStatus::NeverDeployed);
        let row = parsed(&row_html(ids, &service, Some(ready.clone()), Utc::now()));
        assert_eq!(row.get_attribute("data-service").unwrap(), service.name);
        assert!(row.query_selector("img").unwrap().is_none());
        let cells = row.cells();
        let text = |at: u32| cells.item(at).unwrap().text_content().unwrap();
        assert_eq!(text(1), service.name);
        assert_eq!(text(2), "Application");
        assert_eq!(text(3), "Not deployed");
        assert_eq!(text(4), "Never deployed");

        let deploying = status(ServiceState::Deploying, DeploymentStatus::OutOfDate);
        show_status(&row, Some(&ready), Some(&deploying), Utc::now());
        let badge = row.query_selector(".badge").unwrap().unwrap();
        assert_eq!(badge.get_attribute("data-state").unwrap(), "DEPLOYING");
        assert_eq!(badge.class_name(), "badge badge--progress");
        assert_eq!(text(3), "Deploying");
        assert_eq!(text(4), "Out of date");
    }
}
