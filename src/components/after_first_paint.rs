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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use leptos::task::tick;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    /// Waits a few frames (headless Chromium draws on a timer).
    async fn frames() {
        gloo_timers::future::sleep(Duration::from_millis(100)).await;
    }

    #[wasm_bindgen_test]
    async fn what_follows_is_built_only_once_it_is_ready_and_a_frame_has_passed() {
        let parent = document()
            .create_element("div")
            .unwrap()
            .dyn_into::<web_sys::HtmlElement>()
            .unwrap();
        document().body().unwrap().append_child(&parent).unwrap();
        let ready = RwSignal::new(false);
        let _mounted = leptos::mount::mount_to(parent.clone(), move || {
            view! { <AfterFirstPaint ready><p class="below">"Below"</p></AfterFirstPaint> }
        });
        let shown = || parent.query_selector(".below").unwrap().is_some();
        frames().await;
        assert!(!shown(), "shown before it was ready");

        ready.set(true);
        // Not in the task that made it ready, once its effects have run: that task's frame is
        // drawn first.
        tick().await;
        tick().await;
        assert!(!shown(), "built in the same task as what it follows");
        frames().await;
        assert!(shown(), "never shown once ready");
        parent.remove();
    }
}
