pub mod overview;
mod settings;
