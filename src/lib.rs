//! The web console of the Deployment Platform Management API.

pub mod api;
pub mod app;
pub mod case;
pub mod components;
pub mod paths;
pub mod routes;
pub mod state;
