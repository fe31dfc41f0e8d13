//! The review before a deploy: what it changes against what runs now (`ChangeSummary`), then
//! the deploy. A person who ticks "Deploy without reviewing" is not asked again in this browser.

use leptos::html::Dialog;
use leptos::prelude::*;
use platform_api::ServiceType;
use uuid::Uuid;

use crate::api::review::Place;
use crate::components::change_summary::{ChangeSummary, ComparedFrom, Version};
use crate::components::form_field::CheckboxField;
use crate::state::deploy_review::ReviewChoice;

/// A deploy waiting for its review.
#[derive(Clone)]
pub struct PendingDeploy {
    /// The dialog's question ("Deploy web?").
    pub question: String,
    /// The confirming button ("Deploy", "Roll back").
    pub confirm: &'static str,
    /// What runs after it.
    pub to: Version,
    pub run: Callback<()>,
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
    #[prop(into)] service: Signal<Option<Reviewed>>,
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
                let to = pending.with(|p| p.as_ref().map(|p| p.to.clone()))?;
                let Reviewed { kind, id, place, git } = service.get()?;
                Some(view! { <ChangeSummary kind id place from=ComparedFrom::Running to git/> })
            }}
            <CheckboxField label="Deploy without reviewing" name="deploy-without-review"
                checked=choice.signal()
                hint="Deploy buttons act at once in this browser; untick it here to review again."/>
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
