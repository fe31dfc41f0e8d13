use leptos::prelude::*;
use platform_api::LogLine;

use super::format;

/// What the engine did during one deployment, line by line with the time of each: the last line
/// of a failed deployment says why it failed.
#[component]
pub fn DeploymentLog(lines: Vec<LogLine>) -> impl IntoView {
    if lines.is_empty() {
        return view! { <p class="log__empty">"No deployment yet."</p> }.into_any();
    }
    view! {
        // Focusable: a long log scrolls, and a keyboard must reach it to scroll it.
        <ol class="log" aria-label="Deployment log" tabindex="0">
            {lines
                .into_iter()
                .map(|line| view! {
                    <li class="log__line">
                        <time class="log__time" datetime=line.created_at.to_rfc3339()
                            title=format::exact(line.created_at)>
                            {format::clock(line.created_at)}
                        </time>
                        <span class="log__message">{line.message}</span>
                    </li>
                })
                .collect_view()}
        </ol>
    }
    .into_any()
}
