//! The HTTP client: base URL and auth header from the session, JSON both ways, errors a person
//! understands, sign-in on 401, and a wait-and-retry on 429. One module per resource family.

mod account;
pub mod advanced_settings;
pub mod alert_receiver;
pub mod audit;
pub mod auto_deploy;
pub mod backup;
mod check;
pub mod cluster;
pub mod connection;
pub mod credentials;
pub mod custom_domain;
pub mod deployment_rule;
pub mod deployment_stage;
mod enhancement;
pub mod environment;
pub mod error;
pub mod fleet;
pub mod git_picker;
pub mod git_token;
pub mod groups;
pub mod helm_repository;
mod lifecycle_template;
pub mod managed_database;
pub mod member;
pub mod monitoring;
pub mod oidc;
pub mod organization;
mod prefetch;
pub mod preview;
pub mod project;
pub mod rate_limit;
pub mod registry;
pub mod review;
pub mod service;
pub mod service_facts;
pub mod service_kinds;
pub mod session;
mod shared_reads;
pub mod tfvars;
pub mod timeline;
pub mod token;
pub mod variable;
pub mod webhook;

pub use enhancement::Enhancement;
pub use error::{ApiError, DEPLOY_FORBIDDEN};

use std::future::Future;

use futures::future::{ready, Either};
use futures::FutureExt;
use gloo_net::http::{Method, RequestBuilder};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use uuid::Uuid;
use wasm_bindgen::JsValue;

use connection::Connection;
use rate_limit::RateLimit;
use service_kinds::ServiceKinds;
use session::{Credentials, Session};

/// How many times a call answered 429 or 503 is retried after the wait the API asked for.
const RATE_LIMIT_RETRIES: u32 = 3;

/// The API as the signed-in person calls it. Copy it into closures and async blocks.
#[derive(Clone, Copy)]
pub struct Api {
    session: Session,
    rate_limit: RateLimit,
    connection: Connection,
    kinds: ServiceKinds,
}

/// A record read for its id and name only, as the frame around every page shows it (breadcrumbs,
/// switchers, the command palette): decoding whole records there would put their decoders in
/// the code every page loads rather than in the pages that show them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Named {
    pub id: Uuid,
    pub name: String,
}

pub fn use_api() -> Api {
    Api {
        session: session::use_session(),
        rate_limit: rate_limit::use_rate_limit(),
        connection: connection::use_connection(),
        kinds: service_kinds::use_service_kinds(),
    }
}

