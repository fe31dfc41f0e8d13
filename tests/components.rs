//! Component tests in headless Chromium: what the status badge, the steps timeline and the
//! deployment log show, that a confirm button acts only once confirmed, and the typed pieces the
//! forms are built from (a select bound to an enumeration, checkboxes, repeatable rows).

use console::components::confirm_button::ConfirmButton;
use console::components::deployment_log::DeploymentLog;
use console::components::form_field::{CheckboxGroup, EnumSelect, TextField};
use console::components::rows::{RowList, Rows};
use console::components::status_badge::StatusBadge;
use console::components::steps_timeline::StepsTimeline;
use console::components::web_link::WebLink;
use leptos::prelude::*;
use platform_api::{
    ActionStatus, DatabaseType, DeploymentStatus, FieldError, LogLine, ServiceState, Status,
    StatusAction, StatusDetails, Step, StepName, StepStatus, Steps, SubAction, WireEnum,
};
use uuid::Uuid;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts a view into a fresh element of the page and returns that element.
fn mount<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> web_sys::HtmlElement {
    let document = leptos::prelude::document();
    let container: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&container).unwrap();
    leptos::mount::mount_to(container.clone(), view).forget();
    container
}

/// Lets the reactive system flush its updates to the DOM.
async fn settle() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

fn status(state: ServiceState, steps: Option<Vec<Step>>) -> Status {
    Status {
        id: Uuid::nil(),
        state,
        service_deployment_status: DeploymentStatus::NeverDeployed,
        is_part_last_deployment: false,
        status_details: StatusDetails {
            action: StatusAction::Deploy,
            status: ActionStatus::Ongoing,
            sub_action: SubAction::None,
        },
        deployment_request_id: None,
        deployment_requests_count: 0,
        last_deployment_date: None,
        steps: steps.map(|details| Steps {
            total_duration_sec: 95,
            total_computing_duration_sec: 80,
            details,
        }),
        execution_id: None,
    }
}

fn step(step_name: StepName, status: StepStatus, duration_sec: i64) -> Step {
    Step {
        step_name,
        status,
        duration_sec,
    }
}

#[wasm_bindgen_test]
fn badge_shows_every_state_in_words_and_colour() {
    for state in ServiceState::ALL.iter().copied() {
        let container = mount(move || view! { <StatusBadge state/> });
        let badge = container.query_selector(".badge").unwrap().unwrap();
        assert_eq!(badge.text_content().unwrap(), state.label(), "{state}");
        assert_eq!(badge.get_attribute("data-state").unwrap(), state.as_str());
        // A list's badge is no live region; the one a page is about is.
        assert_eq!(badge.get_attribute("role"), None);
        let class = badge.class_name();
        let expected = match state {
            ServiceState::Deployed | ServiceState::Restarted => "badge--success",
            ServiceState::BuildError
            | ServiceState::DeploymentError
            | ServiceState::DeleteError
            | ServiceState::RestartError
            | ServiceState::StopError => "badge--failure",
            ServiceState::Canceled
            | ServiceState::Deleted
            | ServiceState::Ready
            | ServiceState::Recap
            | ServiceState::Stopped
            | ServiceState::Unavailable => "badge--neutral",
            _ => "badge--progress",
        };
        assert!(class.contains(expected), "{state}: {class}");
    }
}

#[wasm_bindgen_test]
fn a_live_badge_is_a_status_region() {
    let container = mount(|| view! { <StatusBadge state=ServiceState::Building live=true/> });
    let badge = container.query_selector(".badge").unwrap().unwrap();
    assert_eq!(badge.get_attribute("role").unwrap(), "status");
}

#[wasm_bindgen_test]
fn a_service_never_deployed_reads_not_deployed_rather_than_ready() {
    let container =
        mount(|| view! { <StatusBadge state=ServiceState::Ready never_deployed=true/> });
    let badge = container.query_selector(".badge").unwrap().unwrap();
    assert_eq!(badge.text_content().unwrap(), "Not deployed");
    assert_eq!(badge.get_attribute("data-state").unwrap(), "READY");
    let deployed_once =
        mount(|| view! { <StatusBadge state=ServiceState::Ready never_deployed=false/> });
    assert_eq!(deployed_once.text_content().unwrap(), "Ready");
}

