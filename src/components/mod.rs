//! Reusable presentational pieces.

pub mod after_first_paint;
pub mod case;
pub mod command_palette;
pub mod confirm_button;
pub mod copy_button;
pub mod credential_fields;
pub mod delete_button;
pub mod deployment_log;
pub mod empty_state;
pub mod error_notice;
pub mod form;
pub mod form_field;
pub mod format;
pub mod loaded;
pub mod new_dialog;
pub mod page_not_loaded;
pub mod pager;
pub mod relative_time;
pub mod rename_and_delete;
pub mod rows;
pub mod shell;
pub mod skeleton;
pub mod status_badge;
pub mod steps_timeline;
pub mod toasts;
pub mod toggle_button;
