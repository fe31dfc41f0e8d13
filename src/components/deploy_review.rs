//! The review before a deploy: what it changes against what runs now (`ChangeSummary`), then
//! the deploy; for several services (an environment's, a selection), one line per service, out
//! of date or not, each opening its own review. A person who ticks "Deploy without reviewing" is
//! not asked again in this browser.

use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use leptos::html::Dialog;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::ServiceType;
use uuid::Uuid;

use platform_api::{DeploymentStatus, Status};

use crate::api::review::Place;
use crate::api::service::ServiceSummary;
use crate::api::use_api;
use crate::components::built_when_open::{BuiltWhenOpen, KeptOpen};
use crate::components::change_summary::{ChangeSummary, ComparedFrom, Version};
use crate::components::form_field::CheckboxField;
use crate::components::loaded::loaded;
use crate::components::skeleton::Skeleton;
use crate::state::deploy_review::ReviewChoice;
use crate::state::resource::resource;

/// A deploy waiting for its review.
#[derive(Clone)]
pub struct PendingDeploy {
    /// The dialog's question ("Deploy web?").
    pub question: String,
    /// The confirming button ("Deploy", "Roll back").
    pub confirm: &'static str,
    pub what: Reviewing,
    pub run: Callback<()>,
}

/// A service listed in a review, with its status (`None` while unknown).
pub type ServiceWithStatus = (ServiceSummary, Option<Status>);

/// What a review shows.
#[derive(Clone)]
pub enum Reviewing {
    /// The service of the page, and the version that runs after the deploy.
    One(Version),
    /// Services of one environment, each with its status (`None` while unknown).
    Several {
        place: Place,
        services: Vec<ServiceWithStatus>,
    },
}

/// What a deploy button does: opens the review, or runs at once when the person chose so.
#[derive(Clone, Copy)]
pub struct Reviewer {
    pending: RwSignal<Option<PendingDeploy>>,
    choice: ReviewChoice,
}

impl Reviewer {
    pub fn new() -> Self {
        Reviewer {
            pending: RwSignal::new(None),
            choice: ReviewChoice::remembered(),
        }
    }

    pub fn deploy(self, pending: PendingDeploy) {
        if self.choice.skipped() {
            pending.run.run(());
        } else {
            self.pending.set(Some(pending));
        }
    }
}

impl Default for Reviewer {
    fn default() -> Self {
        Self::new()
    }
}

/// Beside the deploy buttons while they act at once: turns the review back on.
#[component]
pub fn ReviewAgain(reviewer: Reviewer) -> impl IntoView {
    let skipped = reviewer.choice.signal();
    view! {
        <Show when=move || skipped.get()>
            <button type="button" class="button button--ghost button--small"
                title="Deploy buttons act at once in this browser: review what each deploy changes first"
                on:click=move |_| {
                    skipped.set(false);
                    reviewer.choice.remember();
                }>
                "Review deploys"
            </button>
        </Show>
    }
}

/// The service a review is of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reviewed {
    pub kind: ServiceType,
    pub id: Uuid,
    pub place: Place,
    /// Whether it is built from git.
    pub git: bool,
}

#[component]
pub fn DeployReview(
    reviewer: Reviewer,
    /// The page's service, for a review of one.
    #[prop(into, optional)]
    service: MaybeProp<Reviewed>,
) -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    let Reviewer { pending, choice } = reviewer;
    Effect::new(move |_| {
        if pending.with(Option::is_some) {
            if let Some(dialog) = dialog.get() {
                if !dialog.open() {
                    let _ = dialog.show_modal();
                }
            }
        }
    });
    let close = move || {
        if let Some(dialog) = dialog.get() {
            dialog.close();
        }
    };
    let confirm = move |_| {
        let run = pending.get_untracked().map(|pending| pending.run);
        choice.remember();
        close();
        if let Some(run) = run {
            run.run(());
        }
    };
    let question = move || pending.with(|p| p.as_ref().map(|p| p.question.clone()));
    let confirm_label = move || pending.with(|p| p.as_ref().map(|p| p.confirm));
    view! {
        <dialog node_ref=dialog class="confirm deploy-review" aria-labelledby="deploy-review-title"
            on:close=move |_| pending.set(None)>
            <h2 id="deploy-review-title" class="confirm__question">{question}</h2>
            <p class="confirm__consequence">"What changes against what runs now."</p>
            {move || {
                let review = match pending.with(|p| p.as_ref().map(|p| p.what.clone()))? {
                    Reviewing::One(to) => Review::Changes {
                        service: service.get()?,
                        from: ComparedFrom::Running,
                        to,
                        until: None,
                    },
                    Reviewing::Several { place, services } => Review::Services { place, services },
                };
                Some(view! { <LoadedReview review/> })
            }}
            <CheckboxField label="Deploy without reviewing" name="deploy-without-review"
                checked=choice.signal()
                hint="Deploy buttons then act at once in this browser; \"Review deploys\" beside them turns reviews back on."/>
            <div class="confirm__actions">
                <button type="button" class="button button--secondary" on:click=move |_| close()>
                    "Cancel"
                </button>
                <button type="button" class="button button--primary" on:click=confirm>
                    {confirm_label}
                </button>
            </div>
        </dialog>
    }
}

