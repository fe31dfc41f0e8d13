//! The last card of a project's or an environment's page: rename it, or delete it and all it
//! holds once its name is typed (a slip of the mouse deletes nothing).

use std::future::Future;

use leptos::prelude::*;

use super::form::Form;
use super::form_field::TextField;
use super::typed_delete::TypedDelete;
use crate::api::ApiError;

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
            <TypedDelete what consequence name delete on_deleted/>
        </section>
    }
}