impl Api {
    pub fn get<'a, T: DeserializeOwned + 'a>(
        &'a self,
        path: &'a str,
    ) -> impl Future<Output = Result<T, ApiError>> + 'a {
        self.send(Method::GET, path, None)
    }

    /// A read whose answer is text, not JSON (a kubeconfig's YAML), as it came.
    pub async fn get_text(&self, path: &str) -> Result<String, ApiError> {
        let bytes = self.send_body(Method::GET, path, None).await?;
        String::from_utf8(bytes).map_err(|error| ApiError::Decode(error.to_string()))
    }

    pub fn post<'a, B: Serialize, T: DeserializeOwned + 'a>(
        &'a self,
        path: &'a str,
        body: &B,
    ) -> impl Future<Output = Result<T, ApiError>> + 'a {
        self.send_encoded(Method::POST, path, body)
    }

    /// A POST whose answer is text, not JSON (a chart's values), as it came.
    pub async fn post_text<B: Serialize>(&self, path: &str, body: &B) -> Result<String, ApiError> {
        let body = encode(body)?;
        let bytes = self.send_body(Method::POST, path, Some(body)).await?;
        String::from_utf8(bytes).map_err(|error| ApiError::Decode(error.to_string()))
    }

    pub fn put<'a, B: Serialize, T: DeserializeOwned + 'a>(
        &'a self,
        path: &'a str,
        body: &B,
    ) -> impl Future<Output = Result<T, ApiError>> + 'a {
        self.send_encoded(Method::PUT, path, body)
    }

    /// A PUT whose answer has no body the console reads (the document's order of rules).
    pub async fn put_no_answer<B: Serialize>(&self, path: &str, body: &B) -> Result<(), ApiError> {
        let body = encode(body)?;
        self.send_body(Method::PUT, path, Some(body))
            .await
            .map(drop)
    }

    /// A POST whose answer has no body the console reads (a receiver's test).
    pub async fn post_answering_nothing<B: Serialize>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<(), ApiError> {
        let body = encode(body)?;
        self.send_body(Method::POST, path, Some(body))
            .await
            .map(drop)
    }

    pub async fn delete(&self, path: &str) -> Result<(), ApiError> {
        self.send_body(Method::DELETE, path, None).await.map(drop)
    }

    /// A DELETE whose body names what goes (the document's removal of a member).
    pub async fn delete_with<B: Serialize>(&self, path: &str, body: &B) -> Result<(), ApiError> {
        let body = encode(body)?;
        self.send_body(Method::DELETE, path, Some(body))
            .await
            .map(drop)
    }

    /// `send` with `body` as JSON, or the error that it cannot be written.
    fn send_encoded<'a, B: Serialize, T: DeserializeOwned + 'a>(
        &'a self,
        method: Method,
        path: &'a str,
        body: &B,
    ) -> impl Future<Output = Result<T, ApiError>> + 'a {
        match encode(body) {
            Ok(body) => Either::Left(self.send(method, path, Some(body))),
            Err(error) => Either::Right(ready(Err(error))),
        }
    }

    /// The typed face of `send_body`: only the decoding is compiled once per answer type. The
    /// call is boxed so that each answer type's future is a pointer and a decode, not a copy of
    /// the call's state machine (10 KB of wasm before wasm-opt in the service pages' group).
    fn send<'a, T: DeserializeOwned + 'a>(
        &'a self,
        method: Method,
        path: &'a str,
        body: Option<String>,
    ) -> impl Future<Output = Result<T, ApiError>> + 'a {
        self.send_body(method, path, body)
            .boxed_local()
            .map(|answer| decode(&answer?))
    }

    /// A read of a long list of large records of which the console reads a few `fields`: the
    /// browser parses the answer and writes it again with those keys only (at any depth), and
    /// `serde_json` reads that. The browser's parser goes through the rest faster than
    /// `serde_json` in the wasm (a thousand services' records, 748 KB: 18 ms, where `get` took
    /// 31).
    async fn get_fields<T: DeserializeOwned>(
        &self,
        path: &str,
        fields: &[&str],
    ) -> Result<T, ApiError> {
        let body = self.send_body(Method::GET, path, None).await?;
        let not_json = |_| ApiError::Decode("the answer is not JSON".into());
        let text = web_sys::TextDecoder::new()
            .and_then(|decoder| decoder.decode_with_u8_array(&body))
            .map_err(not_json)?;
        let parsed = js_sys::JSON::parse(&text).map_err(not_json)?;
        let kept: js_sys::Array = fields
            .iter()
            .map(|field| JsValue::from_str(field))
            .collect();
        let trimmed = js_sys::JSON::stringify_with_replacer(&parsed, &kept).map_err(not_json)?;
        decode(String::from(trimmed).as_bytes())
    }

    /// One call, retried after a 429, that signs out on 401 and tells the connection state how
    /// it went; the answer's body (a read's answer prefetched, or shared with the same read just
    /// asked, when there is one). Not generic: one copy in the wasm for every call.
    async fn send_body(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
    ) -> Result<Vec<u8>, ApiError> {
        if method != Method::GET {
            return self.call(method, path, body).await;
        }
        if let Some(answer) = prefetch::take(path) {
            return answer.await;
        }
        // Shared only between reads with the same credentials: a read signed in as one token
        // never answers one signed in as another.
        let Some(credentials) = self.session.credentials_untracked() else {
            return Err(ApiError::NotSignedIn);
        };
        let api = *self;
        let owned = path.to_string();
        let key = format!(
            "{}\u{0}{}\u{0}{path}",
            credentials.base_url, credentials.token
        );
        shared_reads::read(&key, move || {
            futures::FutureExt::boxed_local(
                async move { api.call(Method::GET, &owned, None).await },
            )
        })
        .await
    }

    /// `send_body` over the network, whatever was prefetched.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
    ) -> Result<Vec<u8>, ApiError> {
        let credentials = self
            .session
            .credentials_untracked()
            .ok_or(ApiError::NotSignedIn)?;
        // Every write passes here (an enhancement's too): nothing read before it is given again.
        if method != Method::GET {
            shared_reads::forget_all();
        }
        let mut attempt = 0;
        loop {
            let outcome = body_with(&credentials, method.clone(), path, body.as_deref()).await;
            match &outcome {
                Err(ApiError::Network(_)) => self.connection.failed(&credentials.base_url),
                _ => self.connection.reached(),
            }
            match outcome {
                Err(ApiError::AskedToWait { seconds }) if attempt < RATE_LIMIT_RETRIES => {
                    attempt += 1;
                    self.rate_limit.wait(seconds).await;
                }
                Err(ApiError::Unauthorized(message)) => {
                    self.session.expire();
                    return Err(ApiError::Unauthorized(message));
                }
                outcome => return outcome,
            }
        }
    }
}

/// One call with the given credentials; the sign-in page uses it to check a token.
pub async fn send_with<T: DeserializeOwned>(
    credentials: &Credentials,
    method: Method,
    path: &str,
    body: Option<&str>,
) -> Result<T, ApiError> {
    decode(&body_with(credentials, method, path, body).await?)
}

/// A value as a query string carries it.
pub fn query_value(value: &str) -> String {
    js_sys::encode_uri_component(value).into()
}

/// The body of the platform's actions that take no fields, `{}` (written without building a
/// JSON value, whose code would be in every page that sends one).
#[derive(Serialize)]
struct NoFields {}

/// A request's body as JSON.
fn encode<B: Serialize>(body: &B) -> Result<String, ApiError> {
    serde_json::to_string(body).map_err(|e| ApiError::Decode(e.to_string()))
}

/// An answer's JSON as `T`; an empty answer reads as `null`.
fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body = if body.is_empty() { b"null" } else { body };
    serde_json::from_slice(body).map_err(|e| ApiError::Decode(e.to_string()))
}

/// One call with the given credentials: the answer's body, or the error it says. Read as bytes:
/// a thousand services' statuses copy into the wasm's memory as they are, where text would be
/// encoded again from the browser's strings (a CPU profile: 20 ms for such a page's answers).
async fn body_with(
    credentials: &Credentials,
    method: Method,
    path: &str,
    body: Option<&str>,
) -> Result<Vec<u8>, ApiError> {
    let url = format!("{}{}", credentials.base_url.trim_end_matches('/'), path);
    let builder = RequestBuilder::new(&url)
        .method(method)
        .header("Authorization", &credentials.authorization_header())
        .header("Accept", "application/json");
    let request = match body {
        Some(body) => builder
            .header("Content-Type", "application/json")
            .body(body.to_string()),
        None => builder.build(),
    }
    .map_err(|e| ApiError::Network(e.to_string()))?;
    let response = request
        .send()
        .await
        .map_err(|_| ApiError::Network(credentials.base_url.clone()))?;
    if response.ok() {
        response
            .binary()
            .await
            .map_err(|e| ApiError::Network(e.to_string()))
    } else {
        Err(ApiError::from_response(response).await)
    }
}
