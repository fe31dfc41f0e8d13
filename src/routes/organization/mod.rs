pub mod overview;
pub mod project;
