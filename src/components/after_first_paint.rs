//! What a page shows below its main content, built once that content has been drawn.

use std::time::Duration;

use leptos::prelude::*;

/// Shows `children` once `ready` holds and the browser has drawn a frame since: a page's main
/// content is built, laid out and drawn first, and the rest of the page (with what it reads)
/// the moment after, rather than all of it in one long task before anything shows.
#[component]
pub fn AfterFirstPaint(#[prop(into)] ready: Signal<bool>, children: ChildrenFn) -> impl IntoView {
    let shown = RwSignal::new(false);
    Effect::new(move |_| {
        if ready.get() && !shown.get_untracked() {
            // A frame's callbacks run before it is drawn; a task queued from one runs after.
            request_animation_frame(move || {
                set_timeout(move || shown.set(true), Duration::ZERO);
            });
        }
    });
    view! { <Show when=move || shown.get()>{children()}</Show> }
}
