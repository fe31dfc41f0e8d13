//! An identity provider for the tests: a discovery document and a key set served on loopback,
//! and access tokens signed by its keys (RS256, ES256, EdDSA; a second RSA key published only
//! once a rotation is asked for). Every test server takes the shared one's tokens
//! (`shared()`); a test of rotation starts its own.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

use axum::routing::get;
use axum::{Json, Router};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{json, Value};

/// The audience of the provider's access tokens, and the console's client id.
pub const AUDIENCE: &str = "platform-console";

/// The provider's keys, by how they sign.
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Rsa,
    Ec,
    Ed,
    /// Published only once the provider has rotated it in.
    RotatedRsa,
}

impl Key {
    fn kid(self) -> &'static str {
        match self {
            Key::Rsa => "rsa-1",
            Key::Ec => "ec-1",
            Key::Ed => "ed-1",
            Key::RotatedRsa => "rsa-2",
        }
    }

    pub fn algorithm(self) -> Algorithm {
        match self {
            Key::Rsa | Key::RotatedRsa => Algorithm::RS256,
            Key::Ec => Algorithm::ES256,
            Key::Ed => Algorithm::EdDSA,
        }
    }

    fn encoding(self) -> EncodingKey {
        match self {
            Key::Rsa => EncodingKey::from_rsa_pem(include_bytes!("keys/rsa1.pem")),
            Key::RotatedRsa => EncodingKey::from_rsa_pem(include_bytes!("keys/rsa2.pem")),
            Key::Ec => EncodingKey::from_ec_pem(include_bytes!("keys/ec.pem")),
            Key::Ed => EncodingKey::from_ed_pem(include_bytes!("keys/ed.pem")),
        }
        .expect("the tests' keys read")
    }
}

/// The first RSA key's public key, as PEM: what an attacker would "sign" HS256 with.
pub const PUBLIC_RSA_PEM: &[u8] = include_bytes!("keys/rsa1.pub.pem");

pub struct TestIssuer {
    pub issuer: String,
    rotated: Arc<Mutex<bool>>,
    /// How many times the key set was fetched.
    pub fetched: Arc<AtomicUsize>,
}

static SHARED: LazyLock<TestIssuer> = LazyLock::new(TestIssuer::start);

/// The provider every test server takes tokens of.
pub fn shared() -> &'static TestIssuer {
    &SHARED
}

impl TestIssuer {
    /// A provider on a port of its own, served by a thread of its own (so that it outlives any
    /// one test's runtime).
    pub fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let rotated = Arc::new(Mutex::new(false));
        let fetched = Arc::new(AtomicUsize::new(0));
        let (discovery, keys, count) = (issuer.clone(), rotated.clone(), fetched.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let jwks_uri = format!("{discovery}/jwks");
                let app = Router::new()
                    .route(
                        "/.well-known/openid-configuration",
                        get(move || {
                            let (issuer, jwks_uri) = (discovery.clone(), jwks_uri.clone());
                            async move { Json(json!({"issuer": issuer, "jwks_uri": jwks_uri})) }
                        }),
                    )
                    .route(
                        "/jwks",
                        get(move || {
                            count.fetch_add(1, Ordering::SeqCst);
                            let rotated = *keys.lock().unwrap();
                            async move { Json(published(rotated)) }
                        }),
                    );
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app).await.unwrap();
            });
        });
        TestIssuer {
            issuer,
            rotated,
            fetched,
        }
    }

    /// Publishes the second RSA key beside the others.
    pub fn rotate(&self) {
        *self.rotated.lock().unwrap() = true;
    }

    /// `claims` signed by `key`, the key named in the header.
    pub fn sign(&self, key: Key, claims: &Value) -> String {
        let mut header = Header::new(key.algorithm());
        header.kid = Some(key.kid().to_string());
        jsonwebtoken::encode(&header, claims, &key.encoding()).unwrap()
    }

    /// The claims of a token valid for an hour, for the person `email` names (their subject is
    /// `sub|` and their address).
    pub fn claims(&self, email: &str) -> Value {
        let now = chrono::Utc::now().timestamp();
        json!({"iss": self.issuer, "aud": AUDIENCE, "sub": format!("sub|{email}"),
               "email": email, "name": format!("Person {email}"), "iat": now, "exp": now + 3600})
    }

    /// `Authorization: Bearer` of a token valid for an hour, for the person `email` names.
    pub fn bearer(&self, email: &str) -> String {
        format!("Bearer {}", self.sign(Key::Rsa, &self.claims(email)))
    }

    /// The provider as a server is started with it.
    pub fn provider(&self) -> platform_server::oidc::IdentityProvider {
        platform_server::oidc::IdentityProvider {
            issuer: self.issuer.clone(),
            audience: Some(AUDIENCE.to_string()),
            client_id: Some(AUDIENCE.to_string()),
            keys_refetched_every: platform_server::oidc::REFETCH_EVERY,
        }
    }
}

/// The key set: every key but the rotated one until it is rotated in.
fn published(rotated: bool) -> Value {
    let keys: Vec<Value> = serde_json::from_str(include_str!("keys/jwks.json")).unwrap();
    let keys: Vec<Value> = keys
        .into_iter()
        .filter(|key| rotated || key["kid"] != "rsa-2")
        .collect();
    json!({ "keys": keys })
}
