//! The Auto-deploy card of a service built from git, in its overview: whether a push to its
//! branch deploys it, the branch's tip as last read, and the pushes acted on (deployed, or
//! skipped and why), read again every few seconds so that a push shows up without a reload.
//! An API that does not say what it watches gets the switch and the branch from the record.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{
    short_id, AutoDeployWatch, GitWebhookState, GitWebhookStatus, Push, PushOutcome, ServiceType,
    WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::state::polling::poll;
use crate::state::resource::resource;
use crate::state::toasts::use_toasts;

use super::AddressedService;

/// How often the watch is read again while it watches.
const POLL_WATCH: Duration = Duration::from_secs(3);

/// The card, for services built from git.
#[component]
pub fn ServiceAutoDeploy(service: AddressedService) -> impl IntoView {
    // Built once per service, not again at each read of its record.
    let built_from_git = Memo::new(move |_| {
        let record = service.record.get()?.ok()?;
        let branch = record.git_repository()?.branch.clone();
        Some((record.kind(), record.id(), record.auto_deploys()?, branch))
    });
    move || {
        let (kind, id, on, branch) = built_from_git.get()?;
        Some(view! { <AutoDeploy kind id on branch service/> })
    }
}

#[component]
fn AutoDeploy(
    kind: ServiceType,
    id: Uuid,
    on: bool,
    branch: Option<String>,
    service: AddressedService,
) -> impl IntoView {
    let api = use_api();
    let watch = resource(move || async move { api.auto_deploy_watch(kind, id).await });
    let watching = move || {
        watch
            .get()
            .and_then(Result::ok)
            .flatten()
            .is_some_and(|watch| watch.watching)
    };
    poll(
        move || watching().then_some(POLL_WATCH),
        move || watch.refetch(),
    );
    // A push that deployed starts an action: the status shows it at once, and the settings the
    // commit it deployed (the action may have ended before the next read of the status).
    Effect::new(move |last: Option<Option<String>>| {
        let newest = watch
            .get()
            .and_then(Result::ok)
            .flatten()
            .and_then(|watch| watch.pushes.first().map(|push| push.git_commit_id.clone()));
        if matches!(&last, Some(previous) if *previous != newest) {
            service.status.refetch();
            service.record.refetch();
        }
        newest
    });
    let branch = branch.unwrap_or_else(|| "its default branch".into());
    view! {
        <section class="card" aria-labelledby="auto-deploy-title">
            <h2 id="auto-deploy-title">"Auto-deploy"</h2>
            {loaded(watch, 2, move |watch| match watch {
                Some(watch) => view! { <Watch watch/> }.into_any(),
                None if on => view! {
                    <p>"On: each push to "<span class="mono">{branch.clone()}</span>" deploys the service."</p>
                }.into_any(),
                None => view! {
                    <p class="muted">"Off: turn it on in the settings to deploy each push to "
                        <span class="mono">{branch.clone()}</span>"."</p>
                }.into_any(),
            })}
            {on.then(|| view! { <GitWebhook id on_synced=Callback::new(move |()| watch.refetch())/> })}
        </section>
    }
}

/// Whether pushes reach the platform (the service's git webhook), with a button that sets it
/// right (on the reference server, reads the branch now); nothing where the API does not say.
#[component]
fn GitWebhook(id: Uuid, on_synced: Callback<()>) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let status = resource(move || async move { api.git_webhook_status(id).await.ok() });
    let sync = Action::new_local(move |_: &()| async move {
        match api.sync_git_webhook(id).await {
            Ok(_) => {
                toasts.success("Webhook synchronized.");
                status.refetch();
                on_synced.run(());
            }
            Err(error) => toasts.error(error.to_string()),
        }
    });
    move || {
        let GitWebhookStatus {
            status: state,
            missing_events,
            ..
        } = status.get().flatten()?;
        let badge = match state {
            GitWebhookState::Active => "badge badge--success",
            GitWebhookState::Misconfigured => "badge badge--failure",
            _ => "badge badge--neutral",
        };
        let missing = missing_events
            .filter(|events| !events.is_empty())
            .map(|events| format!("Missing events: {}.", events.join(", ")));
        Some(view! {
            <p class="webhook">
                "Git webhook: "
                <span class=badge><span class="badge__dot" aria-hidden="true"></span>{state.label()}</span>" "
                <button type="button" class="button button--secondary button--small"
                    disabled=move || sync.pending().get()
                    on:click=move |_| { sync.dispatch_local(()); }>"Sync webhook"</button>
            </p>
            {missing.map(|missing| view! { <p class="muted">{missing}</p> })}
        })
    }
}

#[component]
fn Watch(watch: AutoDeployWatch) -> impl IntoView {
    let AutoDeployWatch {
        watching,
        not_watching_because,
        branch,
        last_seen,
        seen_at,
        pushes,
    } = watch;
    let (badge, state) = if watching {
        ("badge badge--success", "Watching")
    } else {
        ("badge badge--neutral", "Not watching")
    };
    view! {
        <p>
            <span class=badge><span class="badge__dot" aria-hidden="true"></span>{state}</span>" "
            {branch.map(|branch| view! { "branch "<span class="mono">{branch}</span> })}
        </p>
        {not_watching_because.map(|reason| view! { <p class="muted">{reason}</p> })}
        <dl class="facts">
            <dt>"Last commit seen"</dt>
            <dd>{match last_seen {
                Some(commit) => view! {
                    <span class="mono">{short_id(&commit.git_commit_id)}</span>" "{commit.message}
                    {seen_at.map(|at| view! { " · seen " <RelativeTime at/> })}
                }.into_any(),
                None => view! { <span class="muted">"None yet"</span> }.into_any(),
            }}</dd>
        </dl>
        <h3>"Pushes"</h3>
        {if pushes.is_empty() {
            view! { <p class="muted">"None since the watch began: a push to the branch shows here."</p> }.into_any()
        } else {
            view! {
                <ul class="record-list" aria-label="Pushes">
                    {pushes.into_iter().map(|push| view! { <PushItem push/> }).collect_view()}
                </ul>
            }.into_any()
        }}
    }
}

#[component]
fn PushItem(push: Push) -> impl IntoView {
    let badge = match push.outcome {
        PushOutcome::Deployed => "badge badge--success",
        _ => "badge badge--neutral",
    };
    let deployment = push
        .execution_id
        .as_deref()
        .map(|execution| format!("Deployment {}", short_id(execution)));
    view! {
        <li class="record" data-commit=push.git_commit_id.clone()>
            <div class="record__head">
                <span class="mono">{short_id(&push.git_commit_id)}</span>
                <span class="record__title">{push.message}</span>
                <span class=badge><span class="badge__dot" aria-hidden="true"></span>{push.outcome.label()}</span>
            </div>
            <p class="muted">
                {push.author_name}" · "<RelativeTime at=push.seen_at/>
                {deployment.map(|deployment| view! { " · "{deployment} })}
            </p>
            {push.reason.map(|reason| view! { <p>"Skipped: "{reason}"."</p> })}
        </li>
    }
}
