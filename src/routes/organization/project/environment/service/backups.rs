//! A database's backups, in its overview: each with how its taking went, newest first, followed
//! while one is being taken; a backup taken on request (what for, in a line) and deleted after a
//! confirmation once taken.

use std::time::Duration;

use leptos::prelude::*;
use platform_api::{ActionStatus, Backup, BackupRequest};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::delete_button::DeleteButton;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::TextField;
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::state::polling::poll;
use crate::state::resource::resource;

/// How often the list is read again while a backup is being taken.
const POLL_TAKING: Duration = Duration::from_secs(2);

#[component]
pub fn DatabaseBackups(database: Uuid) -> impl IntoView {
    let api = use_api();
    let backups = resource(move || async move { api.backups(database).await });
    poll(
        move || match backups.get() {
            Some(Ok(list)) if list.iter().any(being_taken) => Some(POLL_TAKING),
            _ => None,
        },
        move || backups.refetch(),
    );
    let changed = Callback::new(move |()| backups.refetch());
    view! {
        <section class="card" aria-labelledby="backups-title">
            <h2 id="backups-title">"Backups"</h2>
            {loaded(backups, 2, move |list| {
                if list.is_empty() {
                    return view! {
                        <p class="muted">"No backup yet. Take one before a risky change: the database must be running."</p>
                    }.into_any();
                }
                view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Name"</th>
                            <th scope="col">"Taken"</th>
                            <th scope="col">"State"</th>
                            <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                        </tr></thead>
                        <tbody>
                            {list.into_iter().map(|backup| view! { <BackupRow database backup on_deleted=changed/> }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            })}
            <NewDialog label="Take a backup">
                <TakeBackup database on_taken=changed/>
            </NewDialog>
        </section>
    }
}

/// Whether the backup is queued or being taken.
fn being_taken(backup: &Backup) -> bool {
    backup.status.as_ref().is_some_and(|status| {
        matches!(
            status.status_details.status,
            ActionStatus::Queued | ActionStatus::Ongoing
        )
    })
}

/// How the taking of a backup went, in words, with its badge.
fn outcome(backup: &Backup) -> (&'static str, &'static str) {
    match backup
        .status
        .as_ref()
        .map(|status| status.status_details.status)
    {
        Some(ActionStatus::Queued) => ("badge badge--progress", "Queued"),
        Some(ActionStatus::Ongoing) => ("badge badge--progress", "Being taken"),
        Some(ActionStatus::Success) => ("badge badge--success", "Taken"),
        Some(ActionStatus::Error) => ("badge badge--failure", "Failed"),
        _ => ("badge badge--neutral", "Unknown"),
    }
}

#[component]
fn BackupRow(database: Uuid, backup: Backup, on_deleted: Callback<()>) -> impl IntoView {
    let api = use_api();
    let (class, words) = outcome(&backup);
    let id = backup.id;
    let taking = being_taken(&backup);
    view! {
        <tr data-backup=backup.name.clone()>
            <td>
                <strong>{backup.name.clone()}</strong>
                <div class="cell-note muted">{backup.message.clone()}</div>
            </td>
            <td><RelativeTime at=backup.created_at/></td>
            <td><span class=class><span class="badge__dot" aria-hidden="true"></span>{words}</span></td>
            <td class="row-actions">
                {(!taking).then(|| view! {
                    <DeleteButton question="Delete this backup?" item=backup.name.clone()
                        consequence="Its data cannot be restored from it any more."
                        done="Backup deleted."
                        delete=move || async move { api.delete_backup(database, id).await }
                        on_deleted/>
                })}
            </td>
        </tr>
    }
}

#[component]
fn TakeBackup(database: Uuid, on_taken: Callback<()>) -> impl IntoView {
    let api = use_api();
    let name = RwSignal::new(String::new());
    let message = RwSignal::new(String::new());
    let form = Form::new(
        move |request: BackupRequest| async move { api.take_backup(database, &request).await },
        move |taken: Backup| {
            name.set(String::new());
            message.set(String::new());
            on_taken.run(());
            format!(
                "Backup {} asked for: it is listed while it is taken.",
                taken.name
            )
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = BackupRequest {
            name: name.get_untracked().trim().to_string(),
            message: message.get_untracked().trim().to_string(),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Take a backup">
            <h2>"Take a backup"</h2>
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="before-v2"/>
                <TextField label="What for" name="message" value=message errors
                    placeholder="before the migration to v2"/>
            </div>
            <SubmitButton form label="Take the backup"/>
        </form>
    }
}
