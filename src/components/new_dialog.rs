//! Creation behind a "New …" button: the form opens in a modal dialog over the list, and closes
//! once the record is created (`Form` closes the dialog it is in), so lists are not followed by
//! forms that are always open.

use leptos::html::Dialog;
use leptos::prelude::*;
use platform_api::RolePermission;

use super::fetched::{fetched, FetchedContent};
use crate::state::role::Permitted;

/// The dialog a form is in, for `Form` to close on success, and for a form whose code is fetched
/// when wanted to wait until the dialog is first opened.
#[derive(Clone, Copy)]
pub struct EnclosingDialog {
    dialog: NodeRef<Dialog>,
    opened: RwSignal<bool>,
}

impl EnclosingDialog {
    pub fn close(&self) {
        if let Some(dialog) = self.dialog.get_untracked() {
            dialog.close();
        }
    }

    /// Whether the dialog has been opened at least once.
    pub fn was_opened(&self) -> bool {
        self.opened.get()
    }
}

#[component]
pub fn NewDialog(
    /// The button's words, and the dialog's name: "New cluster".
    label: &'static str,
    /// The permission creating takes: WRITE unless said (tokens and webhooks take ADMIN). A
    /// weaker role sees the button disabled with the reason.
    #[prop(default = RolePermission::Write)]
    needs: RolePermission,
    children: Children,
) -> impl IntoView {
    let permitted = Permitted::new(needs, "create here");
    let dialog = NodeRef::<Dialog>::new();
    let enclosing = EnclosingDialog {
        dialog,
        opened: RwSignal::new(false),
    };
    provide_context(enclosing);
    let open = move |_| {
        enclosing.opened.set(true);
        if let Some(dialog) = dialog.get() {
            let _ = dialog.show_modal();
        }
    };
    view! {
        <div class="new-dialog__opener">
            <button type="button" class="button button--primary" on:click=open
                disabled=move || permitted.refusal().is_some() title=move || permitted.refusal()>
                {label}
            </button>
            <p class="actions__refusal">{move || permitted.refusal()}</p>
        </div>
        <dialog node_ref=dialog class="new-dialog" aria-label=label>
            <button type="button" class="new-dialog__close" aria-label="Close"
                on:click=move |_| enclosing.close()>"×"</button>
            {children()}
        </dialog>
    }
}

/// A dialog's content whose code is fetched when the dialog is first opened (`load`), with what it
/// reads.
#[component]
pub fn FetchedWhenOpened<F>(load: F) -> impl IntoView
where
    F: Fn() -> FetchedContent + Send + Sync + 'static,
{
    let dialog: EnclosingDialog = expect_context();
    move || dialog.was_opened().then(|| fetched(load(), 3))
}
