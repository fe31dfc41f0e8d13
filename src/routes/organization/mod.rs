pub mod overview;
pub mod project;
pub mod settings;
