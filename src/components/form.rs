use std::future::Future;

use leptos::prelude::*;
use platform_api::FieldError;

use super::new_dialog::EnclosingDialog;
use crate::api::ApiError;
use crate::state::toasts::use_toasts;

/// A form that sends one request: the rule messages it shows under its fields, and its submission.
pub struct Form<R: 'static> {
    pub errors: RwSignal<Vec<FieldError>>,
    action: Action<R, ()>,
}

impl<R: 'static> Clone for Form<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: 'static> Copy for Form<R> {}

impl<R: Clone + 'static> Form<R> {
    /// `send` calls the API. On success, `on_success` resets what it must and returns the message
    /// to toast (and the "New …" dialog the form is in closes); on failure the server's per-field errors show under the fields and the error is
    /// toasted.
    pub fn new<T, Fut>(
        send: impl Fn(R) -> Fut + 'static,
        on_success: impl Fn(T) -> String + Clone + 'static,
    ) -> Self
    where
        T: 'static,
        Fut: Future<Output = Result<T, ApiError>> + 'static,
    {
        let toasts = use_toasts();
        // A creation form behind a "New …" button closes once it has created.
        let dialog = use_context::<EnclosingDialog>();
        let errors = RwSignal::new(Vec::new());
        let action = Action::new_local(move |request: &R| {
            let sent = send(request.clone());
            let on_success = on_success.clone();
            async move {
                match sent.await {
                    Ok(created) => {
                        toasts.success(on_success(created));
                        if let Some(dialog) = dialog {
                            dialog.close();
                        }
                    }
                    Err(error) => {
                        errors.set(error.fields().to_vec());
                        toasts.error(error.to_string());
                    }
                }
            }
        });
        Self { errors, action }
    }

    /// Sends `request` if `checked` (the outcome of its `platform-api` rules) passed; otherwise
    /// shows the broken rules under their fields and sends nothing.
    pub fn submit(&self, request: R, checked: Result<(), Vec<FieldError>>) {
        match checked {
            Ok(()) => {
                self.errors.set(Vec::new());
                self.action.dispatch_local(request);
            }
            Err(problems) => self.errors.set(problems),
        }
    }

    pub fn pending(&self) -> bool {
        self.action.pending().get()
    }
}

/// The outcome of `rules` with one more: `name` is not one of `existing` (compared without
/// case, as the platform compares names), said as "is already taken in that `place`".
pub fn and_free_name<'a>(
    rules: Result<(), Vec<FieldError>>,
    name: &str,
    existing: impl IntoIterator<Item = &'a str>,
    place: &str,
) -> Result<(), Vec<FieldError>> {
    let taken = existing
        .into_iter()
        .any(|other| other.eq_ignore_ascii_case(name));
    rules.and_then(|()| {
        if taken {
            Err(vec![FieldError::new(
                "name",
                format!("is already taken in that {place}"),
            )])
        } else {
            Ok(())
        }
    })
}

/// The numbers typed in a form, each read as a whole number or reported as not being one, under
/// its field.
#[derive(Default)]
pub struct Numbers(Vec<FieldError>);

impl Numbers {
    /// `text` as a whole number; 0 after reporting it when it is not one.
    pub fn read(&mut self, field: impl Into<String>, text: &str) -> i64 {
        text.trim().parse().unwrap_or_else(|_| {
            self.0
                .push(FieldError::new(field, "must be a whole number"));
            0
        })
    }

    /// `text` as a whole number, or `None` when left empty.
    pub fn read_optional(&mut self, field: impl Into<String>, text: &str) -> Option<i64> {
        (!text.trim().is_empty()).then(|| self.read(field, text))
    }

    /// The outcome of the request's rules, with the unreadable numbers: a field that is not a
    /// number is not reported again as out of range.
    pub fn and_rules(self, rules: Result<(), Vec<FieldError>>) -> Result<(), Vec<FieldError>> {
        let mut problems = self.0;
        if let Err(broken) = rules {
            let unreadable: Vec<String> = problems.iter().map(|p| p.field.clone()).collect();
            problems.extend(
                broken
                    .into_iter()
                    .filter(|rule| !unreadable.contains(&rule.field)),
            );
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// A form's submit button: disabled while the form is sent.
#[component]
pub fn SubmitButton<R: Clone + 'static>(
    form: Form<R>,
    #[prop(into)] label: String,
) -> impl IntoView {
    view! {
        <button type="submit" class="button button--primary" disabled=move || form.pending()>
            {label}
        </button>
    }
}
