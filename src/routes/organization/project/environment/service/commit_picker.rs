//! "Deploy a commit…" on a service built from git: the branch's latest commits in a dialog, read
//! from the repository each time it opens, each one deployable. The list's code and its read of
//! the commits are in the review's group (`LoadCommitList`; the review shows commits too), fetched
//! once the browser is idle or when the dialog first opens: no tab of a service carries them.

use futures::future::BoxFuture;
use leptos::html::Dialog;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use platform_api::{Commit, ServiceType};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::commit_text::CommitText;
use crate::components::empty_state::EmptyState;
use crate::components::fetched::{fetched, FetchedContent};
use crate::components::loaded::loaded;
use crate::state::resource::resource;

#[component]
pub fn CommitPicker(
    kind: ServiceType,
    id: Uuid,
    /// The commit deployed now, marked in the list.
    deployed: Option<String>,
    #[prop(into)] disabled: Signal<bool>,
    #[prop(into)] title: Signal<Option<String>>,
    #[prop(into)] on_pick: Callback<String>,
) -> impl IntoView {
    let LoadCommitList(load) = expect_context();
    let dialog = NodeRef::<Dialog>::new();
    let open = RwSignal::new(false);
    let show = move |_| {
        open.set(true);
        if let Some(dialog) = dialog.get() {
            let _ = dialog.show_modal();
        }
    };
    let close = move || {
        if let Some(dialog) = dialog.get() {
            dialog.close();
        }
    };
    let pick = Callback::new(move |commit: String| {
        close();
        on_pick.run(commit);
    });
    view! {
        <button type="button" class="button button--secondary" disabled=move || disabled.get()
            title=move || title.get() on:click=show>
            "Deploy a commit…"
        </button>
        // Escape closes it too; either way the list is built, and read, again at the next opening.
        <dialog node_ref=dialog class="confirm commit-picker" aria-labelledby="commit-picker-title"
            on:close=move |_| open.set(false)>
            <h2 id="commit-picker-title" class="confirm__question">"Deploy a commit"</h2>
            <p class="confirm__consequence">"The latest commits of the service's branch, newest first."</p>
            {move || open.get().then(|| {
                let opened = OpenedPicker { kind, id, deployed: deployed.clone(), pick };
                let content: FetchedContent = Box::pin(async move { Ok(load().await?(opened)) });
                fetched(content, 5)
            })}
            <div class="confirm__actions">
                <button type="button" class="button button--secondary" on:click=move |_| close()>
                    "Close"
                </button>
            </div>
        </dialog>
    }
}

/// The dialog opened, and where a pick goes.
pub struct OpenedPicker {
    kind: ServiceType,
    id: Uuid,
    deployed: Option<String>,
    pick: Callback<String>,
}

/// Builds the list of commits.
pub type CommitListOf = fn(OpenedPicker) -> AnyView;

/// The list's code, fetched if it is not yet (behind the split point `app.rs` provides, which
/// hands back the function that builds it).
#[derive(Clone, Copy)]
pub struct LoadCommitList(pub fn() -> BoxFuture<'static, Result<CommitListOf, SplitLoaderError>>);

/// The branch's latest commits, read now, as the split point builds them.
pub fn commit_list(opened: OpenedPicker) -> AnyView {
    let api = use_api();
    let OpenedPicker {
        kind,
        id,
        deployed,
        pick,
    } = opened;
    let commits = resource(move || async move { api.service_commits(kind, id).await });
    loaded(commits, 5, move |commits| {
        view! { <Commits commits deployed=deployed.clone() pick/> }
    })
    .into_any()
}

#[component]
fn Commits(
    commits: Vec<Commit>,
    deployed: Option<String>,
    pick: Callback<String>,
) -> impl IntoView {
    if commits.is_empty() {
        return view! {
            <EmptyState title="No commit on this branch" hint="Push a commit, then open this list again."/>
        }
        .into_any();
    }
    view! {
        <ol class="commits" aria-label="Commits">
            {commits.into_iter().map(|commit| {
                let is_deployed = deployed.as_deref() == Some(commit.git_commit_id.as_str());
                let id = commit.git_commit_id.clone();
                let picked = id.clone();
                view! {
                    <li class="commit" data-commit=id>
                        <CommitText commit/>
                        {if is_deployed {
                            view! { <span class="muted">"Deployed"</span> }.into_any()
                        } else {
                            view! {
                                <button type="button" class="button button--small button--primary"
                                    on:click=move |_| pick.run(picked.clone())>
                                    "Deploy"
                                </button>
                            }
                            .into_any()
                        }}
                    </li>
                }
            }).collect_view()}
        </ol>
    }
    .into_any()
}
