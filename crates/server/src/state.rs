//! What every handler shares: the database's pools, the engine, and the server's settings and
//! caches.

use std::sync::Arc;

use sqlx::SqlitePool;

use crate::engine::Engine;
use crate::kept::Kept;
use crate::public::PublicAddress;
use crate::rate_limit::RateLimiter;
use crate::seal::Sealer;
use crate::targets::TargetPolicy;

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    /// Reads, any number at once (the write-ahead log).
    pub db: SqlitePool,
    /// Writes, one at a time in the order they ask (`db::writer`), the engine's too: a write
    /// waits its turn here rather than in SQLite's busy handler, which lets a later writer
    /// through before an earlier one and kept some waiting past the busy timeout.
    pub writes: SqlitePool,
    /// How long the write holding `writes` has held it.
    pub write_lock: Arc<crate::db::WriteLock>,
    pub engine: Arc<Engine>,
    /// The simulated cluster's metrics, lines and events.
    pub telemetry: Arc<crate::telemetry::Telemetry>,
    pub embed_allowed_origins: Arc<Vec<String>>,
    /// The identity provider whose people sign in with access tokens; none without
    /// `--oidc-issuer`.
    pub oidc: Option<Arc<crate::oidc::Provider>>,
    /// The same, as `config.json` publishes it.
    pub identity_provider: Option<crate::oidc::IdentityProvider>,
    pub rate_limiter: Arc<RateLimiter>,
    /// Where the server may send requests for a caller.
    pub targets: Arc<TargetPolicy>,
    /// Sends to alert receivers.
    pub notifier: crate::notify::Notifier,
    /// Seals the secrets the server stores.
    pub sealer: Arc<Sealer>,
    /// Answers kept in memory while the database has not changed.
    pub kept: Arc<Kept>,
    /// The address links name.
    pub public: Arc<PublicAddress>,
}