#[wasm_bindgen_test]
async fn badge_follows_its_signal() {
    let state = RwSignal::new(ServiceState::DeploymentQueued);
    let container = mount(move || view! { <StatusBadge state/> });
    let badge = container.query_selector(".badge").unwrap().unwrap();
    assert_eq!(badge.text_content().unwrap(), "Deployment queued");
    state.set(ServiceState::BuildError);
    settle().await;
    assert_eq!(badge.text_content().unwrap(), "Build error");
    assert!(badge.class_name().contains("badge--failure"));
}

#[wasm_bindgen_test]
fn timeline_lists_each_step_with_outcome_and_duration() {
    let finished = status(
        ServiceState::BuildError,
        Some(vec![
            step(StepName::GitClone, StepStatus::Success, 3),
            step(StepName::Build, StepStatus::Error, 75),
            step(StepName::Deployment, StepStatus::Skip, 0),
        ]),
    );
    let container = mount(move || view! { <StepsTimeline status=finished/> });
    let rows = container.query_selector_all(".step").unwrap();
    assert_eq!(rows.length(), 3);
    let row = |index: u32| -> web_sys::Element { rows.item(index).unwrap().unchecked_into() };
    assert_eq!(row(0).get_attribute("data-step").unwrap(), "GIT_CLONE");
    assert!(row(0).class_name().contains("step--success"));
    assert!(row(1).class_name().contains("step--failure"));
    assert!(row(2).class_name().contains("step--skipped"));
    let text = container.text_content().unwrap();
    for shown in [
        "Git clone",
        "success",
        "3 s",
        "Build",
        "error",
        "1 min 15 s",
        "skip",
    ] {
        assert!(text.contains(shown), "{shown} missing from {text}");
    }
    assert!(text.contains("Total 1 min 35 s"), "{text}");
    assert!(text.contains("computing 1 min 20 s"), "{text}");
    assert!(!text.contains("in progress"), "{text}");
}

#[wasm_bindgen_test]
fn timeline_shows_the_running_step_while_in_progress() {
    let running = status(
        ServiceState::Building,
        Some(vec![step(StepName::GitClone, StepStatus::Success, 2)]),
    );
    let container = mount(move || view! { <StepsTimeline status=running/> });
    let rows = container.query_selector_all(".step").unwrap();
    assert_eq!(rows.length(), 2);
    let last: web_sys::Element = rows.item(1).unwrap().unchecked_into();
    assert!(last.class_name().contains("step--running"));
    assert!(last.text_content().unwrap().contains("Building"));
    assert!(last.text_content().unwrap().contains("in progress"));
}

#[wasm_bindgen_test]
fn timeline_says_when_nothing_was_deployed() {
    let never = status(ServiceState::Ready, None);
    let container = mount(move || view! { <StepsTimeline status=never/> });
    assert_eq!(container.query_selector_all(".step").unwrap().length(), 0);
    assert!(container
        .text_content()
        .unwrap()
        .contains("No deployment yet"));
}

#[wasm_bindgen_test]
async fn timeline_follows_a_deployment_to_its_end() {
    let current = RwSignal::new(status(ServiceState::DeploymentQueued, None));
    let container = mount(move || view! { <StepsTimeline status=current/> });
    assert!(container
        .text_content()
        .unwrap()
        .contains("Deployment queued"));
    current.set(status(
        ServiceState::Deployed,
        Some(vec![
            step(StepName::Build, StepStatus::Success, 20),
            step(StepName::Deployment, StepStatus::Success, 10),
        ]),
    ));
    settle().await;
    let text = container.text_content().unwrap();
    assert_eq!(container.query_selector_all(".step").unwrap().length(), 2);
    assert!(!text.contains("in progress"), "{text}");
    assert!(text.contains("20 s"), "{text}");
}

