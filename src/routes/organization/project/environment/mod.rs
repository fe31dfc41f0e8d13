mod new_service;
pub mod overview;
mod resources;
pub mod service;
pub mod service_form;
