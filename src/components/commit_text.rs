//! A commit as lists show it: its subject, then its short id, tag, author and age.

use leptos::prelude::*;
use platform_api::{short_id, Commit};

use crate::components::relative_time::RelativeTime;

#[component]
pub fn CommitText(commit: Commit) -> impl IntoView {
    let subject = commit
        .message
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    view! {
        <div class="commit__text">
            <span class="commit__subject">{subject}</span>
            <span class="muted commit__meta">
                <span class="mono">{short_id(&commit.git_commit_id)}</span>
                {(!commit.tag.is_empty()).then(|| view! { <span class="commit__tag">{commit.tag}</span> })}
                {commit.author_name}
                <RelativeTime at=commit.created_at/>
            </span>
        </div>
    }
}