#[wasm_bindgen_test]
async fn the_deployment_log_shows_each_line_with_its_time() {
    let at = chrono::DateTime::parse_from_rfc3339("2026-11-21T10:15:30Z")
        .unwrap()
        .to_utc();
    let lines = vec![
        LogLine {
            created_at: at,
            execution_id: "e1".into(),
            message: "Build: started.".into(),
        },
        LogLine {
            created_at: at + chrono::Duration::seconds(20),
            execution_id: "e1".into(),
            message: "Build: failed on purpose (PLATFORM_FAIL_AT=BUILD).".into(),
        },
    ];
    let container = mount(move || view! { <DeploymentLog lines/> });
    settle().await;
    let items = container.query_selector_all(".log__line").unwrap();
    assert_eq!(items.length(), 2);
    let last = items.item(1).unwrap().text_content().unwrap();
    assert!(last.contains("failed on purpose"), "{last}");
    let time = container.query_selector(".log__time").unwrap().unwrap();
    assert_eq!(
        time.get_attribute("datetime").unwrap(),
        "2026-11-21T10:15:30+00:00"
    );
    // The time of day in the browser's zone (hh:mm:ss), whose seconds are those sent.
    let shown = time.text_content().unwrap();
    assert_eq!(shown.len(), 8, "{shown}");
    assert!(shown.ends_with(":30"), "{shown}");

    let empty = mount(|| view! { <DeploymentLog lines=Vec::new()/> });
    settle().await;
    assert_eq!(empty.text_content().unwrap(), "No deployment yet.");
}

fn click(container: &web_sys::HtmlElement, css: &str) {
    container
        .query_selector(css)
        .unwrap()
        .unwrap_or_else(|| panic!("no {css}"))
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
}

fn dialog_open(container: &web_sys::HtmlElement) -> bool {
    container.query_selector("dialog[open]").unwrap().is_some()
}

#[wasm_bindgen_test]
async fn a_confirm_button_acts_only_once_confirmed() {
    let confirmed = RwSignal::new(0);
    let container = mount(move || {
        view! {
            <ConfirmButton label="Uninstall" question="Uninstall this service?"
                consequence="Its compute and data are deleted."
                on_confirm=move |()| confirmed.update(|count| *count += 1)/>
        }
    });
    settle().await;
    assert!(
        !dialog_open(&container),
        "the question waits for the button"
    );

    click(&container, ":scope > button");
    settle().await;
    assert!(dialog_open(&container));
    let question = container.query_selector("dialog h2").unwrap().unwrap();
    let labelled_by = container
        .query_selector("dialog")
        .unwrap()
        .unwrap()
        .get_attribute("aria-labelledby")
        .unwrap();
    assert_eq!(question.id(), labelled_by);
    assert_eq!(question.text_content().unwrap(), "Uninstall this service?");

    click(&container, "dialog .button--secondary");
    settle().await;
    assert!(!dialog_open(&container), "Cancel closes the question");
    assert_eq!(confirmed.get_untracked(), 0, "Cancel does nothing");

    click(&container, ":scope > button");
    settle().await;
    click(&container, "dialog .button--destructive");
    settle().await;
    assert!(!dialog_open(&container));
    assert_eq!(confirmed.get_untracked(), 1);
}

fn select_value(container: &web_sys::HtmlElement, css: &str) -> web_sys::HtmlSelectElement {
    container
        .query_selector(css)
        .unwrap()
        .unwrap_or_else(|| panic!("no {css}"))
        .unchecked_into()
}

#[wasm_bindgen_test]
async fn an_enum_select_shows_labels_and_is_bound_to_the_value() {
    let chosen = RwSignal::new(DatabaseType::Postgresql);
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let container = mount(move || {
        view! { <EnumSelect label="Type" name="type" value=chosen errors/> }
    });
    settle().await;
    let select = select_value(&container, "select");
    let shown: Vec<String> = (0..select.length())
        .map(|index| {
            select
                .item(index)
                .unwrap()
                .text_content()
                .unwrap()
                .trim()
                .to_string()
        })
        .collect();
    let labels: Vec<&str> = DatabaseType::ALL.iter().map(|t| t.label()).collect();
    assert_eq!(shown, labels, "labels, not wire codes");
    assert_eq!(select.value(), "POSTGRESQL");

    // A person's choice reaches the signal as the enumeration's value.
    select.set_value("REDIS");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(chosen.get_untracked(), DatabaseType::Redis);

    // And the signal's value shows in the select.
    chosen.set(DatabaseType::Mysql);
    settle().await;
    assert_eq!(select.value(), "MYSQL");

    errors.set(vec![FieldError::new("type", "is not offered here")]);
    settle().await;
    let error = container
        .query_selector("#field-type-error")
        .unwrap()
        .unwrap();
    assert_eq!(error.text_content().unwrap(), "is not offered here");
}

