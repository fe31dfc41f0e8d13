mod clone;
pub mod deployments;
pub mod new_service;
pub mod overview;
mod row_statuses;
mod selection;
pub mod service;
pub mod service_form;
mod service_table;
