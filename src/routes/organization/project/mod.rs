pub mod environment;
pub mod overview;
