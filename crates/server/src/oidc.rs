//! People signed in through the organization's identity provider (OpenID Connect): their access
//! tokens (`Authorization: Bearer`) checked against the keys the provider publishes. The
//! provider's discovery document names its key set (`jwks_uri`); the keys are kept, and fetched
//! again when a token names a key not among them, at most once a minute, so that a key the
//! provider rotates in works without a restart. A token is taken only when it is signed with
//! RS256, ES256 or EdDSA by one of those keys (with the algorithm the key is for), names this
//! issuer and this audience, is within its validity, and names a subject.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, JwkSet, KeyAlgorithm};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use tokio::sync::{Mutex, RwLock};

use crate::untrusted;

/// How often the key set may be fetched again for a token naming an unknown key.
pub const REFETCH_EVERY: Duration = Duration::from_secs(60);
/// The longest the provider may take to answer.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The identity provider as the server is started with it: `--oidc-issuer`, `--oidc-audience`
/// (the audience its access tokens are for) and `--oidc-client-id` (the console's, published in
/// `config.json` with the issuer and audience).
#[derive(Clone, Debug, PartialEq)]
pub struct IdentityProvider {
    pub issuer: String,
    pub audience: Option<String>,
    pub client_id: Option<String>,
    /// How often the key set may be fetched again for a token naming an unknown key
    /// (`REFETCH_EVERY`; shorter in the tests of a rotation).
    pub keys_refetched_every: Duration,
}

impl IdentityProvider {
    /// The provider whose tokens the server takes: for the audience named, else the console's
    /// client id; an error when neither is given.
    pub fn provider(&self) -> anyhow::Result<Provider> {
        let audience = self
            .audience
            .clone()
            .or_else(|| self.client_id.clone())
            .ok_or_else(|| {
                anyhow::anyhow!("--oidc-issuer needs --oidc-audience or --oidc-client-id: the audience its access tokens are for")
            })?;
        Ok(Provider::new(
            self.issuer.clone(),
            audience,
            self.keys_refetched_every,
        ))
    }

    /// What `config.json` says of the provider: the console signs in through it when it has a
    /// client id.
    pub fn published(&self) -> Option<platform_api::console_config::OidcConfig> {
        Some(platform_api::console_config::OidcConfig {
            issuer: self.issuer.clone(),
            client_id: self.client_id.clone()?,
            audience: self.audience.clone(),
            scopes: None,
            name: None,
        })
    }

    /// The issuer's origin (`https://sso.example.com`), which the console's pages may reach.
    pub fn origin(&self) -> Option<String> {
        let url = reqwest::Url::parse(&self.issuer).ok()?;
        Some(url.origin().ascii_serialization())
    }
}

/// The provider of the people who sign in, as the server was started with it.
pub struct Provider {
    issuer: String,
    audience: String,
    refetch_every: Duration,
    http: reqwest::Client,
    keys: RwLock<HashMap<String, (DecodingKey, Algorithm)>>,
    /// When the key set was last fetched: fetches wait on each other.
    fetched: Mutex<Option<Instant>>,
}

/// Who a token names.
#[derive(Clone, Debug, PartialEq)]
pub struct Person {
    pub subject: String,
    pub email: Option<String>,
    pub name: Option<String>,
}

#[derive(Deserialize)]
struct Claims {
    sub: String,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct Discovery {
    issuer: String,
    jwks_uri: String,
}

impl Provider {
    /// The provider at `issuer`, whose access tokens are for `audience`.
    pub fn new(issuer: String, audience: String, refetch_every: Duration) -> Self {
        Provider {
            issuer,
            audience,
            refetch_every,
            http: reqwest::Client::builder()
                .timeout(FETCH_TIMEOUT)
                .build()
                .expect("a client of default settings builds"),
            keys: RwLock::new(HashMap::new()),
            fetched: Mutex::new(None),
        }
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The person `token` names, or why it is refused (a sentence that never quotes the token).
    pub async fn verify(&self, token: &str) -> Result<Person, String> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| "The access token is not a signed JWT.".to_string())?;
        if !matches!(
            header.alg,
            Algorithm::RS256 | Algorithm::ES256 | Algorithm::EdDSA
        ) {
            return Err(format!(
                "The access token is signed with {:?}: this server takes RS256, ES256 or EdDSA \
                 signatures of the identity provider's keys.",
                header.alg
            ));
        }
        let kid = header.kid.clone().unwrap_or_default();
        let (key, algorithm) = self.key(&kid).await?;
        if header.alg != algorithm {
            return Err(format!(
                "The access token says {:?}, but the provider's key {kid} signs {algorithm:?}.",
                header.alg
            ));
        }
        let mut validation = Validation::new(algorithm);
        validation.leeway = 0;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let claims = jsonwebtoken::decode::<Claims>(token, &key, &validation)
            .map_err(|error| refusal(error.kind(), &self.issuer, &self.audience))?
            .claims;
        if claims.sub.trim().is_empty() {
            return Err("The access token names no subject.".to_string());
        }
        Ok(Person {
            subject: claims.sub,
            email: claims.email.filter(|email| !email.trim().is_empty()),
            name: claims.name.filter(|name| !name.trim().is_empty()),
        })
    }

