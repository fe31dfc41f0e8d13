//! Runtime configuration read from `config.json` next to `index.html`, so that one build serves
//! every deployment of the console.

use leptos::prelude::*;
use platform_api::console_config::ConsoleConfig;

use crate::state::resource::resource;

#[derive(Clone, Copy)]
pub struct Config(LocalResource<ConsoleConfig>);

pub fn provide_config() {
    provide_context(Config(resource(load)));
}

pub fn use_config() -> Config {
    expect_context()
}

impl Config {
    /// The configuration once loaded; `None` while `config.json` is on its way.
    pub fn get(&self) -> Option<ConsoleConfig> {
        self.0.get()
    }

    /// The same, without subscribing the caller to its arrival (in an event handler).
    pub fn get_untracked(&self) -> Option<ConsoleConfig> {
        self.0.get_untracked()
    }
}

/// A missing or malformed `config.json` leaves every setting at its default: the person can still
/// type the API address on the sign-in page.
async fn load() -> ConsoleConfig {
    let response = match gloo_net::http::Request::get("/config.json").send().await {
        Ok(response) if response.ok() => response,
        _ => return ConsoleConfig::default(),
    };
    response.json().await.unwrap_or_default()
}
