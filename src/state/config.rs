//! Runtime configuration read from `config.json` next to `index.html`, so that one build serves
//! every deployment of the console.

use leptos::prelude::*;
use serde::Deserialize;

use crate::state::resource::resource;

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct RuntimeConfig {
    /// The API the console talks to, e.g. `https://api.example.com` or `http://127.0.0.1:8080/api`.
    #[serde(default)]
    pub api_base_url: Option<String>,
    #[serde(default)]
    pub embed: EmbedConfig,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct EmbedConfig {
    /// Origins whose pages may embed the console and hand it a token.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

#[derive(Clone, Copy)]
pub struct Config(LocalResource<RuntimeConfig>);

pub fn provide_config() {
    provide_context(Config(resource(load)));
}

pub fn use_config() -> Config {
    expect_context()
}

impl Config {
    /// The configuration once loaded; `None` while `config.json` is on its way.
    pub fn get(&self) -> Option<RuntimeConfig> {
        self.0.get()
    }

    /// The same, without subscribing the caller to its arrival (in an event handler).
    pub fn get_untracked(&self) -> Option<RuntimeConfig> {
        self.0.get_untracked()
    }
}

/// A missing or malformed `config.json` leaves every setting at its default: the person can still
/// type the API address on the sign-in page.
async fn load() -> RuntimeConfig {
    let response = match gloo_net::http::Request::get("/config.json").send().await {
        Ok(response) if response.ok() => response,
        _ => return RuntimeConfig::default(),
    };
    response.json().await.unwrap_or_default()
}