    /// The key `kid` names, fetching the key set again when it is not among those kept and the
    /// last fetch is a minute old.
    async fn key(&self, kid: &str) -> Result<(DecodingKey, Algorithm), String> {
        if let Some(found) = self.keys.read().await.get(kid) {
            return Ok(found.clone());
        }
        let mut fetched = self.fetched.lock().await;
        // Another request may have fetched it while this one waited.
        if let Some(found) = self.keys.read().await.get(kid) {
            return Ok(found.clone());
        }
        if fetched.is_none_or(|at| at.elapsed() >= self.refetch_every) {
            *fetched = Some(Instant::now());
            match self.fetch_keys().await {
                Ok(keys) => *self.keys.write().await = keys,
                Err(error) => {
                    tracing::warn!(issuer = %self.issuer, %error, "the identity provider's keys could not be read");
                    return Err(
                        "The identity provider's keys could not be read; try again shortly."
                            .to_string(),
                    );
                }
            }
        }
        self.keys.read().await.get(kid).cloned().ok_or_else(|| {
            "The access token is signed by a key the identity provider does not publish."
                .to_string()
        })
    }

    /// The provider's key set, by key id: the keys of the algorithms taken, the others left out.
    async fn fetch_keys(&self) -> anyhow::Result<HashMap<String, (DecodingKey, Algorithm)>> {
        let discovery_url = format!(
            "{}/.well-known/openid-configuration",
            self.issuer.trim_end_matches('/')
        );
        let discovery: Discovery = self.fetch(&discovery_url).await?;
        if discovery.issuer != self.issuer {
            anyhow::bail!(
                "the discovery document names the issuer {}, not {}",
                discovery.issuer,
                self.issuer
            );
        }
        let set: JwkSet = self.fetch(&discovery.jwks_uri).await?;
        Ok(set
            .keys
            .iter()
            .filter_map(|jwk| {
                let algorithm = algorithm_of(jwk)?;
                let key = DecodingKey::from_jwk(jwk).ok()?;
                Some((
                    jwk.common.key_id.clone().unwrap_or_default(),
                    (key, algorithm),
                ))
            })
            .collect())
    }

    /// The JSON document at `url`: read up to `PROVIDER_DOCUMENT`'s size, parsed on a parser's
    /// thread once its depth is checked, as any untrusted content.
    async fn fetch<T: serde::de::DeserializeOwned + Send + 'static>(
        &self,
        url: &str,
    ) -> anyhow::Result<T> {
        let limits = &untrusted::PROVIDER_DOCUMENT;
        let mut response = self.http.get(url).send().await?.error_for_status()?;
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await? {
            body.extend_from_slice(&chunk);
            if let Some(message) = limits.too_large(url, body.len()) {
                anyhow::bail!("{message}");
            }
        }
        let text = String::from_utf8(body)?;
        let parsed = untrusted::parse(limits, url.to_string(), text, |_, text| {
            Ok::<_, untrusted::Refused>(serde_json::from_str::<T>(text).map_err(|e| e.to_string()))
        })
        .await
        .map_err(|refused| match refused {
            untrusted::Refused::TooLarge(message) | untrusted::Refused::TooDeep(message) => {
                anyhow::anyhow!("{message}")
            }
            untrusted::Refused::Busy => anyhow::anyhow!("no parser was free to read {url}"),
        })?;
        parsed.map_err(|error| anyhow::anyhow!("{url}: {error}"))
    }
}

/// The algorithm a published key signs with: its `alg`, or its kind's (RSA keys RS256, P-256
/// keys ES256, Ed25519 keys EdDSA); none for a key of another kind (a shared secret is never
/// taken from a key set).
fn algorithm_of(jwk: &Jwk) -> Option<Algorithm> {
    let by_kind = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => Algorithm::RS256,
        AlgorithmParameters::EllipticCurve(params) if params.curve == EllipticCurve::P256 => {
            Algorithm::ES256
        }
        AlgorithmParameters::OctetKeyPair(params) if params.curve == EllipticCurve::Ed25519 => {
            Algorithm::EdDSA
        }
        _ => return None,
    };
    // A key that says what it signs must say its kind's algorithm (an encryption key, or an RSA
    // key for PS256, is not taken).
    let stated = jwk.common.key_algorithm.map(|stated| match stated {
        KeyAlgorithm::RS256 => Some(Algorithm::RS256),
        KeyAlgorithm::ES256 => Some(Algorithm::ES256),
        KeyAlgorithm::EdDSA => Some(Algorithm::EdDSA),
        _ => None,
    });
    match stated {
        Some(stated) if stated != Some(by_kind) => None,
        _ => Some(by_kind),
    }
}

/// Why a token signed by a known key was refused.
fn refusal(kind: &ErrorKind, issuer: &str, audience: &str) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "The access token has expired.".to_string(),
        ErrorKind::ImmatureSignature => "The access token is not valid yet.".to_string(),
        ErrorKind::InvalidIssuer => {
            format!("The access token was issued by another provider than {issuer}.")
        }
        ErrorKind::InvalidAudience => {
            format!("The access token is for another audience than {audience}.")
        }
        ErrorKind::InvalidSignature => {
            "The access token's signature is not the identity provider's.".to_string()
        }
        ErrorKind::MissingRequiredClaim(claim) => {
            format!("The access token has no `{claim}` claim.")
        }
        _ => "The access token is not valid.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A provider whose key set nests 10,000 deep is refused by its depth, without parsing it
    /// (and the server goes on).
    #[tokio::test]
    async fn a_key_set_nested_ten_thousand_deep_is_refused() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let discovery = serde_json::json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")});
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let app = axum::Router::new()
            .route(
                "/.well-known/openid-configuration",
                axum::routing::get(move || async move { axum::Json(discovery) }),
            )
            .route("/jwks", axum::routing::get(move || async move { deep }));
        tokio::spawn(async move { axum::serve(listener, app).await });
        let provider = Provider::new(issuer, "console".into(), REFETCH_EVERY);
        let refused = provider.fetch_keys().await.err().expect("refused");
        assert!(
            refused.to_string().contains("nests deeper than"),
            "{refused}"
        );
    }
}