#[wasm_bindgen_test]
async fn a_checkbox_group_keeps_the_values_ticked_in_the_options_order() {
    let chosen = RwSignal::new(vec![3]);
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let options = vec![
        (1, "one".to_string()),
        (2, "two".to_string()),
        (3, "three".to_string()),
    ];
    let container = mount(move || {
        view! { <CheckboxGroup legend="Groups" name="groups" options chosen errors/> }
    });
    settle().await;
    click(&container, "input[value='1']");
    settle().await;
    assert_eq!(chosen.get_untracked(), [1, 3]);
    click(&container, "input[value='3']");
    settle().await;
    assert_eq!(chosen.get_untracked(), [1]);
    let ticked = container
        .query_selector("input[value='1']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>();
    assert!(ticked.checked());
}

/// A row of the rows test: one text field.
#[derive(Clone, Copy)]
struct Row(RwSignal<String>);

fn new_row() -> Row {
    Row(RwSignal::new(String::new()))
}

fn row_fields(index: usize, row: Row, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    view! { <TextField label=format!("Port {}", index + 1) name=format!("ports[{index}].internal_port") value=row.0 errors/> }
}

fn row_values(rows: Rows<Row>) -> Vec<String> {
    rows.read(|_, row| row.0.get_untracked())
}

#[wasm_bindgen_test]
async fn rows_are_added_and_removed_each_keeping_its_values_and_errors_by_place() {
    let rows = Rows::new(["80", "443", "8080"].map(|port| Row(RwSignal::new(port.to_string()))));
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let container = mount(move || {
        view! { <RowList legend="Ports" what="port" rows new_row row=row_fields errors/> }
    });
    settle().await;
    assert_eq!(row_values(rows), ["80", "443", "8080"]);

    click(&container, "button[aria-label='Remove port 2']");
    settle().await;
    assert_eq!(row_values(rows), ["80", "8080"]);
    // The rows after it move up a place, and so do their fields' names.
    let second = container
        .query_selector("#field-ports-1--internal_port")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlInputElement>();
    assert_eq!(second.value(), "8080");

    click(&container, ".rows > button");
    settle().await;
    assert_eq!(row_values(rows), ["80", "8080", ""]);
    let added = container.query_selector(".rows > button").unwrap().unwrap();
    assert_eq!(added.text_content().unwrap(), "Add a port");

    errors.set(vec![FieldError::new(
        "ports[2].internal_port",
        "must be a port number",
    )]);
    settle().await;
    let error = container
        .query_selector("#field-ports-2--internal_port-error")
        .unwrap()
        .unwrap();
    assert_eq!(error.text_content().unwrap(), "must be a port number");
}

#[wasm_bindgen_test]
fn the_wall_clock_of_a_zone_comes_from_the_browser() {
    use console::state::time_zones::{browser_zones, wall_clock_in};
    let utc = wall_clock_in("Etc/UTC").expect("every browser knows Etc/UTC");
    let drift = (chrono::Utc::now().naive_utc() - utc).num_seconds().abs();
    assert!(drift < 5, "{drift}");
    let tokyo = wall_clock_in("Asia/Tokyo").unwrap();
    // Japan keeps no summer time: nine hours ahead, always.
    assert_eq!(((tokyo - utc).num_minutes() as f64 / 60.0).round(), 9.0);
    assert_eq!(wall_clock_in("Europe/Narnia"), None);
    assert!(browser_zones().iter().any(|zone| zone == "Europe/Paris"));
}

/// An address from an answer is a link only when it is an absolute web address: a relative path
/// or `javascript:` is shown as text, never followed.
#[wasm_bindgen_test]
fn only_web_addresses_become_links() {
    for (url, link) in [
        ("https://web-z1.platform-apps.example", true),
        ("http://127.0.0.1:8080/run/abc/", true),
        ("javascript:alert(document.cookie)", false),
        ("/organization/1/overview", false),
        ("string", false),
    ] {
        let container = mount(move || view! { <WebLink url=url.to_string()/> });
        let anchor = container.query_selector("a").unwrap();
        assert_eq!(anchor.is_some(), link, "{url}");
        if let Some(anchor) = anchor {
            assert_eq!(anchor.get_attribute("href").as_deref(), Some(url));
            assert_eq!(anchor.get_attribute("rel").as_deref(), Some("noopener"));
        }
        assert_eq!(container.text_content().as_deref(), Some(url), "{url}");
    }
}
