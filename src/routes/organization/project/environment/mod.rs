mod clone;
mod new_service;
pub mod overview;
pub mod service;
pub mod service_form;
