pub mod overview;
pub mod service;
