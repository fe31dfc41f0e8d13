//! What the container registries and helm repositories pages share: a table of the places
//! services take what they run from, each with its kind, address and how many services use it,
//! and its delete (refused by the server while services use it).

use std::future::Future;

use leptos::prelude::*;
use uuid::Uuid;

use crate::api::ApiError;
use crate::components::delete_button::{services_using, DeleteButton};
use crate::components::empty_state::EmptyState;

/// One registry or repository, as its row shows it.
#[derive(Clone)]
pub struct Source {
    pub id: Uuid,
    pub name: String,
    pub kind: &'static str,
    pub url: String,
    /// A line under the address: the user it signs in as, say.
    pub note: Option<String>,
    /// Whether the note is a warning (a certificate not checked).
    pub warning: bool,
    pub used_by: i64,
}

/// What a table says of the kind of place it lists.
pub struct SourceWords {
    pub empty_title: &'static str,
    pub empty_hint: &'static str,
    pub question: &'static str,
    pub consequence: &'static str,
    pub done: &'static str,
}

#[component]
pub fn SourceTable<F, Fut>(
    sources: Vec<Source>,
    words: SourceWords,
    /// Deletes the source with this id.
    delete: F,
    on_deleted: Callback<()>,
) -> impl IntoView
where
    F: Fn(Uuid) -> Fut + Clone + 'static,
    Fut: Future<Output = Result<(), ApiError>> + 'static,
{
    if sources.is_empty() {
        return view! { <EmptyState title=words.empty_title hint=words.empty_hint/> }.into_any();
    }
    view! {
        <table class="table">
            <thead><tr>
                <th scope="col">"Name"</th>
                <th scope="col">"Kind"</th>
                <th scope="col">"Address"</th>
                <th scope="col">"Used by"</th>
                <th scope="col"><span class="visually-hidden">"Actions"</span></th>
            </tr></thead>
            <tbody>
                {sources.into_iter().map(|source| {
                    let (id, delete, name) = (source.id, delete.clone(), source.name.clone());
                    let row_name = name.clone();
                    let note_class = if source.warning { "cell-note warning-text" } else { "cell-note muted" };
                    view! {
                        <tr data-source=name>
                            <td><strong>{source.name}</strong></td>
                            <td><span class="tag">{source.kind}</span></td>
                            <td>
                                <span class="mono">{source.url}</span>
                                {source.note.map(|note| view! { <div class=note_class>{note}</div> })}
                            </td>
                            <td>{services_using(source.used_by)}</td>
                            <td class="row-actions">
                                <DeleteButton question=words.question consequence=words.consequence
                                    done=words.done delete=move || delete(id) on_deleted item=row_name.clone()/>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
