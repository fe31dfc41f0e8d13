//! `config.json`, read by the console at start from beside its `index.html` so that one build
//! serves every deployment: the API it talks to, the identity provider people sign in through,
//! and the pages that may embed it. The reference server writes it; an operator hosting the
//! console as static files writes it by hand.

use serde::{Deserialize, Serialize};

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConsoleConfig {
    /// The API the console talks to, e.g. `https://api.example.com` or
    /// `http://127.0.0.1:8080/api`; when given, the sign-in page does not ask for it.
    #[serde(default)]
    pub api_base_url: Option<String>,
    /// The OpenID Connect provider people sign in through; without one, the sign-in page takes a
    /// pasted token only.
    #[serde(default)]
    pub oidc: Option<OidcConfig>,
    #[serde(default)]
    pub embed: EmbedConfig,
}

/// The identity provider, as the console signs in through it: the Authorization Code flow with
/// PKCE, as a public client.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OidcConfig {
    /// The issuer, whose discovery document (`/.well-known/openid-configuration`) names its
    /// endpoints.
    pub issuer: String,
    pub client_id: String,
    /// The API's audience, asked for when the provider wants one named (Auth0's `audience`).
    #[serde(default)]
    pub audience: Option<String>,
    /// Space-separated; `DEFAULT_SCOPES` when left out.
    #[serde(default)]
    pub scopes: Option<String>,
    /// How the sign-in button names the provider ("Sign in with Acme SSO").
    #[serde(default)]
    pub name: Option<String>,
}

/// What the console asks for when `config.json` names no scopes: who the person is, their
/// address, and a refresh token to renew with.
pub const DEFAULT_SCOPES: &str = "openid profile email offline_access";

impl OidcConfig {
    pub fn scopes(&self) -> &str {
        self.scopes
            .as_deref()
            .filter(|scopes| !scopes.trim().is_empty())
            .unwrap_or(DEFAULT_SCOPES)
    }

    /// The provider as its button names it: the configured name, else its issuer's host.
    pub fn label(&self) -> String {
        match self.name.as_deref().filter(|name| !name.trim().is_empty()) {
            Some(name) => name.to_string(),
            None => {
                let host = self
                    .issuer
                    .split("://")
                    .nth(1)
                    .unwrap_or(&self.issuer)
                    .split('/')
                    .next()
                    .unwrap_or_default();
                host.to_string()
            }
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EmbedConfig {
    /// Origins whose pages may embed the console and hand it a token.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_is_named_and_asks_for_its_scopes() {
        let read: ConsoleConfig = serde_json::from_str(
            r#"{"api_base_url": "https://api.example.com",
                "oidc": {"issuer": "https://sso.example.com/realms/acme", "client_id": "console"}}"#,
        )
        .unwrap();
        let oidc = read.oidc.unwrap();
        assert_eq!(oidc.label(), "sso.example.com");
        assert_eq!(oidc.scopes(), DEFAULT_SCOPES);
        let named = OidcConfig {
            name: Some("Acme SSO".into()),
            scopes: Some("openid email".into()),
            ..oidc
        };
        assert_eq!(named.label(), "Acme SSO");
        assert_eq!(named.scopes(), "openid email");
        // An older config.json, without a provider, reads as it did.
        let old: ConsoleConfig =
            serde_json::from_str(r#"{"embed": {"allowed_origins": []}}"#).unwrap();
        assert_eq!(old.oidc, None);
    }
}
