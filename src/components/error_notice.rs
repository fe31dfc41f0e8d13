use leptos::prelude::*;

use crate::api::ApiError;

/// What failed, in words, with a way to try again. A 401 needs no notice: the session ends and
/// the person is taken to sign in.
#[component]
pub fn ErrorNotice(errors: ArcRwSignal<Errors>, on_retry: Callback<()>) -> impl IntoView {
    let messages = move || {
        errors
            .get()
            .into_iter()
            .map(|(_, error)| match error.downcast_ref::<ApiError>() {
                Some(api_error) => api_error.to_string(),
                None => error.to_string(),
            })
            .collect::<Vec<_>>()
    };
    view! {
        <div class="notice notice--error" role="alert">
            <ul>{move || messages().into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
            <button type="button" class="button button--secondary" on:click=move |_| on_retry.run(())>
                "Try again"
            </button>
        </div>
    }
}
