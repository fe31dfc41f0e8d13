//! Deleting a whole thing (a project, an environment, the organization) once its name is typed:
//! a slip of the mouse deletes nothing.

use std::future::Future;

use leptos::prelude::*;
use platform_api::FieldError;

use super::form_field::TextField;
use crate::api::ApiError;
use crate::state::toasts::use_toasts;

#[component]
pub fn TypedDelete<D, DFut>(
    /// What it is, in words: "project", "organization".
    what: &'static str,
    /// What deleting it takes with it, in a sentence.
    consequence: &'static str,
    name: String,
    delete: D,
    on_deleted: Callback<()>,
) -> impl IntoView
where
    D: Fn() -> DFut + 'static,
    DFut: Future<Output = Result<(), ApiError>> + 'static,
{
    let toasts = use_toasts();
    let typed = RwSignal::new(String::new());
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let deleting = Action::new_local(move |(): &()| {
        let deleted = delete();
        async move {
            match deleted.await {
                Ok(()) => {
                    toasts.success(format!("The {what} is deleted."));
                    on_deleted.run(());
                }
                Err(error) => toasts.error(error.to_string()),
            }
        }
    });
    let label = format!("Type “{name}” to delete it");
    let button = format!("Delete this {what}");
    let form_label = button.clone();
    let confirmed = move || typed.get().trim() == name;
    view! {
        <form class="form-inline" aria-label=form_label
            on:submit=move |event| {
                event.prevent_default();
                deleting.dispatch_local(());
            }>
            <p class="muted">{consequence}</p>
            <div class="form-inline__fields">
                <TextField label name="confirm_name" value=typed errors form_id="delete"/>
            </div>
            <button type="submit" class="button button--danger"
                disabled=move || !confirmed() || deleting.pending().get()>
                {button}
            </button>
        </form>
    }
}
