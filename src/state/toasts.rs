//! Short messages after an action: "Project created", "Deployment queued", or why it failed.

use std::time::Duration;

use leptos::prelude::*;

const SHOWN_FOR: Duration = Duration::from_secs(6);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToastKind {
    Success,
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Toast {
    pub id: u64,
    pub kind: ToastKind,
    pub message: String,
}

#[derive(Clone, Copy)]
pub struct Toasts {
    list: RwSignal<Vec<Toast>>,
    next_id: StoredValue<u64>,
}

pub fn provide_toasts() {
    provide_context(Toasts {
        list: RwSignal::new(Vec::new()),
        next_id: StoredValue::new(0),
    });
}

pub fn use_toasts() -> Toasts {
    expect_context()
}

impl Toasts {
    pub fn success(&self, message: impl Into<String>) {
        self.push(ToastKind::Success, message.into());
    }

    pub fn error(&self, message: impl Into<String>) {
        self.push(ToastKind::Error, message.into());
    }

    pub fn list(&self) -> Vec<Toast> {
        self.list.get()
    }

    pub fn dismiss(&self, id: u64) {
        self.list.update(|list| list.retain(|toast| toast.id != id));
    }

    fn push(&self, kind: ToastKind, message: String) {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.list
            .update(|list| list.push(Toast { id, kind, message }));
        let toasts = *self;
        set_timeout(move || toasts.dismiss(id), SHOWN_FOR);
    }
}
