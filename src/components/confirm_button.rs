use std::sync::atomic::{AtomicU32, Ordering};

use leptos::html::{Button, Dialog};
use leptos::prelude::*;

/// Tells the dialogs of a page apart, for `aria-labelledby`.
static DIALOGS: AtomicU32 = AtomicU32::new(0);

/// A button for an action that cannot be taken back: it runs `on_confirm` only after the person
/// confirms in a modal dialog of the page (focus kept in it, Escape or Cancel closes it). A page
/// dialog rather than `window.confirm`, which a portal's sandboxed iframe silently answers "no".
#[component]
pub fn ConfirmButton(
    /// The action, on the button and on the dialog's confirming button ("Uninstall").
    #[prop(into)]
    label: String,
    /// The dialog's question ("Uninstall this service?").
    #[prop(into)]
    question: String,
    /// What happens, in a sentence.
    #[prop(into)]
    consequence: String,
    #[prop(into)] on_confirm: Callback<()>,
    #[prop(into, optional)] disabled: Signal<bool>,
    /// Why the button is disabled, shown on hover.
    #[prop(into, optional)]
    title: Signal<Option<String>>,
    #[prop(default = "button button--ghost button--danger")] class: &'static str,
    /// What it acts on, when the page holds several such buttons: read with the label by
    /// screen readers ("Delete team-web").
    #[prop(into, default = None)]
    target: Option<String>,
    /// The dialog's confirming button: destructive unless the action is not.
    #[prop(default = "button button--destructive")]
    confirm_class: &'static str,
    /// More of the dialog, between the consequence and its buttons (a choice that goes with the
    /// action).
    #[prop(optional)]
    children: Option<Children>,
    /// Told each time the dialog opens (to read what it shows then).
    #[prop(optional)]
    on_open: Option<Callback<()>>,
) -> impl IntoView {
    let accessible_name = target.map(|target| format!("{label} {target}"));
    let dialog = NodeRef::<Dialog>::new();
    let cancel = NodeRef::<Button>::new();
    let heading = format!("confirm-{}", DIALOGS.fetch_add(1, Ordering::Relaxed));
    let labelled_by = heading.clone();
    let open = move |_| {
        if let Some(on_open) = on_open {
            on_open.run(());
        }
        if let Some(dialog) = dialog.get() {
            let _ = dialog.show_modal();
        }
        // Focus starts on the harmless choice. Not by `autofocus`: a page's autofocus element,
        // even in a closed dialog, has the browser work out the page's style before its next
        // frame's own work (a thousand-row table's, 250 ms before its first frame).
        if let Some(cancel) = cancel.get() {
            let _ = cancel.focus();
        }
    };
    let close = move || {
        if let Some(dialog) = dialog.get() {
            dialog.close();
        }
    };
    view! {
        <button type="button" class=class disabled=move || disabled.get() title=move || title.get()
            aria-label=accessible_name on:click=open>
            {label.clone()}
        </button>
        <dialog node_ref=dialog class="confirm" aria-labelledby=labelled_by>
            <h2 id=heading class="confirm__question">{question}</h2>
            <p class="confirm__consequence">{consequence}</p>
            {children.map(|children| children())}
            <div class="confirm__actions">
                <button type="button" class="button button--secondary" node_ref=cancel
                    on:click=move |_| close()>
                    "Cancel"
                </button>
                <button type="button" class=confirm_class
                    on:click=move |_| {
                        close();
                        on_confirm.run(());
                    }>
                    {label}
                </button>
            </div>
        </dialog>
    }
}