/// What a review shows, built by code fetched apart from every page (the `review` group).
#[derive(Clone)]
pub enum Review {
    /// What changes between two versions of one service (`ChangeSummary`).
    Changes {
        service: Reviewed,
        from: ComparedFrom,
        to: Version,
        until: Option<DateTime<Utc>>,
    },
    /// Services of an environment, each opening its own (`ServicesReview`).
    Services {
        place: Place,
        services: Vec<ServiceWithStatus>,
    },
    /// This environment's services against another environment's (the services page's
    /// comparison).
    Comparison {
        here: Vec<ServiceSummary>,
        other: Uuid,
    },
}

/// Fetches the reviews' code and builds `Review` with it (`app.rs` provides it): no page's first
/// load carries the commits', events' and records' reading and comparing.
#[derive(Clone, Copy)]
pub struct LoadReview(pub fn(Review) -> BoxFuture<'static, Result<AnyView, SplitLoaderError>>);

/// `review`, once its code is fetched.
#[component]
pub fn LoadedReview(review: Review) -> impl IntoView {
    let load = use_context::<LoadReview>();
    let shown = Suspend::new(async move {
        let failed = || {
            view! {
                <p class="notice notice--error" role="alert">
                    "The review's code could not be fetched: reload the page to try again."
                </p>
            }
            .into_any()
        };
        match load {
            Some(LoadReview(load)) => load(review).await.unwrap_or_else(|_| failed()),
            None => failed(),
        }
    });
    view! { <Suspense fallback=|| view! { <Skeleton lines=3/> }>{shown}</Suspense> }
}

/// One line per service, each opening what its deploy changes.
#[component]
pub fn ServicesReview(place: Place, services: Vec<ServiceWithStatus>) -> impl IntoView {
    let opened = KeptOpen::default();
    let out_of_date = services
        .iter()
        .filter(|(_, status)| {
            status
                .as_ref()
                .is_some_and(|s| s.service_deployment_status == DeploymentStatus::OutOfDate)
        })
        .count();
    view! {
        <p>{format!("{} {}, {out_of_date} out of date.", services.len(), if services.len() == 1 { "service" } else { "services" })}</p>
        <ul class="review-list" aria-label="Services deployed">
            {services.into_iter().map(|(service, status)| {
                let said = match status.map(|s| s.service_deployment_status) {
                    Some(DeploymentStatus::OutOfDate) => "out of date",
                    Some(DeploymentStatus::UpToDate) => "up to date",
                    Some(DeploymentStatus::NeverDeployed) => "never deployed",
                    _ => "status unknown",
                };
                let ServiceSummary { id, name, service_type: kind } = service;
                view! {
                    <li data-service=id.to_string()>
                        <BuiltWhenOpen summary=format!("{name} — {said}") key=id.to_string() opened>
                            <ServiceChanges place kind id/>
                        </BuiltWhenOpen>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// What a deploy of one service as configured changes: its record read, then its review.
#[component]
fn ServiceChanges(place: Place, kind: platform_api::ServiceType, id: Uuid) -> impl IntoView {
    let api = use_api();
    let record = resource(move || async move { api.service_answer(kind, id).await });
    loaded(record, 2, move |record| {
        let git = record.git_repository().is_some();
        let to = Version::configured(&record, None);
        view! { <ChangeSummary kind id place from=ComparedFrom::Running to git/> }
    })
}
