//! Repeatable rows of a form (ports, volumes, variables, scalers): each row a set of signals, added
//! and removed by the person, its fields named by the row's place so that the rules' messages
//! (`ports[1].internal_port`) land on the right row.

use leptos::prelude::*;
use platform_api::FieldError;

/// The rows of one repeatable part of a form.
pub struct Rows<T: Send + Sync + 'static>(RwSignal<Vec<T>>);

impl<T: Send + Sync + 'static> Clone for Rows<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Rows<T> {}

impl<T: Copy + Send + Sync + 'static> Rows<T> {
    pub fn new(rows: impl IntoIterator<Item = T>) -> Self {
        Self(RwSignal::new(rows.into_iter().collect()))
    }

    /// Adds `rows` after the others.
    pub fn extend(&self, rows: impl IntoIterator<Item = T>) {
        self.0.update(|list| list.extend(rows));
    }

    /// Every row, in order, as a submission reads them.
    pub fn read<R>(&self, mut each: impl FnMut(usize, T) -> R) -> Vec<R> {
        self.0
            .get_untracked()
            .into_iter()
            .enumerate()
            .map(|(index, row)| each(index, row))
            .collect()
    }
}

/// The rows under a legend, each with its own Remove button, and a button adding one made by
/// `new_row`. `row` draws a row's fields from its index (for their names), its signals and the
/// form's errors.
#[component]
pub fn RowList<T, V>(
    legend: &'static str,
    /// What one row is, for the buttons' names: "port" gives "Add a port", "Remove port 2".
    what: &'static str,
    rows: Rows<T>,
    new_row: fn() -> T,
    row: fn(usize, T, RwSignal<Vec<FieldError>>) -> V,
    errors: RwSignal<Vec<FieldError>>,
    #[prop(optional)] hint: &'static str,
) -> impl IntoView
where
    T: Copy + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let remove = move |index: usize| {
        rows.0.update(|all| {
            all.remove(index);
        })
    };
    view! {
        <fieldset class="rows">
            <legend>{legend}</legend>
            {(!hint.is_empty()).then(|| view! { <p class="field__hint">{hint}</p> })}
            {move || {
                rows.0
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(index, item)| view! {
                        <div class="rows__row">
                            <div class="form-grid">{row(index, item, errors)}</div>
                            <button type="button" class="button button--small"
                                aria-label=format!("Remove {what} {}", index + 1)
                                on:click=move |_| remove(index)>
                                "Remove"
                            </button>
                        </div>
                    })
                    .collect_view()
            }}
            <button type="button" class="button" on:click=move |_| rows.0.update(|all| all.push(new_row()))>
                {format!("Add {} {what}", article(what))}
            </button>
        </fieldset>
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
