//! OpenID Connect as a public client (the console keeps no secret): the provider's discovery
//! document, the authorization request with PKCE (S256), `state` and `nonce`, the code's
//! exchange, and renewal with the refresh token. Tokens travel in request bodies, never in a
//! URL; the provider's own words in a refusal are shown, never a token.

use gloo_net::http::{Request, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen_futures::JsFuture;

use super::query_value;

/// The provider's endpoints the console uses, from its discovery document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Endpoints {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_session_endpoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revocation_endpoint: Option<String>,
}

/// What the token endpoint answers.
#[derive(Deserialize)]
pub struct Tokens {
    pub access_token: String,
    /// Seconds the access token lives.
    #[serde(default)]
    pub expires_in: Option<f64>,
    #[serde(default)]
    pub refresh_token: Option<String>,
    #[serde(default)]
    pub id_token: Option<String>,
}

/// The claims of an ID token the console reads.
#[derive(Deserialize)]
pub struct IdClaims {
    #[serde(default)]
    pub nonce: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
}

#[derive(Deserialize)]
struct Refusal {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// The issuer's discovery document; it must name the issuer configured.
pub async fn discover(issuer: &str) -> Result<Endpoints, String> {
    let issuer = issuer.trim_end_matches('/');
    let url = format!("{issuer}/.well-known/openid-configuration");
    let answer = Request::get(&url).send().await;
    let endpoints: Endpoints = read(answer, "its discovery document").await?;
    if endpoints.issuer.trim_end_matches('/') != issuer {
        return Err(format!(
            "The identity provider's discovery document names another issuer ({}).",
            endpoints.issuer
        ));
    }
    Ok(endpoints)
}

/// The authorization code exchanged for tokens, with the verifier its challenge was made of.
pub async fn exchange_code(
    token_endpoint: &str,
    client_id: &str,
    code: &str,
    verifier: &str,
    redirect_uri: &str,
) -> Result<Tokens, String> {
    token_request(
        token_endpoint,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("client_id", client_id),
            ("code_verifier", verifier),
        ],
    )
    .await
}

/// New tokens for the refresh token (the provider may rotate it: keep the one answered).
pub async fn refresh(
    token_endpoint: &str,
    client_id: &str,
    refresh_token: &str,
) -> Result<Tokens, String> {
    token_request(
        token_endpoint,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", client_id),
        ],
    )
    .await
}

/// Tells the provider the refresh token is no longer wanted (signing out); its answer changes
/// nothing here.
pub async fn revoke(revocation_endpoint: &str, client_id: &str, refresh_token: &str) {
    let _ = post_form(
        revocation_endpoint,
        &[
            ("token", refresh_token),
            ("token_type_hint", "refresh_token"),
            ("client_id", client_id),
        ],
    )
    .await;
}

async fn token_request(token_endpoint: &str, form: &[(&str, &str)]) -> Result<Tokens, String> {
    read(post_form(token_endpoint, form).await, "tokens").await
}

async fn post_form(url: &str, form: &[(&str, &str)]) -> Result<Response, gloo_net::Error> {
    Request::post(url)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(form_body(form))?
        .send()
        .await
}

/// Pairs as `application/x-www-form-urlencoded` (and as a URL's query).
pub fn form_body(form: &[(&str, &str)]) -> String {
    form.iter()
        .map(|(name, value)| format!("{name}={}", query_value(value)))
        .collect::<Vec<_>>()
        .join("&")
}

async fn read<T: DeserializeOwned>(
    answer: Result<Response, gloo_net::Error>,
    what: &str,
) -> Result<T, String> {
    let response =
        answer.map_err(|_| format!("The identity provider could not be reached for {what}."))?;
    let body = response.binary().await.unwrap_or_default();
    if !response.ok() {
        return Err(match serde_json::from_slice::<Refusal>(&body) {
            Ok(refusal) => format!(
                "The identity provider refused: {}.",
                refusal.error_description.unwrap_or(refusal.error)
            ),
            Err(_) => format!(
                "The identity provider answered HTTP {} for {what}.",
                response.status()
            ),
        });
    }
    serde_json::from_slice(&body)
        .map_err(|_| format!("The identity provider's answer for {what} could not be read."))
}

/// 32 random bytes as base64url: a PKCE verifier, a `state` or a `nonce`.
pub fn random_text() -> String {
    let mut bytes = [0u8; 32];
    if let Ok(crypto) = leptos::prelude::window().crypto() {
        let _ = crypto.get_random_values_with_u8_array(&mut bytes);
    }
    base64url(&bytes)
}

/// The PKCE S256 challenge of a verifier.
pub async fn challenge(verifier: &str) -> Result<String, String> {
    let unavailable =
        |_| "This browser cannot hash (SubtleCrypto): sign in with a token.".to_string();
    let subtle = leptos::prelude::window()
        .crypto()
        .map_err(unavailable)?
        .subtle();
    let digest = subtle
        .digest_with_str_and_u8_array("SHA-256", verifier.as_bytes())
        .map_err(unavailable)?;
    let digest = JsFuture::from(digest).await.map_err(unavailable)?;
    Ok(base64url(&js_sys::Uint8Array::new(&digest).to_vec()))
}

/// The claims of a JWT's payload (not verified: the token came straight from the provider's
/// token endpoint, which is what OpenID Connect asks of a client's check of the nonce).
pub fn claims<T: DeserializeOwned>(jwt: &str) -> Option<T> {
    let payload = jwt.split('.').nth(1)?;
    serde_json::from_slice(&from_base64url(payload)?).ok()
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (i, byte)| {
            word | (u32::from(*byte) << (16 - 8 * i))
        });
        for i in 0..=chunk.len() {
            text.push(ALPHABET[(word >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    text
}

fn from_base64url(text: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    let (mut word, mut bits) = (0u32, 0);
    for character in text.bytes() {
        let value = ALPHABET.iter().position(|&a| a == character)? as u32;
        word = (word << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((word >> bits) as u8);
        }
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_reads_back_every_length() {
        for length in 0..40u8 {
            let bytes: Vec<u8> = (0..length).map(|n| n.wrapping_mul(97)).collect();
            let text = base64url(&bytes);
            assert!(!text.contains(['+', '/', '=']), "{text}");
            assert_eq!(from_base64url(&text), Some(bytes));
        }
        // RFC 7636's example: the challenge of its verifier, as SHA-256 then base64url.
        assert_eq!(
            base64url(&[
                19, 211, 30, 150, 26, 26, 216, 236, 47, 22, 177, 12, 76, 152, 46, 8, 118, 168, 120,
                173, 109, 241, 68, 86, 110, 225, 137, 74, 203, 112, 249, 195
            ]),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t7U1Nu8lbmZ6HgJM"
        );
    }
}
