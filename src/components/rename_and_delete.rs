//! The last card of a project's or an environment's page: rename it, or delete it and all it
//! holds once its name is typed (a slip of the mouse deletes nothing).

use std::future::Future;

use leptos::prelude::*;
use platform_api::FieldError;

use super::form::Form;
use super::form_field::TextField;
use crate::api::ApiError;
use crate::state::toasts::use_toasts;

#[component]
pub fn RenameAndDelete<T, R, RFut, D, DFut>(
    /// What it is, in words: "project", "environment".
    what: &'static str,
    /// What deleting it takes with it, in a sentence.
    consequence: &'static str,
    name: String,
    /// Sends the new name; answers the record as renamed.
    rename: R,
    delete: D,
    on_renamed: Callback<T>,
    on_deleted: Callback<()>,
) -> impl IntoView
where
    R: Fn(String) -> RFut + 'static,
    T: 'static,
    RFut: Future<Output = Result<T, ApiError>> + 'static,
    D: Fn() -> DFut + 'static,
    DFut: Future<Output = Result<(), ApiError>> + 'static,
{
    let toasts = use_toasts();
    let new_name = RwSignal::new(name.clone());
    let form = Form::new(
        move |name: String| rename(name),
        move |renamed| {
            on_renamed.run(renamed);
            format!("The {what} is renamed.")
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let typed = new_name.get_untracked().trim().to_string();
        let checked = platform_api::rules::name("name", &typed).map_or(Ok(()), |e| Err(vec![e]));
        form.submit(typed, checked);
    };

    let typed_to_delete = RwSignal::new(String::new());
    let delete_errors = RwSignal::new(Vec::<FieldError>::new());
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
    let confirmed = {
        let name = name.clone();
        move || typed_to_delete.get().trim() == name
    };
    let delete_label = format!("Type “{name}” to delete it");
    let delete_button = format!("Delete this {what}");
    let delete_form = delete_button.clone();
    view! {
        <section class="card danger-zone" aria-labelledby="manage-title">
            <h2 id="manage-title">{format!("Rename or delete this {what}")}</h2>
            <form on:submit=submit novalidate aria-label=format!("Rename this {what}") class="form-inline">
                <div class="form-inline__fields">
                    <TextField label="Name" name="name" value=new_name errors required=true
                        form_id="rename"/>
                </div>
                <button type="submit" class="button" disabled=move || form.pending()>"Rename"</button>
            </form>
            <form class="form-inline" aria-label=delete_form
                on:submit=move |event| {
                    event.prevent_default();
                    deleting.dispatch_local(());
                }>
                <p class="muted">{consequence}</p>
                <div class="form-inline__fields">
                    <TextField label=delete_label name="confirm_name" value=typed_to_delete
                        errors=delete_errors form_id="delete"/>
                </div>
                <button type="submit" class="button button--danger"
                    disabled=move || !confirmed() || deleting.pending().get()>
                    {delete_button}
                </button>
            </form>
        </section>
    }
}
